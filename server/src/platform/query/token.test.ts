import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { type CursorBinding, signCursor, verifyCursor } from './token.ts';

const secret = Buffer.from('a-test-secret-of-some-length-123');
const binding: CursorBinding = { r: 'accounts', s: 'AccountID:a,#id:a', f: 'hash1' };

function refused(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('BAD_REQUEST');
    expect((e as AppError).message).toBe('Invalid continuation token');
    return;
  }
  throw new Error('expected the token to be refused');
}

describe('continuation tokens', () => {
  const token = signCursor(binding, ['1001', 42], secret);

  it('round-trips the key values for the same binding', () => {
    expect(verifyCursor(token, binding, secret, 2)).toEqual(['1001', 42]);
  });

  it('is opaque: no readable column names in the clear', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('AccountID');
  });

  it('refuses a changed payload, a changed or truncated signature and another secret', () => {
    const [body, mac] = token.split('.');
    const json = Buffer.from(body, 'base64url').toString();
    const forged = Buffer.from(json.replace('1001', '1002')).toString('base64url');
    refused(() => verifyCursor(`${forged}.${mac}`, binding, secret, 2));
    refused(() => verifyCursor(`${body}.${mac.slice(0, -1)}`, binding, secret, 2));
    refused(() => verifyCursor(`${body}.${Buffer.alloc(32).toString('base64url')}`, binding, secret, 2));
    refused(() => verifyCursor(token, binding, Buffer.from('other'), 2));
  });

  it('refuses a token of another resource, sort or filter, and malformed input', () => {
    refused(() => verifyCursor(token, { ...binding, r: 'alerts' }, secret, 2));
    refused(() => verifyCursor(token, { ...binding, s: 'AccountID:d,#id:d' }, secret, 2));
    refused(() => verifyCursor(token, { ...binding, f: 'hash2' }, secret, 2));
    refused(() => verifyCursor(token, binding, secret, 3));
    for (const bad of ['', 'abc', 'a.b.c', `${token}!`, 'x'.repeat(5000), 42, null]) {
      refused(() => verifyCursor(bad, binding, secret, 2));
    }
    // Well signed but not a cursor payload.
    const junk = signCursor(binding, [{} as unknown as string, 1], secret);
    refused(() => verifyCursor(junk, binding, secret, 2));
  });
});
