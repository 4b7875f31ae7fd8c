import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_FILE, loadOrCreateKeyFile, SealingKeyError, seal, unseal } from './secret-box.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-pin-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The operator's fix of the SealingKeyError (a 503) that opening throws. */
function refusal(open: () => unknown): string | undefined {
  try {
    open();
  } catch (e) {
    expect(e).toBeInstanceOf(SealingKeyError);
    return (e as SealingKeyError).operatorFix;
  }
  throw new Error('opened');
}

describe('sealed secrets (PINs, signing keys)', () => {
  const key = randomBytes(32);

  it('round-trips and never shows the PIN in the stored text; each encryption differs', () => {
    const a = seal(key, '042917', ['1000123', 'CLS-1']);
    const b = seal(key, '042917', ['1000123', 'CLS-1']);
    expect(a).not.toContain('042917');
    expect(a).not.toBe(b);
    expect(unseal(key, a, ['1000123', 'CLS-1'], 'PIN of CLS-1')).toBe('042917');
    expect(unseal(key, b, ['1000123', 'CLS-1'], 'PIN of CLS-1')).toBe('042917');
  });

  it('refuses another key, another server, and tampered text', () => {
    const stored = seal(key, '123456', ['1000123', 'CLS-1']);
    expect(refusal(() => unseal(randomBytes(32), stored, ['1000123', 'CLS-1'], 'PIN of CLS-1'))).toMatch(
      /^Stored PIN of CLS-1 cannot be decrypted with the configured key \(PIN_ENCRYPTION_KEY/,
    );
    expect(refusal(() => unseal(key, stored, ['1000123', 'CLS-2'], 'PIN'))).toMatch(/cannot be decrypted/);
    expect(refusal(() => unseal(key, stored, ['1000124', 'CLS-1'], 'PIN'))).toMatch(/cannot be decrypted/);
    const [format, iv, tag, body] = stored.split(':');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(
      refusal(() =>
        unseal(key, [format, iv, tag, flipped.toString('base64url')].join(':'), ['1000123', 'CLS-1'], 'PIN'),
      ),
    ).toMatch(/cannot be decrypted/);
    expect(refusal(() => unseal(key, '123456', ['1000123', 'CLS-1'], 'PIN of CLS-1'))).toMatch(
      /unknown format/,
    );
  });
});

describe('the key', () => {
  it('is generated once into the data folder, readable only by its owner, and reused', () => {
    const dir = path.join(tempDir(), 'nested');
    const first = loadOrCreateKeyFile(dir);
    expect(first).toHaveLength(32);
    const file = path.join(dir, KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateKeyFile(dir).equals(first)).toBe(true);
    // No temp files are left behind.
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE]);
  });

  it('many processes starting at once all end up with the same key', async () => {
    const dir = tempDir();
    const { fork } = await import('node:child_process');
    const script = path.join(dir, 'child.mjs');
    const moduleUrl = new URL('./secret-box.ts', import.meta.url).href;
    fs.writeFileSync(
      script,
      `const { loadOrCreateKeyFile } = await import(${JSON.stringify(moduleUrl)});
       process.send(loadOrCreateKeyFile(${JSON.stringify(dir)}).toString('hex'));`,
    );
    const run = () =>
      new Promise<string>((resolve, reject) => {
        const child = fork(script, { execArgv: [] });
        child.once('message', (m) => resolve(String(m)));
        child.once('error', reject);
        child.once('exit', (code) => code && reject(new Error(`child exited ${code}`)));
      });
    const keys = await Promise.all(Array.from({ length: 6 }, run));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBe(fs.readFileSync(path.join(dir, KEY_FILE), 'utf8').trim());
  });

  it('refuses a key file that does not hold a key', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, KEY_FILE), 'not a key\n');
    expect(() => loadOrCreateKeyFile(dir)).toThrow(/does not hold a key of 64 hex digits/);
  });
});
