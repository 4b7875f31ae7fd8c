import { parseCalendarDay } from '@lp/contract/common/dates';
import {
  type HostIdType,
  normaliseHostId,
  normaliseHostIdType,
  parseFlexlmHostId,
  parseHostIdentity,
  TRIAD_SIZE,
  validateHostId,
} from './host-ids.ts';

/**
 * The one FlexLM license-file reader (issue §5, guide "flexlm-license-files"): the host-file upload and the
 * signature verifier both use it. Our own: the npm parsers split on single spaces, break on `#` inside quotes
 * and keep only the first SERVER line.
 */

/** One word of a logical line: `KEY=value`, `KEY="quoted value"`, a bare word or a quoted string. */
export interface LicenseToken {
  /** the keyword before `=` as written; null for a bare word */
  key: string | null;
  /** without the quotes; a continuation inside quotes reads as one space */
  value: string;
}

export type FeatureKeyword = 'FEATURE' | 'INCREMENT' | 'PACKAGE' | 'UPGRADE';

interface LineBase {
  /** 1-based number of the first physical line */
  line: number;
  /** the physical lines as written (without line ends), joined by '\n' */
  text: string;
}

export interface ServerLine extends LineBase {
  type: 'server';
  host: string;
  /** as written, e.g. `0050569a1b2c` or `DISK_SERIAL_NUM=3e2e17fd` */
  hostId: string;
  port: number | null;
  tokens: LicenseToken[];
}

export interface VendorLine extends LineBase {
  type: 'vendor';
  /** the daemon name (pre-v6 files say DAEMON) */
  name: string;
  tokens: LicenseToken[];
}

/** What FEATURE, INCREMENT and UPGRADE lines grant (PACKAGE lines have no count). */
export interface FeatureTerms {
  version: string;
  /** 'YYYY-MM-DD', or 'permanent' (also for year 0) */
  expires: string;
  /** `uncounted` and 0 both mean uncounted (node-locked by HOSTID=) */
  count: number | 'uncounted';
}

export interface FeatureLine extends LineBase {
  type: 'feature';
  keyword: FeatureKeyword;
  /** the feature (or package) name */
  name: string;
  vendor: string;
  /** null for PACKAGE lines and for lines whose terms do not read (a problem says why) */
  terms: FeatureTerms | null;
  /** every token, the keyword first */
  tokens: LicenseToken[];
}

export type LicenseLine =
  | ServerLine
  | VendorLine
  | FeatureLine
  | (LineBase & { type: 'use-server' })
  | (LineBase & { type: 'comment' })
  | (LineBase & { type: 'other'; tokens: LicenseToken[] });

export interface LicenseProblem {
  line: number;
  message: string;
}

