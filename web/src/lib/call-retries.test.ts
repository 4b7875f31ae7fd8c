import { apiCatalogue } from '@lp/contract/api-catalogue';
import { IDEMPOTENCY_KEY_HEADER, type Operation } from '@lp/contract/common/operation';
import { describe, expect, it } from 'vitest';
import { ApiError, createApiClient } from './api-client.ts';
import { call } from './call.ts';

/*
 * Decision 064, the client's half: what `call()` retries is decided by the operation's declared effect. A write
 * that is `once` is sent once whatever happens; a keyed write carries one key on every attempt of a call (the
 * server then applies it once: server/src/platform/idempotency.api.test.ts); reads and idempotent writes are
 * retried as spec 000 asks.
 */

interface Attempt {
  key: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** The real client over a fetch that fails `failures` times (`how`), then answers SUCCESS. */
function flakyClient(failures: number, how: 'network' | 503) {
  const attempts: Attempt[] = [];
  const client = createApiClient({
    fetch: async (_input, init) => {
      const headers = init?.headers as Record<string, string>;
      attempts.push({
        key: headers[IDEMPOTENCY_KEY_HEADER],
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      if (attempts.length <= failures) {
        if (how === 'network') throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ status: 'FAILURE', err: 'Unavailable' }), { status: 503 });
      }
      return new Response(JSON.stringify({ status: 'SUCCESS' }), { status: 200 });
    },
    sleep: async () => {},
    onUnauthenticated: () => {},
  });
  return { client, attempts };
}

/** Calls any operation of the catalogue with a placeholder body and path parameters (the client checks neither). */
function callAny(
  operation: Operation,
  client: ReturnType<typeof createApiClient>,
  body: object | undefined = {},
) {
  const params = Object.fromEntries(
    [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name, '1']),
  );
  const send = call as (op: Operation, body: unknown, options: object) => Promise<unknown>;
  return send(operation, operation.body ? body : undefined, { client, params });
}

const withEffect = (effect: Operation['effect'], keyField?: boolean) =>
  apiCatalogue
    .filter((op) => op.effect === effect && (keyField === undefined || Boolean(op.keyField) === keyField))
    .map((op) => [op.operationId, op] as const);

describe('a write that is never retried', () => {
  it('exists in the catalogue (secrets shown once)', () => {
    expect(withEffect('once').map(([id]) => id)).toEqual(
      expect.arrayContaining(['createApiToken', 'issueServerCredential']),
    );
  });

  it.each(withEffect('once'))('%s is sent once on a network failure and on a 5xx', async (_id, op) => {
    for (const how of ['network', 503] as const) {
      const { client, attempts } = flakyClient(1, how);
      const failed = await callAny(op, client).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(ApiError);
      expect(attempts).toHaveLength(1);
    }
  });
});

describe('a write keyed by the Idempotency-Key header', () => {
  it.each(withEffect('keyed', false))('%s sends one key on every attempt of a call', async (_id, op) => {
    const { client, attempts } = flakyClient(4, 'network');
    await callAny(op, client);
    expect(attempts).toHaveLength(5);
    const [first] = attempts;
    expect(first.key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(attempts.every((a) => a.key === first.key)).toBe(true);
    // The next call is another write: a key of its own.
    await callAny(op, client);
    expect(attempts[5].key).not.toBe(first.key);
  });
});

describe('a write keyed by its body field', () => {
  it.each(withEffect('keyed', true))('%s carries one key in its body on every attempt', async (_id, op) => {
    const field = op.keyField!;
    const { client, attempts } = flakyClient(2, 503);
    await callAny(op, client);
    expect(attempts).toHaveLength(3);
    const key = attempts[0].body?.[field];
    expect(key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(attempts.every((a) => a.body?.[field] === key && a.key === undefined)).toBe(true);
  });

  it.each(withEffect('keyed', true))('%s keeps the key its caller chose', async (_id, op) => {
    const { client, attempts } = flakyClient(1, 'network');
    await callAny(op, client, { [op.keyField!]: 'chosen-by-the-page' });
    expect(attempts.map((a) => a.body?.[op.keyField!])).toEqual(['chosen-by-the-page', 'chosen-by-the-page']);
  });
});

describe('reads and idempotent writes', () => {
  it.each([...withEffect('read'), ...withEffect('idempotent')])(
    '%s is retried as it is, without a key',
    async (_id, op) => {
      const { client, attempts } = flakyClient(4, 503);
      await callAny(op, client);
      expect(attempts).toHaveLength(5);
      expect(attempts.every((a) => a.key === undefined)).toBe(true);
    },
  );
});
