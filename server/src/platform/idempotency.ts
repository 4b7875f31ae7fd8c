import { AsyncLocalStorage } from 'node:async_hooks';
import { IDEMPOTENCY_KEY_HEADER } from '@lp/contract/common/operation';
import { operationKeyField } from '@lp/contract/license-servers/schemas';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { onceForHeaderKey } from '../db/operation-keys.ts';
import { badRequest } from './errors.ts';

/*
 * Keyed writes (decision 064). route() runs a keyed write that came with an Idempotency-Key in one request
 * transaction: the key is claimed first, the handler runs, its answer is stored with the key, all committed
 * together. A failed write rolls its claim back, so the retry runs afresh; a retry of a committed write finds the
 * key taken and gets the stored answer without acting. Features keep calling `ctx.db` and opening their own
 * `ctx.db.transaction`: while a request transaction is open, `ctx.db` is that transaction (AsyncLocalStorage
 * carries it through the handler's awaits) and a feature's transaction becomes a savepoint inside it. That also
 * keeps PGlite's one connection free of a second, waiting, caller.
 */

interface Scope {
  tx: Db;
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/**
 * The app's database handle (AppContext.db): the request transaction of a keyed write while its handler runs,
 * the database everywhere else. Work a handler leaves running after its transaction ended gets the database.
 */
export function requestScopedDb(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      const scope = scopes.getStore();
      const owner = scope?.open ? scope.tx : target;
      const value = Reflect.get(owner, property, owner);
      return typeof value === 'function' ? value.bind(owner) : value;
    },
  });
}

/** The request's Idempotency-Key, if it sent one; a malformed key is a 400 (it could never match a retry). */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  const parsed = operationKeyField.safeParse(value);
  if (!parsed.success)
    throw badRequest('Invalid request: Idempotency-Key must be 8-100 letters, digits, - or _');
  return parsed.data;
}

/**
 * Runs a keyed write's handler at most once per key: in one transaction of `db` (the database, not a request
 * transaction) it claims the key for this operation, user and request (params, query and body as validated),
 * runs `handle` with `ctx.db` being that transaction, and stores its answer. A retry answers the stored answer;
 * the key sent with another request is a 409.
 */
export async function answerOnce<T>(
  db: Db,
  claim: { key: string; operation: string; userEmail: string; request: object },
  handle: () => Promise<T>,
): Promise<T> {
  const { result } = await db.transaction((tx) =>
    onceForHeaderKey(tx, claim, async () => {
      const scope: Scope = { tx, open: true };
      try {
        return await scopes.run(scope, handle);
      } finally {
        scope.open = false;
      }
    }),
  );
  return result;
}
