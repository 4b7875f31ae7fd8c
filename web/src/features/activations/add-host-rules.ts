import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import {
  DEFAULT_HOST_PORT,
  type HostIdType,
  hostIdentifier,
  hostIdMessages,
  hostIdTypes,
  normaliseHostIdType,
  parseHostIdentity,
  serialiseHostIdentity,
  TRIAD_SIZE,
  validateHostId,
  validateHostName,
  validateHostPort,
} from '@lp/domain/host-ids';
import type { UploadedHost } from '@lp/domain/license-file-parse';

/**
 * The Add New Host dialog's rules (spec 002 §3 "New host input", §5 "Host id types and values", "Server checks",
 * "New host dialog"), pure so they are tested without a browser. Every rule and text comes from
 * @lp/domain/host-ids, the same code the server runs at create time: the dialog only refuses what the server would.
 */

/** What the page receives: comma-joined for a triad; ids trimmed and lower-cased as the domain normalises them. */
export interface NewHost {
  serverName: string;
  serverId: string;
  serverIdType: string;
  triad: boolean;
  /** The SERVER line's port: 1055 unless typed or imported */
  portNumber: number;
}

/** One row of the dialog as typed. The type is text: an uploaded file may name one the portal does not accept. */
export interface HostRow {
  name: string;
  id: string;
  type: string;
}

export type AddHostMode = 'new' | 'rehost';

/** The select's options, in the spec's order (§5 "New host dialog"). */
export const hostIdTypeOptions: readonly HostIdType[] = ['DISK_SERIAL_NUM', 'ETHERNET', 'FLEXID'];
export const DEFAULT_HOST_ID_TYPE: HostIdType = 'ETHERNET';

export const emptyRow = (type: string = DEFAULT_HOST_ID_TYPE): HostRow => ({ name: '', id: '', type });

/** The dialog always keeps three rows; a single host uses the first (toggling Triad off and on keeps what was typed). */
export const initialRows = (): HostRow[] => Array.from({ length: TRIAD_SIZE }, () => emptyRow());

export const visibleRows = (rows: readonly HostRow[], triad: boolean): HostRow[] =>
  rows.slice(0, triad ? TRIAD_SIZE : 1);

/** Turning Triad on: the rows nobody has typed in yet take the first row's type (a triad has one type). */
export function rowsForTriad(rows: readonly HostRow[]): HostRow[] {
  return rows.map((row, index) =>
    index > 0 && !row.name.trim() && !row.id.trim() ? { ...row, type: rows[0].type } : row,
  );
}

export interface RowProblems {
  name: string | null;
  id: string | null;
  type: string | null;
}

const typeOf = (raw: string): HostIdType | null => normaliseHostIdType(raw);

/** Each field's message as the user types: the spec's host-name text and the spec's host-id texts. */
export function rowProblems(row: HostRow): RowProblems {
  const type = typeOf(row.type);
  const typeProblem = !row.type.trim()
    ? hostIdMessages.typeNotDefined
    : type
      ? null
      : hostIdMessages.unsupportedType(row.type.trim());
  const idProblem = !row.id.trim() ? hostIdMessages.idNotDefined : type ? validateHostId(type, row.id) : null;
  return { name: validateHostName(row.name), id: idProblem, type: typeProblem };
}

const rowIsValid = (p: RowProblems) => !p.name && !p.id && !p.type;

type KnownHost = Pick<LicenseServer, 'name' | 'hostIdentifier' | 'state'>;

/**
 * The server checks against the account's known hosts (mirrors the create call's `hostForCreate`, which refuses the
 * same and is the authority: hosts of other accounts are only known there). `name` is the first server's name; the
 * messages name the host that holds the id (decision 047). A rehost target is checked as a new host (issue 21),
 * except that an Inactive host other than the source may take the seats:
 * - its identifier is in use → 'Host identifier {name} ({id}) is already in use.', followed by the rehost hint when
 *   the host has another name (the spec cuts that hint off; the wording is the domain's own); one of its ids
 *   belongs to a host in use (a triad's member, or a single host a triad would take in) → the same text naming
 *   that id;
 * - rehost target: the active host (or the source) of the same name → 'Host {name} ({identifier}) is active.'
 */