export interface ParsedLicense {
  /** every non-blank logical line in file order */
  lines: LicenseLine[];
  servers: ServerLine[];
  vendors: VendorLine[];
  features: FeatureLine[];
  problems: LicenseProblem[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FLEXLM_DATE = /^(\d{1,2})-([a-z]{3})-(\d{1,4})$/i;

/**
 * `dd-mmm-yyyy` in any case with one- or two-digit days → 'YYYY-MM-DD'; `permanent` and year 0 (`1-jan-0`,
 * FlexLM's old "no expiry") → 'permanent'; anything else → null.
 */
export function parseFlexlmDate(text: string): string | null {
  if (text.toLowerCase() === 'permanent') return 'permanent';
  const m = FLEXLM_DATE.exec(text);
  if (!m) return null;
  if (Number(m[3]) === 0) return 'permanent';
  const month = MONTHS.indexOf(m[2].toLowerCase()) + 1;
  if (month === 0 || m[3].length !== 4) return null;
  const iso = `${m[3]}-${String(month).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
  return parseCalendarDay(iso) ? iso : null;
}

const KEYED = /^([A-Za-z_][\w-]*)=/;
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\f' || c === '\v';

/** Splits a logical line into tokens; quotes group words and may hold `#`, `=` and spaces. */
function tokenize(text: string, line: number, problems: LicenseProblem[]): LicenseToken[] {
  const tokens: LicenseToken[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    while (i < n && isSpace(text[i])) i++;
    if (i >= n) break;
    const start = i;
    let inQuote = false;
    let value = '';
    let quoteAt = -1;
    for (; i < n; i++) {
      const c = text[i];
      if (c === '"') {
        inQuote = !inQuote;
        if (quoteAt < 0) quoteAt = i - start;
      } else if (!inQuote && isSpace(c)) break;
      else value += c;
    }
    if (inQuote) problems.push({ line, message: 'a quoted value is not closed (a " is missing)' });
    const raw = text.slice(start, i);
    const keyed = KEYED.exec(raw);
    // `KEY="…"` is keyed; `"KEY=…"` (the quote first) is a bare quoted word.
    if (keyed && (quoteAt < 0 || quoteAt > keyed[1].length)) {
      tokens.push({ key: keyed[1], value: value.slice(keyed[1].length + 1) });
    } else tokens.push({ key: null, value });
  }
  return tokens;
}

/** A token as one word, without quotes: `KEY=value` or the bare value. */
export const tokenText = (token: LicenseToken) =>
  token.key === null ? token.value : `${token.key}=${token.value}`;

interface LogicalLine {
  line: number;
  text: string;
  /** the physical lines joined with one space in place of each ` \` + line end */
  joined: string;
}

/** A line ending in a backslash after a space (or alone) continues on the next one. */
const CONTINUED = /(^|[ \t])\\[ \t]*$/;
const isComment = (text: string) => text.trimStart().startsWith('#');

/**
 * Physical lines → logical lines. A comment line never continues, so a comment that happens to end in ` \`
 * cannot swallow the feature line after it.
 */
function logicalLines(source: string): LogicalLine[] {
  const physical = source.split(/\r\n|\r|\n/);
  const result: LogicalLine[] = [];
  for (let i = 0; i < physical.length; i++) {
    const first = physical[i];
    if (!first.trim()) continue;
    if (isComment(first)) {
      result.push({ line: i + 1, text: first, joined: first });
      continue;
    }
    const start = i;
    const texts = [first];
    const parts: string[] = [];
    let current = first;
    while (CONTINUED.test(current) && i + 1 < physical.length) {
      parts.push(current.replace(CONTINUED, '$1'));
      current = physical[++i];
      texts.push(current);
    }
    parts.push(current.replace(CONTINUED, '$1'));
    const joined = parts.join(' ');
    // A lone ` \` before blank lines holds no word at all.
    if (joined.trim()) result.push({ line: start + 1, text: texts.join('\n'), joined });
  }
  return result;
}

const FEATURE_KEYWORDS = new Set<string>(['FEATURE', 'INCREMENT', 'PACKAGE', 'UPGRADE']);

function featureTerms(
  keyword: FeatureKeyword,
  bare: string[],
  line: number,
  problems: LicenseProblem[],
): FeatureTerms | null {
  if (keyword === 'PACKAGE') return null;
  // UPGRADE feature vendor from_version to_version exp_date count: the terms start one word later.
  const at = keyword === 'UPGRADE' ? 3 : 2;
  if (bare.length < at + 3) {
    problems.push({ line, message: `${keyword} needs a version, an expiry date and a count` });
    return null;
  }
  const expires = parseFlexlmDate(bare[at + 1]);
  if (!expires) {
    problems.push({ line, message: `expiry date "${bare[at + 1]}" is not dd-mmm-yyyy or permanent` });
    return null;
  }
  const countText = bare[at + 2].toLowerCase();
  if (countText !== 'uncounted' && !/^\d+$/.test(countText)) {
    problems.push({ line, message: `count "${bare[at + 2]}" is not a number or uncounted` });
    return null;
  }
  const count = countText === 'uncounted' || Number(countText) === 0 ? 'uncounted' : Number(countText);
  return { version: bare[at], expires, count };
}

function classify(logical: LogicalLine, problems: LicenseProblem[]): LicenseLine {
  const { line, text, joined } = logical;
  if (isComment(joined)) return { type: 'comment', line, text };
  const tokens = tokenize(joined, line, problems);
  const keyword = tokens[0].key === null ? tokens[0].value.toUpperCase() : '';
  const bare = tokens.filter((t, index) => index > 0 && t.key === null).map((t) => t.value);
  if (keyword === 'SERVER') {
    // Positional: the host id may be keyed (`DISK_SERIAL_NUM=3e2e17fd`, `FLEXID=9-…`).
    const [, host, hostId, port] = tokens;
    if (!host || !hostId || host.key !== null) {
      problems.push({ line, message: 'SERVER needs a host name and a host id' });
      return { type: 'other', line, text, tokens };
    }
    return {
      type: 'server',
      line,
      text,
      host: host.value,
      hostId: tokenText(hostId),
      port: port?.key === null && /^\d{1,5}$/.test(port.value) ? Number(port.value) : null,
      tokens,
    };
  }
  if (keyword === 'VENDOR' || keyword === 'DAEMON') {
    if (!bare.length) {
      problems.push({ line, message: `${keyword} needs a vendor daemon name` });
      return { type: 'other', line, text, tokens };
    }
    return { type: 'vendor', line, text, name: bare[0], tokens };
  }
  if (keyword === 'USE_SERVER') return { type: 'use-server', line, text };
  if (FEATURE_KEYWORDS.has(keyword)) {
    const featureKeyword = keyword as FeatureKeyword;
    if (bare.length < 2) {
      problems.push({ line, message: `${keyword} needs a feature name and a vendor daemon` });
      return { type: 'other', line, text, tokens };
    }
    const terms = featureTerms(featureKeyword, bare, line, problems);
    return {
      type: 'feature',
      line,
      text,
      keyword: featureKeyword,
      name: bare[0],
      vendor: bare[1],
      terms,
      tokens,
    };
  }
  const first = tokens[0].key === null ? tokens[0].value : `${tokens[0].key}=`;
  problems.push({ line, message: `"${first}" is not a license file line (SERVER, VENDOR, INCREMENT…)` });
  return { type: 'other', line, text, tokens };
}

/** Reads a license file; never throws: what does not read is listed in `problems` with its line. */
export function parseLicenseText(source: string): ParsedLicense {
  const problems: LicenseProblem[] = [];
  const lines = logicalLines(source).map((logical) => classify(logical, problems));
  const servers: ServerLine[] = [];
  const vendors: VendorLine[] = [];
  const features: FeatureLine[] = [];
  for (const entry of lines) {
    if (entry.type === 'server') servers.push(entry);
    else if (entry.type === 'vendor') vendors.push(entry);
    else if (entry.type === 'feature') features.push(entry);
  }
  return { lines, servers, vendors, features, problems };
}

/** Spec 002 §3 "Uploaded host file result"; ids and types comma-joined for a triad, in the file's order. */
export interface UploadedHost {
  /** comma-joined for a triad; empty when the upload names no host (plain lmhostid output) */
  serverName: string;
  serverId: string;
  serverIdType: string;
  /** the host names, space-separated */
  quorum: string;
  numServers: number;
  /** the SERVER line's port, when an uploaded license file names one (kept for the new host) */
  portNumber?: number;
}

export type HostUploadResult = { ok: true; data: UploadedHost } | { ok: false; err: string };

interface FoundHost {
  name: string;
  type: HostIdType;
  id: string;
}

const SUPPORTED = 'the portal accepts ETHERNET, DISK_SERIAL_NUM and FLEXID ids';
const LICENSE_KEYWORDS = new Set([...FEATURE_KEYWORDS, 'SERVER', 'VENDOR', 'DAEMON', 'USE_SERVER']);
const LMHOSTID = /lmhostid|host\s*id of this machine/i;
const QUOTED = /"+([^"]*)"+/;

const failure = (err: string): HostUploadResult => ({ ok: false, err });
const at = (line: number, message: string) => `Line ${line}: ${message}`;

function hostResult(hosts: FoundHost[], portNumber?: number): HostUploadResult {
  if (hosts.length !== 1 && hosts.length !== TRIAD_SIZE) {
    return failure(
      `The file describes ${hosts.length} license servers; a license server is one host or a triad of three.`,
    );
  }
  // The server checks of the Add New Host dialog: one type for a triad, three different ids.
  const identity = parseHostIdentity(hosts.map((h) => h.id).join(','), hosts.map((h) => h.type).join(','));
  if (!identity.ok) return failure(identity.err);
  return {
    ok: true,
    data: {
      serverName: hosts.map((h) => h.name).join(','),
      serverId: hosts.map((h) => h.id).join(','),
      serverIdType: hosts.map((h) => h.type).join(','),
      quorum: hosts
        .map((h) => h.name)
        .filter(Boolean)
        .join(' '),
      numServers: hosts.length,
      ...(portNumber === undefined ? {} : { portNumber }),
    },
  };
}

function fromLicenseFile(source: string): HostUploadResult {
  const parsed = parseLicenseText(source);
  const hosts: FoundHost[] = [];
  for (const server of parsed.servers) {
    const found = parseFlexlmHostId(server.hostId);
    if (!found) return failure(at(server.line, `host id "${server.hostId}" is not supported: ${SUPPORTED}.`));
    hosts.push({ name: server.host, ...found });
  }
  if (!hosts.length) {
    const problem = parsed.problems[0];
    return failure(
      problem
        ? at(problem.line, problem.message)
        : 'The license file has no SERVER line: upload a file for a license server.',
    );
  }
  // A triad's servers share one port as a rule; the first SERVER line that names one is taken.
  const port = parsed.servers.find((server) => server.port !== null)?.port ?? undefined;
  return hostResult(hosts, port);
}

/**
 * `lmhostid` output: each id line carries one or two layers of quotes around one or more ids. With several ids
 * the first supported one is taken (lmhostid itself says to use only one); `lmhostid -hostname` output pasted
 * alongside gives the name.
 */
function fromLmhostid(lines: string[]): HostUploadResult {
  let name = '';
  let host: { type: HostIdType; id: string } | null = null;
  let firstIdLine = 0;
  for (const [index, text] of lines.entries()) {
    const quoted = QUOTED.exec(text);
    if (!quoted) continue;
    firstIdLine ||= index + 1;
    for (const word of quoted[1].split(/\s+/).filter(Boolean)) {
      const hostname = /^HOSTNAME=(.+)$/i.exec(word);
      if (hostname) name ||= hostname[1];
      else host ??= parseFlexlmHostId(word);
    }
  }
  if (!host) {
    return failure(
      firstIdLine
        ? at(firstIdLine, `no usable host id in the lmhostid output: ${SUPPORTED}.`)
        : 'No host id found in the lmhostid output (the ids are the quoted text).',
    );
  }
  return hostResult([{ name, ...host }]);
}

/** One host per line: `name id type` (type as a name or code 1/2/3, D/E/F) or `name id` (type from the id). */
function fromHostList(lines: string[]): HostUploadResult {
  const hosts: FoundHost[] = [];
  for (const [index, text] of lines.entries()) {
    const trimmed = text.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const line = index + 1;
    const words = trimmed.split(/[\s,;]+/).filter(Boolean);
    if (words.length < 2 || words.length > 3) {
      return failure(
        at(
          line,
          'expected a host name, its host id and optionally the id type, e.g. "licsrv01 0050569a1b2c ETHERNET".',
        ),
      );
    }
    const [name, rawId, rawType] = words;
    if (rawType === undefined) {
      const found = parseFlexlmHostId(rawId);
      if (!found) {
        return failure(
          at(
            line,
            `cannot tell the type of host id "${rawId}": add ETHERNET, DISK_SERIAL_NUM or FLEXID after it.`,
          ),
        );
      }
      hosts.push({ name, ...found });
      continue;
    }
    const type = normaliseHostIdType(rawType);
    if (!type) {
      return failure(
        at(
          line,
          `unknown host id type "${rawType}": use ETHERNET, DISK_SERIAL_NUM or FLEXID (or 1/2/3, D/E/F).`,
        ),
      );
    }
    const err = validateHostId(type, rawId);
    if (err) return failure(at(line, err));
    hosts.push({ name, type, id: normaliseHostId(type, rawId) });
  }
  return hostResult(hosts);
}

/**
 * The Add New Host dialog's "Import from file" (spec 002 §3 "Uploaded host file result"): an existing license
 * file (its SERVER lines), `lmhostid` output, or a plain list of hosts. Errors name the line.
 */
export function parseHostUpload(source: string): HostUploadResult {
  if (!source.trim()) return failure('The file is empty.');
  const lines = source.split(/\r\n|\r|\n/);
  const firstWord = lines
    .map((text) => text.trim())
    .find((text) => text && !text.startsWith('#'))
    ?.split(/[\s=]/)[0]
    .toUpperCase();
  if (firstWord && LICENSE_KEYWORDS.has(firstWord)) return fromLicenseFile(source);
  const significant = lines.filter((text) => text.trim());
  if (LMHOSTID.test(source) || significant.every((text) => /^\s*".*"\s*$/.test(text))) {
    return fromLmhostid(lines);
  }
  return fromHostList(lines);
}
