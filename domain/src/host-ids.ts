/**
 * Spec 002 §3 (Server entity) and §5 (host id types, server checks, new host dialog): the one set of host id
 * rules shared by the browser, the server and the license-file generator/parser.
 */

export const hostIdTypes = ['ETHERNET', 'DISK_SERIAL_NUM', 'FLEXID'] as const;
export type HostIdType = (typeof hostIdTypes)[number];

/** Spec 002 §9: the vendor's documented license server port. */
export const DEFAULT_HOST_PORT = 1055;
/** The TCP port range a SERVER line may name (the create call's schema allows the same). */
export const HOST_PORT_MIN = 1;
export const HOST_PORT_MAX = 65_535;
/** Spec 002 §9: a triad has 3 servers (a quorum of 2 serves licenses). */
export const TRIAD_SIZE = 3;
/** Our limit: long enough for a fully qualified host name label, short enough for a SERVER line and the grids. */
export const HOST_NAME_MAX = 64;

const inUse = (name: string, identifier: string) =>
  `Host identifier ${name} (${identifier}) is already in use.`;

/** Spec texts, verbatim where the spec gives them. */
export const hostIdMessages = {
  invalidEthernet: (id: string) =>
    `Invalid ETHERNET server id: ${id}. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.`,
  invalidDisk: (id: string) =>
    `Invalid DISK_SERIAL_NUM server id: ${id}. It must be 8 hexadecimal (0-9, a-f, or A-F) digits. Check for missing characters and add leading zeroes.`,
  invalidFlexid: (id: string) =>
    `Invalid FLEXID server id: ${id}. It must start with '9-' followed by 8 hexadecimal (0-9, a-f, or A-F) digits.`,
  unsupportedType: (type: string) => `Unsupported host id type: ${type}`,
  idNotDefined: 'Server id is not defined',
  typeNotDefined: 'Server id type is not defined',
  notSingleOrTriad: (id: string) => `Server id ${id} is not a single or triad server`,
  countMismatch: (ids: number, types: number) =>
    `Server id count (${ids}) does not match server id type count (${types})`,
  triadTypesDiffer: 'Triad servers must all be the same host id type',
  // Not in the spec: three SERVER lines with one host id are no triad (no quorum can form).
  triadIdsRepeat: (id: string) => `Triad servers must have three different server ids: ${id} appears twice.`,
  inUse,
  // The spec's hint is cut off in its source; this wording is ours.
  inUseRehostHint: (name: string, identifier: string) =>
    `${inUse(name, identifier)} To move activations between hosts, use Rehost on the Manage Activations page.`,
  active: (name: string, identifier: string) => `Host ${name} (${identifier}) is active.`,
  invalidHostName: 'Please remove spaces and special characters.',
  hostNameTooLong: `Host name must be at most ${HOST_NAME_MAX} characters.`,
  // Not in the spec (it shows no port field): ours.
  invalidPort: `Port must be a whole number from ${HOST_PORT_MIN} to ${HOST_PORT_MAX}.`,
} as const;

const typeAliases: Record<string, HostIdType> = {
  '1': 'DISK_SERIAL_NUM',
  D: 'DISK_SERIAL_NUM',
  DISK_SERIAL_NUM: 'DISK_SERIAL_NUM',
  '2': 'ETHERNET',
  E: 'ETHERNET',
  ETHERNET: 'ETHERNET',
  MAC_ADDRESS: 'ETHERNET',
  '3': 'FLEXID',
  F: 'FLEXID',
  FLEXID: 'FLEXID',
};

/** Type codes 1/2/3 and D/E/F (spec 002 §5), the type names in any case, and MAC_ADDRESS (the displayed name). */
export function normaliseHostIdType(raw: string): HostIdType | null {
  const key = raw.trim().toUpperCase();
  return Object.hasOwn(typeAliases, key) ? typeAliases[key] : null;
}

/** The canonical shape of each type (lower case, no prefix). */
const canonical: Record<HostIdType, RegExp> = {
  ETHERNET: /^[0-9a-f]{12}$/,
  DISK_SERIAL_NUM: /^[0-9a-f]{8}$/,
  FLEXID: /^9-[0-9a-f]{8}$/,
};

