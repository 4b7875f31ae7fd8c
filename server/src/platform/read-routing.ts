import { apiCatalogue } from '@lp/contract/api-catalogue';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../db/database.ts';
import { walPosition } from '../db/replica.ts';
import type { AppContext } from './context.ts';
import type { Principal } from './principal.ts';

/*
 * Issue 25 §2 (decision 075): with DATABASE_REPLICA_URL, the reads that may be seconds old go to the replica; a
 * user's own writes stay visible to them at once. After each write a signed-in caller makes, this cookie holds
 * the primary's WAL position; their lag-tolerant reads go to the primary until the replica has replayed it. The
 * cookie only chooses the server: a forged one can send its own reads to the primary, nothing else.
 */
export const WRITE_POSITION_COOKIE = 'lp_write_position';

const writes = new Set(apiCatalogue.filter((op) => op.effect !== 'read').map((op) => op.operationId));

/** Errors that say the server is gone (not a query's fault): the read is tried again on the primary. */
const CONNECTION_LOST = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08003',
  '08006',
]);
function lostConnection(e: unknown): boolean {
  for (let cause: unknown = e; cause; cause = (cause as { cause?: unknown }).cause) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CONNECTION_LOST.has(code)) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(message)
    )
      return true;
  }
  return false;
}

/**
 * Runs a read that may be seconds old (usage grids, counts, distinct values) on the replica when the router
 * allows it for this caller, else on the primary; a replica that fails to answer is marked down and the read
 * runs on the primary, so nothing fails for the caller.
 */
export async function lagTolerantRead<T>(
  ctx: AppContext,
  principal: Principal,
  read: (db: Db) => Promise<T>,
): Promise<T> {
  const router = ctx.replica;
  if (!router?.replicaFor(principal.lastWrite)) {
    ctx.metrics?.replicaReads.inc({ target: 'primary' });
    return read(ctx.db);
  }
  try {
    const answer = await read(router.replica.db);
    ctx.metrics?.replicaReads.inc({ target: 'replica' });
    return answer;
  } catch (e) {
    if (!lostConnection(e)) throw e;
    router.markDown();
    ctx.log.warn({ err: e }, 'the read replica did not answer: reading the primary');
    ctx.metrics?.replicaReads.inc({ target: 'primary' });
    return read(ctx.db);
  }
}

/**
 * lagTolerantRead for a read streamed from a cursor (the CSV export): the replica when allowed, else the primary.
 * A replica that is lost before its first chunk is marked down and the stream starts again on the primary; once
 * rows have gone to the caller a lost connection ends the stream with the error, as on the primary (rows already
 * sent cannot be taken back, and a restart could repeat or miss rows written meanwhile).
 */
export async function* lagTolerantStream<T, R>(
  ctx: AppContext,
  principal: Principal,
  open: (database: Database) => AsyncGenerator<T, R>,
): AsyncGenerator<T, R> {
  const router = ctx.replica;
  let source = ctx.database;
  let chunks: AsyncGenerator<T, R>;
  let first: IteratorResult<T, R>;
  if (router?.replicaFor(principal.lastWrite)) {
    chunks = open(router.replica);
    try {
      first = await chunks.next();
      source = router.replica;
    } catch (e) {
      if (!lostConnection(e)) throw e;
      router.markDown();
      ctx.log.warn({ err: e }, 'the read replica did not answer: streaming from the primary');
      chunks = open(ctx.database);
      first = await chunks.next();
    }
  } else {
    chunks = open(ctx.database);
    first = await chunks.next();
  }
  ctx.metrics?.replicaReads.inc({ target: source === ctx.database ? 'primary' : 'replica' });
  try {
    if (first.done) return first.value;
    yield first.value;
    return yield* chunks;
  } finally {
    await chunks.return(undefined as R);
  }
}

/**
 * Issue 25 §3: measures how long a usage batch received at `receivedAt` (ms) and now committed takes to be seen by
 * the reads that may lag: at once on the primary; with a replica, when the router's poll finds it replayed.
 */
export async function measureVisibility(ctx: AppContext, receivedAt: number): Promise<void> {
  const metrics = ctx.metrics;
  if (!metrics) return;
  const router = ctx.replica;
  if (!router) {
    metrics.usageVisible.observe((Date.now() - receivedAt) / 1000);
    return;
  }
  try {
    // Taken after the commit, so at or past the batch's own position.
    router.follow(await walPosition(ctx.db), receivedAt);
  } catch (e) {
    // The batch is stored: a measurement that fails must not turn its answer into an error.
    ctx.log.warn({ err: e }, 'could not follow a usage batch for lp_usage_visible_seconds');
  }
}

/** Gives every successful write of a signed-in caller the primary's WAL position in a cookie (with a replica only). */
export function installReadYourWrites(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.replica) return;
  app.addHook('onSend', async (request, reply, payload) => {
    const operationId = request.routeOptions.config?.operationId;
    if (!request.principal || reply.statusCode >= 400 || !operationId || !writes.has(operationId))
      return payload;
    reply.setCookie(WRITE_POSITION_COOKIE, await walPosition(ctx.database.db), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.cookieSecure,
      // Far longer than any lag the replica is read at.
      maxAge: 3600,
    });
    return payload;
  });
}
