import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '@lp/contract/common/errors';
import { AppError } from './errors.ts';

/**
 * Secrets at rest (PINs of elastic license servers, license signing keys) are sealed with AES-256-GCM
 * (docs/decisions/012-elastic-pin.md). The key comes from PIN_ENCRYPTION_KEY or, when unset, from a key file
 * generated once in DATA_DIR; `sealing-key.ts` proves it against the database before anything is sealed (043).
 */
export const KEY_FILE = 'pin-encryption.key';
const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * A sealed value this process cannot open, or a key it cannot trust: clients get 503 (an outage only an operator
 * can end), the operator's fix goes to the log (decision 043).
 */
export class SealingKeyError extends AppError {
  constructor(fix: string) {
    super('UNAVAILABLE', messages.sealedKeysUnavailable, fix);
  }
}

export function readKeyFile(file: string): Buffer {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${file} does not hold a key of 64 hex digits`);
  return Buffer.from(text, 'hex');
}

const isCode = (e: unknown, ...codes: string[]) =>
  e instanceof Error && 'code' in e && codes.includes(String((e as NodeJS.ErrnoException).code));

/**
 * Returns the key in `dir`, creating it when missing. Several processes may start at once (API nodes, test
 * files sharing one temp folder): the key is written whole to a private temp file and then linked into place,
 * so exactly one key wins and nobody ever reads a half-written file.
 */
export function loadOrCreateKeyFile(dir: string): Buffer {
  const file = path.join(dir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    const content = `${randomBytes(32).toString('hex')}\n`;
    const tmp = path.join(dir, `${KEY_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if (isCode(e, 'EPERM', 'ENOTSUP', 'EXDEV', 'ENOSYS')) {
        // File systems without hard links: exclusive create still lets only one writer win.
        try {
          fs.writeFileSync(file, content, { mode: 0o600, flag: 'wx' });
        } catch (inner) {
          if (!isCode(inner, 'EEXIST')) throw inner;
        }
      } else if (!isCode(e, 'EEXIST')) {
        throw e;
      }
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  return readKeyFile(file);
}

/**
 * A sealed value is bound to its owner (`boundTo`, the associated data: e.g. account and server of a PIN): a
 * value copied onto another row does not open there.
 */
const associated = (boundTo: readonly string[]) => Buffer.from(boundTo.join('\u0000'));

export function seal(key: Buffer, secret: string, boundTo: readonly string[]): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(associated(boundTo));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
  return [FORMAT, ...parts].join(':');
}

/** Opens a sealed value; `what` names it in errors ('PIN of CLS-1'). */
export function unseal(key: Buffer, stored: string, boundTo: readonly string[], what: string): string {
  const [format, iv, tag, body] = stored.split(':');
  if (format !== FORMAT || body === undefined)
    throw new SealingKeyError(`Stored ${what} has an unknown format: it was not sealed by this product.`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(associated(boundTo));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    // Operators need to know why: usually PIN_ENCRYPTION_KEY (or the key file) changed after values were sealed.
    throw new SealingKeyError(
      `Stored ${what} cannot be decrypted with the configured key (PIN_ENCRYPTION_KEY or DATA_DIR/${KEY_FILE}): it was sealed with another key. Run this server with the key it was sealed with.`,
    );
  }
}