/** Matched on lower-cased text, any number of times, so that normalising twice changes nothing. */
const prefixes: Record<HostIdType, RegExp> = {
  ETHERNET: /^(?:(?:ethernet|mac_address)\s*=\s*)+/,
  DISK_SERIAL_NUM: /^(?:disk_serial_num\s*=\s*)+/,
  FLEXID: /^(?:flexid\s*=\s*)+/,
};

/** Unix `8:0:20:0:5:ac` and Windows `00-00-12-42-41-BC`: six bytes, one separator throughout. */
const MAC_WITH_SEPARATORS = /^[0-9a-f]{1,2}([:-])(?:[0-9a-f]{1,2}\1){4}[0-9a-f]{1,2}$/;
/** A volume serial as Windows `vol` shows it: `BC09-8AE4`. */
const VOLUME_SERIAL = /^[0-9a-f]{4}-[0-9a-f]{4}$/;

/**
 * What users paste → the canonical lower-case form without a 'TYPE=' prefix. Invalid text comes back cleaned
 * (trimmed, prefix stripped, lower case) so validation can judge it; normalising is idempotent.
 */
export function normaliseHostId(type: HostIdType, raw: string): string {
  const text = raw.trim().toLowerCase().replace(prefixes[type], '');
  if (type === 'ETHERNET' && MAC_WITH_SEPARATORS.test(text)) {
    return text
      .split(/[:-]/)
      .map((byte) => byte.padStart(2, '0'))
      .join('');
  }
  if (type === 'DISK_SERIAL_NUM' && VOLUME_SERIAL.test(text)) return text.replace('-', '');
  return text;
}

const invalidMessage: Record<HostIdType, (id: string) => string> = {
  ETHERNET: hostIdMessages.invalidEthernet,
  DISK_SERIAL_NUM: hostIdMessages.invalidDisk,
  FLEXID: hostIdMessages.invalidFlexid,
};

const isCanonical = (type: HostIdType, id: string) => canonical[type].test(id);

/** null when the id is valid after normalisation, else the spec's message quoting the id as typed (trimmed). */
export function validateHostId(type: HostIdType, raw: string): string | null {
  return isCanonical(type, normaliseHostId(type, raw)) ? null : invalidMessage[type](raw.trim());
}

/**
 * The display form: for the canonical ids it is the id itself. Going through normalisation keeps ids stored
 * in another case (or imported with separators) displayed the one way.
 */
export function formatHostId(type: HostIdType, id: string): string {
  return normaliseHostId(type, id);
}

/** One host: a single server or a triad (1 or 3 entries), canonical ids, in the order entered. */
export interface HostIdentity {
  ids: string[];
  types: HostIdType[];
}

type HostIdentityResult = { ok: true; identity: HostIdentity } | { ok: false; err: string };

const splitList = (text: string) => text.split(',').map((part) => part.trim());

/**
 * The server checks of spec 002 §5 on the comma-separated wire form (serverId 'a,b,c', serverIdType
 * 'ETHERNET,ETHERNET,ETHERNET'), in the spec's order; the first failing check wins. Values may be missing at
 * runtime (an incomplete request), hence null and undefined count as not defined.
 */
export function parseHostIdentity(
  serverId: string | null | undefined,
  serverIdType: string | null | undefined,
): HostIdentityResult {
  if (!serverId?.trim()) return { ok: false, err: hostIdMessages.idNotDefined };
  if (!serverIdType?.trim()) return { ok: false, err: hostIdMessages.typeNotDefined };
  const rawIds = splitList(serverId);
  if (rawIds.length !== 1 && rawIds.length !== TRIAD_SIZE) {
    return { ok: false, err: hostIdMessages.notSingleOrTriad(serverId.trim()) };
  }
  const rawTypes = splitList(serverIdType);
  if (rawTypes.length !== rawIds.length) {
    return { ok: false, err: hostIdMessages.countMismatch(rawIds.length, rawTypes.length) };
  }
  const types: HostIdType[] = [];
  for (const rawType of rawTypes) {
    const type = normaliseHostIdType(rawType);
    if (!type) return { ok: false, err: hostIdMessages.unsupportedType(rawType) };
    types.push(type);
  }
  if (types.some((type) => type !== types[0])) return { ok: false, err: hostIdMessages.triadTypesDiffer };
  const ids: string[] = [];
  for (const [index, rawId] of rawIds.entries()) {
    const err = validateHostId(types[index], rawId);
    if (err) return { ok: false, err };
    const id = normaliseHostId(types[index], rawId);
    if (ids.includes(id)) return { ok: false, err: hostIdMessages.triadIdsRepeat(rawId) };
    ids.push(id);
  }
  return { ok: true, identity: { ids, types } };
}

