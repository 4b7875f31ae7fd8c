import { createHash } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import { AppError } from '../platform/errors.ts';
import { type Job, utcDay } from '../platform/jobs.ts';
import type { Db } from './database.ts';
import { operationKeys } from './schema.ts';

const operationKeyReused = 'This operationKey was already used for another operation.';

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
  return claimOnce(tx, claim, run, operationKeyReused);
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
  const requestHash = requestHashOf(claim.request);
  const claimed = await tx
    .insert(operationKeys)
    .values({ key: claim.key, operation: claim.operation, userEmail: claim.userEmail, result: {} })
    .onConflictDoNothing()
    .returning({ key: operationKeys.key });
  if (claimed.length === 0)
    return {
      result: await storedOutcome<T>(tx, { ...claim, key: claim.key }, requestHash, reused),
      replayed: true,
    };
  const result = await run();
  await tx.execute(keyOutcomeUpdate(claim.key, requestHash, result));
  return { result, replayed: false };
}

/*
 * The same claim in parts, for a caller that folds the claim and the stored outcome into its own statements to save
 * round trips (the web checkout, decision 071): claimKeyInsert in its first statement (waits on a concurrent claim
 * of the key like onceForKey), storedOutcome when it did not claim, keyOutcomeUpdate with its last write.
 */

/** What a key's request is compared by: the request without the key itself. */
export function requestHashOf(request: object): string {
  const { operationKey: _key, ...rest } = request as { operationKey?: string };
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

/** Claims the key: an insert answering the key when this transaction claimed it, no row when it was taken. */
export const claimKeyInsert = (claim: { key: string; operation: string; userEmail: string }) =>
  sql`insert into operation_keys (key, operation, user_email, result)
    values (${claim.key}, ${claim.operation}, ${claim.userEmail}, '{}'::jsonb)
    on conflict do nothing returning key`;

/** Stores the outcome of the run that claimed the key, for its retries. */
export const keyOutcomeUpdate = (key: string, requestHash: string, result: unknown) =>
  sql`update operation_keys set result = ${JSON.stringify({ requestHash, value: result ?? null })}::jsonb
    where key = ${key}`;

/** The outcome stored for a key another call claimed; refused when it was claimed for another request. */
export async function storedOutcome<T>(
  tx: Db,
  claim: { key: string; operation: string; userEmail: string },
  requestHash: string,
  reused = operationKeyReused,
): Promise<T> {
  const [stored] = await tx.select().from(operationKeys).where(eq(operationKeys.key, claim.key));
  const saved = stored?.result as { requestHash?: string; value?: T } | undefined;
  if (
    !stored ||
    stored.operation !== claim.operation ||
    stored.userEmail !== claim.userEmail ||
    saved?.requestHash !== requestHash
  )
    throw new AppError('CONFLICT', reused);
  return saved.value as T;
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
