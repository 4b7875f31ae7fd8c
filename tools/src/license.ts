import fs from 'node:fs/promises';
import { parseLicenseText } from '@lp/domain/license-file-parse';
import { type LicenseLineVerdict, licenseKeyId, licenseVerifier } from '@lp/domain/license-signature';
import { verificationSummary } from '@lp/domain/license-verdicts';
import { CommandError } from './errors.ts';

/**
 * `npm run cli -- license verify FILE (--key FILE | --keys-url URL)`: checks a license file's signatures
 * (decision 028) with nothing but the published public keys: no server, no database.
 */

/** Key id → public key PEM, retired keys included (older files were signed with them). */
export type PublicKeys = Record<string, string>;

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads keys from one or more PEM public keys (each named by its key id), or from the JSON that
 * GET /api/license-keys answers: `{status: 'SUCCESS', data: [{keyId, publicKeyPem, createdAt, retiredAt}]}`.
 */
export function readPublicKeys(text: string, source: string): PublicKeys {
  return text.trimStart().startsWith('{') ? readPublishedKeys(text, source) : readPemKeys(text, source);
}

function readPemKeys(text: string, source: string): PublicKeys {
  const pems = text.match(PEM_BLOCK);
  if (!pems)
    throw new CommandError(`${source}: neither a PEM public key nor the JSON of GET /api/license-keys`);
  const keys: PublicKeys = {};
  for (const pem of pems) {
    try {
      keys[licenseKeyId(pem)] = `${pem}\n`;
    } catch (e) {
      throw new CommandError(`${source}: not a public key: ${(e as Error).message}`);
    }
  }
  return keys;
}

function readPublishedKeys(text: string, source: string): PublicKeys {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CommandError(`${source}: not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(json) || json.status !== 'SUCCESS' || !Array.isArray(json.data)) {
    throw new CommandError(`${source}: expected {"status": "SUCCESS", "data": [{keyId, publicKeyPem, …}]}`);
  }
  const keys: PublicKeys = {};
  for (const [index, entry] of json.data.entries()) {
    if (!isRecord(entry) || typeof entry.keyId !== 'string' || typeof entry.publicKeyPem !== 'string') {
      throw new CommandError(`${source}: data[${index}] needs a keyId and a publicKeyPem`);
    }
    keys[entry.keyId] = entry.publicKeyPem;
  }
  if (!Object.keys(keys).length) throw new CommandError(`${source}: no keys`);
  return keys;
}

export async function readPublicKeysFile(path: string): Promise<PublicKeys> {
  try {
    return readPublicKeys(await fs.readFile(path, 'utf8'), path);
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new CommandError(`Cannot read ${path}: ${(e as Error).message}`);
  }
}

const FETCH_TIMEOUT_MS = 10_000;

/** The keys a portal publishes, e.g. `https://portal.example.com/api/license-keys`. */
export async function fetchPublicKeys(url: string): Promise<PublicKeys> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (e) {
    throw new CommandError(`Cannot fetch ${url}: ${(e as Error).message}`);
  }
  if (!response.ok) throw new CommandError(`Cannot fetch ${url}: HTTP ${response.status}`);
  return readPublicKeys(await response.text(), url);
}

const VERDICT_WORDS: Record<LicenseLineVerdict['verdict'], string> = {
  valid: 'valid',
  invalid: 'INVALID',
  unsigned: 'UNSIGNED',
  'unknown-key': 'UNKNOWN KEY',
  foreign: 'NOT SIGNED BY THIS PORTAL',
};

/**
 * Prints one verdict per feature line and one per line that does not read; 0 when every feature line is
 * valid, 1 when any line is bad or the file has no feature line.
 */
export async function verifyLicenseFile(
  path: string,
  keys: PublicKeys,
  out: (line: string) => void,
): Promise<number> {
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (e) {
    throw new CommandError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  let verify: ReturnType<typeof licenseVerifier>;
  try {
    verify = licenseVerifier(keys);
  } catch (e) {
    throw new CommandError((e as Error).message);
  }
  const verdicts = verify(text);
  const { problems } = parseLicenseText(text);
  const report = [
    ...verdicts.map((v) => ({
      line: v.line,
      text: `line ${v.line}: ${v.keyword} ${v.feature}: ${VERDICT_WORDS[v.verdict]}${v.keyId ? ` (key ${v.keyId})` : ''}${v.verdict === 'valid' ? '' : ` - ${v.reason}`}`,
    })),
    ...problems.map((p) => ({ line: p.line, text: `line ${p.line}: UNREADABLE - ${p.message}` })),
  ].sort((a, b) => a.line - b.line);
  for (const entry of report) out(entry.text);
  out(`${path}: ${verificationSummary(verdicts, problems.length)}`);
  const allValid = verdicts.length > 0 && !problems.length && verdicts.every((v) => v.verdict === 'valid');
  return allValid ? 0 : 1;
}