/** Back to the wire form of the spec's calls. */
export function serialiseHostIdentity(identity: HostIdentity): { serverId: string; serverIdType: string } {
  return { serverId: identity.ids.join(','), serverIdType: identity.types.join(',') };
}

/** Spec 002 §3: `TYPE=id` per server, 'TYPE=' omitted for ETHERNET; the key a host is unique by. */
export function hostIdentifier(identity: HostIdentity): string {
  return identity.ids
    .map((id, index) => {
      const type = identity.types[index];
      return type === 'ETHERNET' ? id : `${type}=${id}`;
    })
    .join(',');
}

/** How a SERVER line (or HOSTID=) writes the id: an Ethernet address bare, the others with their keyword. */
export function flexlmHostId(type: HostIdType, id: string): string {
  const canonicalId = formatHostId(type, id);
  return type === 'ETHERNET' ? canonicalId : `${type}=${canonicalId}`;
}

/**
 * Reads one host id as license files and lmhostid print it. Bare ids are told apart by shape (some files carry
 * a bare 8-hex disk serial); the other FlexNet types (ANY, DEMO, HOSTNAME=, INTERNET=, ID=, VM_UUID=…) are not
 * accepted by the portal and give null.
 */
export function parseFlexlmHostId(token: string): { type: HostIdType; id: string } | null {
  const text = token.trim();
  const keyed = /^(DISK_SERIAL_NUM|FLEXID)\s*=/i.exec(text);
  if (keyed) {
    const type = keyed[1].toUpperCase() as HostIdType;
    const id = normaliseHostId(type, text);
    return isCanonical(type, id) ? { type, id } : null;
  }
  const bare = text.toLowerCase();
  const type = hostIdTypes.find((t) => isCanonical(t, bare));
  return type ? { type, id: bare } : null;
}

/** Spec 002 §3: in human-readable host ids ETHERNET is shown as MAC_ADDRESS. */
export function humanHostIdType(type: HostIdType): string {
  return type === 'ETHERNET' ? 'MAC_ADDRESS' : type;
}

/**
 * What a host name may hold: printable ASCII without the spec's forbidden characters. Anything else counts as a
 * special character: a tab or line break would split the SERVER line the name is written into, and invisible,
 * bidirectional and other non-ASCII characters (zero-width spaces, RTL overrides, Cyrillic look-alikes) would
 * make names that look like another host's and SERVER lines FlexLM does not read (issue 20 §7).
 */
const HOST_NAME_CHARACTERS = /^[A-Za-z0-9\-._]+$/;

/** Host-name rule of the Add New Host dialog (spec 002 §5), judged on the trimmed name. */
export function validateHostName(name: string): string | null {
  const trimmed = name.trim();
  if (!HOST_NAME_CHARACTERS.test(trimmed)) return hostIdMessages.invalidHostName;
  if (trimmed.length > HOST_NAME_MAX) return hostIdMessages.hostNameTooLong;
  return null;
}

/** The port as typed in the Add New Host dialog: digits only, within the TCP range; null when valid. */
export function validateHostPort(raw: string): string | null {
  const text = raw.trim();
  if (!/^\d{1,5}$/.test(text)) return hostIdMessages.invalidPort;
  const port = Number(text);
  return port >= HOST_PORT_MIN && port <= HOST_PORT_MAX ? null : hostIdMessages.invalidPort;
}
