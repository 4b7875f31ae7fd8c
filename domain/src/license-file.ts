import { parseCalendarDay } from '@lp/contract/common/dates';
import {
  DEFAULT_HOST_PORT,
  flexlmHostId,
  type HostIdType,
  normaliseHostId,
  parseHostIdentity,
  TRIAD_SIZE,
} from './host-ids.ts';
import { type LicenseToken, tokenText } from './license-file-parse.ts';

/**
 * License file generation (issue §5, spec 002 §9 "License files", decision 028). Browser-safe: the signing
 * itself is a callback, so only the server and the CLI load node:crypto (license-signature.ts).
 */

export interface LicenseServer {
  /** empty writes FlexLM's placeholder `this_host` */
  name: string;
  type: HostIdType;
  id: string;
  port?: number;
}

/** One live fulfillment. Dates are 'YYYY-MM-DD'. */
export interface LicenseFeature {
  product: string;
  activationId: string;
  featureName: string;
  daemon: string;
  count: number;
  startDate: string;
  /** null: permanent */
  endDate: string | null;
  /** the end of maintenance of a perpetual license; the version is taken from it when set */
  versionDate: string | null;
  borrowable: boolean;
}

export interface LicenseFileInput {
  /** one server, or a triad of three in the order entered */
  servers: LicenseServer[];
  customerNumber: string;
  /** one ISSUED date for the whole generation (SUPERSEDE pools lines by it), 'YYYY-MM-DD' */
  issued: string;
  features: LicenseFeature[];
  daemonPaths?: Record<string, string>;
}

/** Signs a canonical feature line: the key's id (8 hex) and the Ed25519 signature (128 hex). */
export type LicenseSigner = (canonical: string) => { keyId: string; signature: string };

export interface LicenseFiles {
  /** one complete file per vendor daemon */
  licenseText: Record<string, string>;
  /** every daemon's lines in one file */
  text: string;
  fileName: string;
  /** The lines the texts were assembled from, so merged and shared files need no re-reading. */
  parts: LicenseParts;
}

export interface LicenseParts {
  /** The SERVER host ids as written, space-separated: files merge only when these are equal. */
  hostIds: string;
  serverLines: string[];
  /** Per daemon, in order of first use: its VENDOR line and its comment and feature lines. */
  daemons: { daemon: string; vendorLine: string; body: string[] }[];
}

/** Keywords an administrator may edit (FlexLM's lowercase ones): left out of the signature. */
const EDITABLE_KEYWORDS = new Set(['ASSET_INFO', 'DIST_INFO', 'USER_INFO', 'VENDOR_INFO', 'SORT']);
const CANONICAL_TAG = 'lp-license-1';
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * What a feature line's signature covers (decision 028): the SERVER host ids in file order (lower case) and
 * every token of the line in order (keyword names upper case, spaces inside quoted values collapsed), except
 * SIGN itself and the editable lowercase keywords. Host names, ports, VENDOR and USE_SERVER lines, comments,
 * quoting and line wrapping are outside it. JSON keeps the boundaries between tokens unambiguous.
 */
export function canonicalFeatureLine(
  serverHostIds: readonly string[],
  tokens: readonly LicenseToken[],
): string {
  const covered: string[] = [];
  for (const [index, token] of tokens.entries()) {
    if (token.key === null) {
      covered.push(index === 0 ? token.value.toUpperCase() : collapse(token.value));
      continue;
    }
    const key = token.key.toUpperCase();
    if (key !== 'SIGN' && !EDITABLE_KEYWORDS.has(key)) covered.push(`${key}=${collapse(token.value)}`);
  }
  return JSON.stringify([CANONICAL_TAG, serverHostIds.map((id) => collapse(id).toLowerCase()), covered]);
}

/** The SIGN value: key id and signature as FlexLM-style groups of four hex digits (34 groups). */
export function signValue(keyId: string, signature: string): string {
  const hex = `${keyId}${signature}`.toLowerCase();
  if (!/^[0-9a-f]{136}$/.test(hex))
    throw new Error('A signer must give an 8-hex key id and a 128-hex signature');
  return hex.match(/.{4}/g)!.join(' ');
}

/** Reads a SIGN value back; null when it is not ours (34 groups: 8 hex of key id, 128 of signature). */
export function readSignValue(value: string): { keyId: string; signature: string } | null {
  const hex = value.replace(/\s+/g, '').toLowerCase();
  if (!/^[0-9a-f]{136}$/.test(hex)) return null;
  return { keyId: hex.slice(0, 8), signature: hex.slice(8) };
}

const safeForFileName = (text: string) => text.replace(/[^\w.,-]/g, '_');

/** Spec 002 §9: `license_{customerNumber}_{serverId}.lic`; serverId comma-joined for a triad. */
export function licenseFileName(customerNumber: string, serverId: string): string {
  return `license_${safeForFileName(customerNumber)}_${safeForFileName(serverId)}.lic`;
}