export function serverCheck(
  mode: AddHostMode,
  name: string,
  identifier: string,
  hosts: readonly KnownHost[],
  source?: Pick<LicenseServer, 'hostIdentifier'>,
): string | null {
  const known = hosts.find((host) => host.hostIdentifier === identifier);
  if (!known) {
    // One id serves one license server at a time: a new triad may not take in a host in use, nor a new single
    // host a member of a triad in use (the server refuses it too; a rehost source is Inactive by then).
    const parts = identifier.split(',');
    const overlapping = hosts.find(
      (host) =>
        host.state !== 'Inactive' &&
        host.hostIdentifier !== source?.hostIdentifier &&
        host.hostIdentifier.split(',').some((p) => parts.includes(p)),
    );
    if (!overlapping) return null;
    const shared = parts.find((p) => overlapping.hostIdentifier.split(',').includes(p)) as string;
    return hostIdMessages.inUse(overlapping.name, shared.replace(/^[A-Z_]+=/, ''));
  }
  const isSource = mode === 'rehost' && source?.hostIdentifier === identifier;
  if (mode === 'rehost' && known.state === 'Inactive' && !isSource) return null;
  if (mode === 'rehost' && (known.state === 'Active' || isSource) && known.name === name)
    return hostIdMessages.active(name, identifier);
  return known.name === name
    ? hostIdMessages.inUse(known.name, identifier)
    : hostIdMessages.inUseRehostHint(known.name, identifier);
}

export interface HostCheck {
  /** Per visible row. */
  rows: RowProblems[];
  /** A triad's own problem (mixed types, an id twice) or a server check; shown under the rows. */
  host: string | null;
  /** The port field's problem */
  port: string | null;
  /** Set only when everything passes: what Save hands to the page. */
  value: NewHost | null;
}

/** Judges the visible rows: row problems, then the triad and server checks of spec 002 §5, then joins them. */
export function checkHost(
  rows: readonly HostRow[],
  triad: boolean,
  mode: AddHostMode,
  hosts: readonly KnownHost[],
  options: { port?: string; source?: Pick<LicenseServer, 'hostIdentifier'> } = {},
): HostCheck {
  const shown = visibleRows(rows, triad);
  const problems = shown.map(rowProblems);
  const types = shown.map((row) => typeOf(row.type));
  const portText = options.port ?? String(DEFAULT_HOST_PORT);
  const port = validateHostPort(portText);
  // Shown as soon as the selects disagree, before the ids are complete.
  if (triad && types.every(Boolean) && types.some((type) => type !== types[0])) {
    return { rows: problems, host: hostIdMessages.triadTypesDiffer, port, value: null };
  }
  if (!problems.every(rowIsValid)) return { rows: problems, host: null, port, value: null };
  // The domain's wire-form checks (triad ids must differ) and its normalisation, exactly as the server parses.
  const parsed = parseHostIdentity(
    shown.map((row) => row.id).join(','),
    shown.map((row) => row.type).join(','),
  );
  if (!parsed.ok) return { rows: problems, host: parsed.err, port, value: null };
  const names = shown.map((row) => row.name.trim());
  const conflict = serverCheck(mode, names[0], hostIdentifier(parsed.identity), hosts, options.source);
  if (conflict) return { rows: problems, host: conflict, port, value: null };
  if (port) return { rows: problems, host: null, port, value: null };
  return {
    rows: problems,
    host: null,
    port,
    value: {
      serverName: names.join(','),
      ...serialiseHostIdentity(parsed.identity),
      triad,
      portNumber: Number(portText.trim()),
    },
  };
}

const splitComma = (text: string) => text.split(',').map((part) => part.trim());

/**
 * An uploaded file's host (spec 002 §3 "Uploaded host file result") as dialog rows: three servers make a triad;
 * names from serverName (comma-joined, one per server) or else quorum (space-separated); ids and types split on commas.
 */
export function rowsFromUpload(data: UploadedHost): { triad: boolean; rows: HostRow[]; port: string } {
  const triad = data.numServers === TRIAD_SIZE;
  const ids = splitComma(data.serverId);
  const types = splitComma(data.serverIdType);
  const commaNames = splitComma(data.serverName);
  const quorumNames = data.quorum.split(/\s+/).filter(Boolean);
  const servers = triad ? TRIAD_SIZE : 1;
  const names =
    commaNames.length >= servers && commaNames.slice(0, servers).every(Boolean) ? commaNames : quorumNames;
  const rows = initialRows().map((row, index) =>
    index < servers
      ? {
          name: names[index] ?? '',
          id: ids[index] ?? '',
          type: typeOf(types[index] ?? '') ?? types[index] ?? '',
        }
      : row,
  );
  // The file's SERVER port is kept (issue 21: it was dropped for 1055).
  return { triad, rows, port: String(data.portNumber ?? DEFAULT_HOST_PORT) };
}

/** For the select: an uploaded type the portal does not accept still shows (and is refused by rowProblems). */
export const isOfferedType = (type: string): type is HostIdType =>
  (hostIdTypes as readonly string[]).includes(type);
