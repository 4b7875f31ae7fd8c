/*
 * Reads a received message as a mail client does, enough for tests: header fields (unfolded, encoded words
 * decoded), the MIME tree, and each leaf's content decoded from base64 or quoted-printable. Not a general parser:
 * it reads what nodemailer writes.
 */

export interface MimePart {
  /** Header fields by lower-case name; a repeated field keeps every value. */
  headers: Map<string, string[]>;
  /** The media type in lower case ("multipart/alternative", "text/plain"). */
  type: string;
  /** Content-Type parameters (charset, boundary, name), names in lower case. */
  params: Record<string, string>;
  /** Sub-parts of a multipart, in order. */
  parts: MimePart[];
  /** A leaf's decoded content. */
  content: Buffer;
}

/** RFC 2047 encoded words ("=?UTF-8?Q?…?=", "=?UTF-8?B?…?=") as text. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_whole, _charset: string, encoding: string, text: string) =>
        encoding.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64').toString('utf8')
          : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i] as string;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(joined.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(c, 'utf8'));
  }
  return Buffer.from(bytes);
}

function parseHeaders(block: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), decodeWords(line.slice(colon + 1).trim())]);
  }
  return headers;
}

function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq > 0)
      params[p.slice(0, eq).trim().toLowerCase()] = p
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, '');
  }
  return { type: type.trim().toLowerCase(), params };
}

/** Parses a whole message (or one part of it). */
export function parseMime(raw: string): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  const head = split ? raw.slice(0, split.index) : raw;
  const body = split ? raw.slice(split.index + split[0].length) : '';
  const headers = parseHeaders(head);
  const { type, params } = parseContentType(headers.get('content-type')?.[0]);
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const sections = body.split(new RegExp(`\\r?\\n?${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    // Before the first delimiter is the preamble; from the closing one ("--boundary--") on, the epilogue.
    const parts: MimePart[] = [];
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      parts.push(parseMime(section.replace(/^[ \t]*\r?\n/, '')));
    }
    return { headers, type, params, parts, content: Buffer.alloc(0) };
  }
  const encoding = (headers.get('content-transfer-encoding')?.[0] ?? '7bit').toLowerCase();
  const content =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : Buffer.from(body, 'utf8');
  return { headers, type, params, parts: [], content };
}

/** The first value of a header field, or undefined. */
export const header = (part: MimePart, name: string): string | undefined =>
  part.headers.get(name.toLowerCase())?.[0];

/** Every leaf of the tree, depth first. */
export const leaves = (part: MimePart): MimePart[] =>
  part.parts.length ? part.parts.flatMap(leaves) : [part];