/** Spec 002 §9: a shared host's per-daemon file, prefixed by the daemon name, with the `_shared.lic` suffix. */
export function sharedLicenseFileName(daemon: string, serverId: string): string {
  return `${safeForFileName(daemon)}_license_${safeForFileName(serverId)}_shared.lic`;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function checkedDay(day: string, what: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !parseCalendarDay(day)) {
    throw new Error(`${what} "${day}" is not a calendar date YYYY-MM-DD`);
  }
  return day;
}

/** 'YYYY-MM-DD' → FlexLM's canonical `08-jan-2023`. */
export function flexlmDate(day: string): string {
  const iso = checkedDay(day, 'Date');
  return `${iso.slice(8, 10)}-${MONTHS[Number(iso.slice(5, 7)) - 1]}-${iso.slice(0, 4)}`;
}

/** Date-based version `yyyy.mmdd`. */
const versionOf = (day: string) => `${day.slice(0, 4)}.${day.slice(5, 7)}${day.slice(8, 10)}`;

/** FlexLM names: letters, digits and underscores (the daemon pattern is vendor tag + `lmd`). */
const NAME = /^[A-Za-z0-9_]{1,30}$/;
const CUSTOMER = /^[\w.-]+$/;

/** What a VENDOR line's daemon path may hold: no quotes, no line breaks or other control characters. */
const DAEMON_PATH = /^[^"\p{Cc}]+$/u;

function checkInput(input: LicenseFileInput): void {
  const { servers } = input;
  if (servers.length !== 1 && servers.length !== TRIAD_SIZE) {
    throw new Error(`A license server is one host or a triad of three, not ${servers.length}`);
  }
  // The spec's host checks: valid ids, one type for a triad, three different ids.
  const identity = parseHostIdentity(
    servers.map((server) => server.id).join(','),
    servers.map((server) => server.type).join(','),
  );
  if (!identity.ok) throw new Error(identity.err);
  for (const server of servers) {
    if (/[\s"#\\]/.test(server.name))
      throw new Error(`Host name "${server.name}" cannot go on a SERVER line`);
    if (
      server.port !== undefined &&
      !(Number.isInteger(server.port) && server.port > 0 && server.port < 65536)
    )
      throw new Error(`Port ${server.port} of ${server.name} is not a TCP port`);
  }
  if (!CUSTOMER.test(input.customerNumber)) {
    throw new Error(`Customer number "${input.customerNumber}" cannot go into VENDOR_STRING`);
  }
  checkedDay(input.issued, 'Issued date');
  for (const feature of input.features) {
    if (!NAME.test(feature.featureName))
      throw new Error(`Feature name "${feature.featureName}" is not valid`);
    if (!NAME.test(feature.daemon)) throw new Error(`Vendor daemon "${feature.daemon}" is not valid`);
    if (!Number.isSafeInteger(feature.count) || feature.count < 0) {
      throw new Error(`Count ${feature.count} of ${feature.featureName} is not a whole number of seats`);
    }
  }
  for (const [daemon, path] of Object.entries(input.daemonPaths ?? {})) {
    if (!DAEMON_PATH.test(path))
      throw new Error(`Daemon path "${path}" of ${daemon} cannot go on a VENDOR line`);
  }
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/**
 * The INCREMENT line's tokens in file order. The version comes from the maintenance end, else the end date,
 * else (a permanent license without maintenance date) the start date, the most conservative of the three.
 */
function featureTokens(feature: LicenseFeature, customerNumber: string, issued: string): LicenseToken[] {
  const bare = (value: string): LicenseToken => ({ key: null, value });
  const keyed = (key: string, value: string): LicenseToken => ({ key, value });
  const expires = feature.endDate === null ? 'permanent' : flexlmDate(feature.endDate);
  const versionDay = checkedDay(feature.versionDate ?? feature.endDate ?? feature.startDate, 'Version date');
  const tokens = [
    bare('INCREMENT'),
    bare(feature.featureName),
    bare(feature.daemon),
    bare(versionOf(versionDay)),
    bare(expires),
    bare(String(feature.count)),
    keyed('VENDOR_STRING', `customer:${customerNumber}`),
    keyed('ISSUED', issued),
    keyed('START', flexlmDate(feature.startDate)),
  ];
  if (feature.borrowable) tokens.push(bare('BORROW'));
  return tokens;
}

/**
 * A feature's INCREMENT line as one display line (decision 032's license-change preview): its tokens as the file
 * writes them, without ISSUED and SIGN, which change with every generation, so two generations' lines compare.
 */
export function featureDisplayLine(feature: LicenseFeature, customerNumber: string): string {
  return featureTokens(feature, customerNumber, '')
    .filter((token) => token.key !== 'ISSUED')
    .map(tokenText)
    .join(' ');
}

/** SIGN groups per physical line, so that lines stay about 80 characters wide as FlexNet's do. */
const SIGN_GROUPS_PER_LINE = 12;

/**
 * The terms on the first line, the customer, dates and flags on the second, then SIGN wrapped inside its quotes
 * (a continuation may fall inside a quoted value).
 */
function renderFeature(tokens: LicenseToken[], sign: string): string {
  const groups = sign.split(' ');
  const signLines: string[] = [];
  for (let i = 0; i < groups.length; i += SIGN_GROUPS_PER_LINE)
    signLines.push(groups.slice(i, i + SIGN_GROUPS_PER_LINE).join(' '));
  return [
    `${tokens.slice(0, 6).map(tokenText).join(' ')} \\`,
    `\t${tokens.slice(6).map(tokenText).join(' ')} \\`,
    `\tSIGN="${signLines.join(' \\\n\t')}"`,
  ].join('\n');
}

function assemble(serverLines: string[], vendorLines: string[], body: string[]): string {
  return `${[...serverLines, ...vendorLines, 'USE_SERVER', ...body].join('\n')}\n`;
}

/**
 * Spec 002 §9 / issue §5: one customer's files for one host, every line signed. Throws on input that cannot
 * be written into a valid file (the caller validated it; this guards the file format).
 */
export function generateLicenseFiles(input: LicenseFileInput, sign: LicenseSigner): LicenseFiles {
  checkInput(input);
  const hostIds = input.servers.map((server) => flexlmHostId(server.type, server.id));
  const serverLines = input.servers.map(
    (server, index) =>
      `SERVER ${server.name || 'this_host'} ${hostIds[index]} ${server.port ?? DEFAULT_HOST_PORT}`,
  );
  const issued = flexlmDate(input.issued);
  const bodies = new Map<string, string[]>();
  // Only live fulfillments: a returned one (count 0) has no line.
  for (const feature of input.features.filter((f) => f.count > 0)) {
    const tokens = featureTokens(feature, input.customerNumber, issued);
    const { keyId, signature } = sign(canonicalFeatureLine(hostIds, tokens));
    const comment = `# ${oneLine(feature.product)}, ${oneLine(feature.activationId)}, ${input.customerNumber}`;
    const body = bodies.get(feature.daemon) ?? [];
    bodies.set(feature.daemon, body);
    body.push(comment, renderFeature(tokens, signValue(keyId, signature)));
  }
  const vendorLine = (daemon: string) => {
    const path = input.daemonPaths?.[daemon];
    return path ? `VENDOR ${daemon} ${/\s/.test(path) ? `"${path}"` : path}` : `VENDOR ${daemon}`;
  };
  const licenseText: Record<string, string> = {};
  for (const [daemon, body] of bodies)
    licenseText[daemon] = assemble(serverLines, [vendorLine(daemon)], body);
  const parts: LicenseParts = {
    hostIds: hostIds.join(' '),
    serverLines,
    daemons: [...bodies].map(([daemon, body]) => ({ daemon, vendorLine: vendorLine(daemon), body })),
  };
  const serverId = input.servers.map((server) => normaliseHostId(server.type, server.id)).join(',');
  return {
    licenseText,
    text: assembleParts([parts]),
    fileName: licenseFileName(input.customerNumber, serverId),
    parts,
  };
}

/** One file of several generations for the same SERVER host ids: their SERVER lines once, each VENDOR once. */
function assembleParts(files: readonly LicenseParts[]): string {
  if (!files.length) return '';
  const vendorLines = new Map<string, string>();
  for (const file of files) {
    if (file.hostIds !== files[0].hostIds) {
      throw new Error('License files for different license servers cannot be merged');
    }
    for (const d of file.daemons) if (!vendorLines.has(d.daemon)) vendorLines.set(d.daemon, d.vendorLine);
  }
  return assemble(
    files[0].serverLines,
    [...vendorLines.values()],
    files.flatMap((file) => file.daemons.flatMap((d) => d.body)),
  );
}

/**
 * The merged download of a shared host: the customers' generations for the same SERVER host ids combined into
 * one file (one set of SERVER lines, each VENDOR line once, USE_SERVER, then every comment and feature line as
 * written, so signatures still hold). Throws when the files are for different servers.
 */
export function mergeLicenseFiles(files: readonly LicenseFiles[]): string {
  return assembleParts(files.map((file) => file.parts));
}

export interface SharedLicenseFile {
  daemon: string;
  fileName: string;
  text: string;
}

/**
 * Spec 002 §9: a host serving several customers also gets one `_shared.lic` file per vendor daemon, that
 * daemon's files of every customer merged. `files` are the customers' generations for the host (made with one
 * ISSUED date); the daemons come in the order they first appear.
 */
export function sharedLicenseFiles(files: readonly LicenseFiles[], serverId: string): SharedLicenseFile[] {
  const daemons = [...new Set(files.flatMap((file) => Object.keys(file.licenseText)))];
  return daemons.map((daemon) => ({
    daemon,
    fileName: sharedLicenseFileName(daemon, serverId),
    text: assembleParts(
      files.flatMap(({ parts }) =>
        parts.daemons.some((d) => d.daemon === daemon)
          ? [{ ...parts, daemons: parts.daemons.filter((d) => d.daemon === daemon) }]
          : [],
      ),
    ),
  }));
}
