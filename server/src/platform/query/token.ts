import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../errors.ts';

/**
 * Continuation tokens: opaque keyset cursors `base64url(json).base64url(hmac)`. The HMAC-SHA256 (server
 * secret) makes them tamper-evident; the payload binds the resource name, the sort signature and a hash
 * of filter+scope, so a token replayed against another table, sort, filter or account is refused.
 */
export type KeyValue = string | number | boolean;

export interface CursorBinding {
  /** Resource name. */
  r: string;
  /** Sort signature (compile.ts sortSignature). */
  s: string;
  /** Hash of the compiled filter and scope. */
  f: string;
}

interface CursorPayload extends CursorBinding {
  v: 1;
  /** The last row's sort key values, id last. */
  k: KeyValue[];
}

export const INVALID_TOKEN = 'Invalid continuation token';
const MAX_TOKEN_LENGTH = 4000;

function mac(secret: Buffer, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

export function signCursor(binding: CursorBinding, keys: KeyValue[], secret: Buffer): string {
  const payload: CursorPayload = { v: 1, r: binding.r, s: binding.s, f: binding.f, k: keys };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** Returns the key values of a valid token for this binding; anything else is a 400. */
export function verifyCursor(
  token: unknown,
  binding: CursorBinding,
  secret: Buffer,
  keyCount: number,
): KeyValue[] {
  const invalid = () => badRequest(INVALID_TOKEN);
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw invalid();
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]+$/.test(parts[1])) {
    throw invalid();
  }
  const given = Buffer.from(parts[1], 'base64url');
  const expected = mac(secret, parts[0]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    typeof payload !== 'object' ||
    payload === null ||
    payload.v !== 1 ||
    payload.r !== binding.r ||
    payload.s !== binding.s ||
    payload.f !== binding.f ||
    !Array.isArray(payload.k) ||
    payload.k.length !== keyCount ||
    !payload.k.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
  ) {
    throw invalid();
  }
  return payload.k;
}
