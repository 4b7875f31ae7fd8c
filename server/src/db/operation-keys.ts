import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import { AppError } from '../platform/errors.ts';
import { type Job, utcDay } from '../platform/jobs.ts';
import type { Db } from './database.ts';
import { operationKeys } from './schema.ts';

/**
 * Runs one write batch at most once per client key (decision 029). Inside the caller's transaction the key is
 * claimed first: a concurrent batch with the same key waits on the key's unique index until the first commits,
 * then finds it taken and answers the stored outcome without acting; a batch that failed rolled its claim back,
 * so its retry runs afresh. Without a key the batch simply runs. A key sent again with another request (another
 * host, other activations) is refused rather than answered with the first outcome: that would silently do nothing.
 */
export async function onceForKey<T>(
  tx: Db,
  claim: { key: string | undefined; operation: string; userEmail: string; request: object },
  run: () => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  return claimOnce(tx, claim, run, 'This operationKey was already used for another operation.');
}

/**
 * `onceForKey` for a key sent in the Idempotency-Key header (decision 064): the same claim, stored outcome and
 * refusal, the refusal naming the header.
 */
export function onceForHeaderKey<T>(
  tx: Db,
  claim: { key: string; operation: string; userEmail: string; request: object },
  run: () => Promise<T>,
): Promise<{ result: T; replayed: boolean }> {
  return claimOnce(tx, claim, run, 'This Idempotency-Key was already used for another request.');
}

async function claimOnce<T>(
  tx: Db,
  claim: { key: string | undefined; operation: string; userEmail: string; request: object },
  run: () => Promise<T>,
  reused: string,
): Promise<{ result: T; replayed: boolean }> {
  if (!claim.key) return { result: await run(), replayed: false };
  const { operationKey: _key, ...rest } = claim.request as { operationKey?: string };
  const requestHash = createHash('sha256').update(JSON.stringify(rest)).digest('hex');
  const claimed = await tx
    .insert(operationKeys)
    .values({ key: claim.key, operation: claim.operation, userEmail: claim.userEmail, result: {} })
    .onConflictDoNothing()
    .returning({ key: operationKeys.key });
  if (claimed.length === 0) {
    const [stored] = await tx.select().from(operationKeys).where(eq(operationKeys.key, claim.key));
    const saved = stored?.result as { requestHash?: string; value?: T } | undefined;
    if (
      !stored ||
      stored.operation !== claim.operation ||
      stored.userEmail !== claim.userEmail ||
      saved?.requestHash !== requestHash
    )
      throw new AppError('CONFLICT', reused);
    return { result: saved.value as T, replayed: true };
  }
  const result = await run();
  await tx
    .update(operationKeys)
    .set({ result: sql`${JSON.stringify({ requestHash, value: result ?? null })}::jsonb` })
    .where(and(eq(operationKeys.key, claim.key)));
  return { result, replayed: false };
}

/**
 * How long a claimed key answers its retries. A client retries within seconds and a page's clear-and-retry within
 * its session, so a month is generous; without an end the table grew by a row per keyed write for ever.
 */
export const OPERATION_KEY_DAYS = 30;

/** Deletes the keys claimed more than OPERATION_KEY_DAYS before `now`; answers how many went. */
export async function pruneOperationKeys(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - OPERATION_KEY_DAYS * 86_400_000);
  const gone = await db
    .delete(operationKeys)
    .where(lt(operationKeys.createdAt, cutoff))
    .returning({ key: operationKeys.key });
  return gone.length;
}

/** Once a UTC day, on whichever node claims the run (decision 040): the old keys go. Safe to repeat. */
export const operationKeysPruneJob: Job = {
  name: 'operation-keys-prune',
  runKeyOf: utcDay,
  run: async (ctx, _day, now) => {
    await pruneOperationKeys(ctx.db, now);
  },
};
