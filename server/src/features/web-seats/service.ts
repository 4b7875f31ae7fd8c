import type { WebPool, WebPoolPolicy, WebPoolUse } from '@lp/contract/web-seats/schemas';
import { webPoolPolicyLimits } from '@lp/contract/web-seats/schemas';
import {
  namedSeatsProblem,
  type PoolKind,
  poolCapacity,
  poolKindOf,
  TRANSFER_WINDOW_DAYS,
  transferAllowance,
  transfersText,
} from '@lp/domain/web-seats';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import {
  deleteSeatsOfInactivePeople,
  groupTermsOf,
  insertGroupSeats,
  leaseUse,
  lockPolicy,
  lockPool,
  lockPools,
  policiesOf,
  reconcileGroupSeats,
  seatCounts,
  seatPartsOf,
  transfersSince,
  upsertPolicy,
  webLinesOf,
} from './repository.ts';

export const unknownPool = 'No web seat pool with this part number for this account.';

/** The policy of a pool with no saved row (the table's column defaults). */
export const defaultPolicy: WebPoolPolicy = {
  heartbeatWindowSeconds: webPoolPolicyLimits.heartbeatWindowSeconds.default,
  idleTimeoutSeconds: webPoolPolicyLimits.idleTimeoutSeconds.default,
  sessionsPerUser: webPoolPolicyLimits.sessionsPerUser.default,
};

const utcToday = () => new Date().toISOString().slice(0, 10);

/** The window of a pool's peak of concurrent leases on the pools' list. */
const PEAK_WINDOW_DAYS = 30;

export type PoolWithoutPolicy = Omit<WebPool, 'policy'>;

/**
 * The account's pools today: the lines grouped by part number, each pool's seats and term from poolCapacity over
 * its lines (only the Deployed lines covering today count); a product none of whose lines counts is no pool.
 */
export async function poolsOf(
  db: Db,
  customerNumber: string,
  partNumber?: string,
): Promise<PoolWithoutPolicy[]> {
  const today = utcToday();
  const rows = await webLinesOf(db, customerNumber, partNumber);
  const byPart = new Map<string, { productName: string; lines: typeof rows }>();
  for (const row of rows) {
    if (!poolKindOf(row.licenseModel) || row.partNumber === null) continue;
    const pool = byPart.get(row.partNumber) ?? { productName: row.productName, lines: [] };
    pool.lines.push(row);
    byPart.set(row.partNumber, pool);
  }
  const pools: PoolWithoutPolicy[] = [];
  for (const [part, { productName, lines }] of byPart) {
    const { seats, start, end } = poolCapacity(lines, today);
    if (seats <= 0) continue;
    // The kind of the lines that count today; a product sold both ways is named (its seats belong to people).
    const live = lines.filter((l) => poolCapacity([l], today).seats > 0);
    const kind: PoolKind = live.some((l) => poolKindOf(l.licenseModel) === 'named') ? 'named' : 'shared';
    pools.push({ partNumber: part, productName, kind, seats, start, end });
  }
  return pools;
}

const policyOf = (row: WebPoolPolicy | undefined): WebPoolPolicy =>
  row
    ? {
        heartbeatWindowSeconds: row.heartbeatWindowSeconds,
        idleTimeoutSeconds: row.idleTimeoutSeconds,
        sessionsPerUser: row.sessionsPerUser,
      }
    : { ...defaultPolicy };

export async function listWebPools(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<WebPoolUse[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const [pools, policies, seats, leases, transfers, terms] = await Promise.all([
    poolsOf(ctx.db, customerNumber),
    policiesOf(ctx.db, customerNumber),
    seatCounts(ctx.db, customerNumber),
    leaseUse(ctx.db, customerNumber, PEAK_WINDOW_DAYS),
    transfersSince(ctx.db, customerNumber, TRANSFER_WINDOW_DAYS),
    groupTermsOf(ctx.db, customerNumber),
  ]);
  const saved = new Map(policies.map((p) => [p.partNumber, p]));
  return pools.map((p) => {
    const used = transfers.get(p.partNumber) ?? 0;
    return {
      ...p,
      policy: policyOf(saved.get(p.partNumber)),
      assigned: seats.get(p.partNumber) ?? 0,
      inUse: leases.get(p.partNumber)?.inUse ?? 0,
      peak30Days: leases.get(p.partNumber)?.peak ?? 0,
      transfers: { used, allowance: transferAllowance(p.seats), text: transfersText(used, p.seats) },
      groupTerms:
        p.kind === 'shared'
          ? terms
              .filter((t) => t.partNumber === p.partNumber)
              .map(({ groupId, groupName, guaranteed, cap }) => ({ groupId, groupName, guaranteed, cap }))
          : [],
    };
  });
}

/** Replaces one pool's lease policy in one transaction, audited with the policy before and after. */
export async function saveWebPoolPolicy(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; partNumber: string; policy: WebPoolPolicy },
): Promise<WebPool> {
  const { customerNumber, partNumber } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  const policy = policyOf(request.policy);
  return ctx.db.transaction(async (tx) => {
    const [pool] = await poolsOf(tx, customerNumber, partNumber);
    if (!pool) throw notFound(unknownPool);
    const before = policyOf(await lockPolicy(tx, customerNumber, partNumber));
    await upsertPolicy(tx, customerNumber, partNumber, policy, new Date());
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber,
        action: 'web-seats.pool.policy.changed',
        object: { type: 'web-pool', id: partNumber },
        before,
        after: policy,
      },
    ]);
    return { ...pool, policy };
  });
}

/**
 * The pool lock (decision 071) other features take through this service: the web-sessions checkout and anything
 * else that writes one pool's seats or leases, inside its transaction, before reading the pool's counts. One key
 * per account and part number (an advisory transaction lock, both engines); several pools in part-number order.
 */
export async function lockWebPool(tx: Db, customerNumber: string, partNumber: string): Promise<void> {
  await lockPool(tx, customerNumber, partNumber);
}

export interface SeatChanges {
  added: { partNumber: string; userId: string }[];
  removed: { partNumber: string; userId: string }[];
}

/**
 * Brings the account's named seats in line with its directory, inside the caller's transaction (web-directory calls
 * it after every membership or state change, and audits what it answers): people neither invited nor active hold
 * no seat; every invited or active member of a group given a named pool holds a seat of it; a seat that came from
 * a group goes when its person is in no group given that pool; direct seats stay. A pool that would then hold more
 * seats than it has is refused (409 with namedSeatsProblem's text) and the caller's transaction rolls back.
 * Removals are never refused, so suspending or removing a person always goes through.
 */
export async function applyGroupSeats(tx: Db, customerNumber: string): Promise<SeatChanges> {
  const pools = await poolsOf(tx, customerNumber);
  await lockPools(tx, customerNumber, await seatPartsOf(tx, customerNumber));
  const removed = [
    ...(await deleteSeatsOfInactivePeople(tx, customerNumber)),
    ...(await reconcileGroupSeats(tx, customerNumber)),
  ];
  // Only today's named pools give seats: a product whose lines ended gives none until it is renewed.
  const named = pools.filter((p) => p.kind === 'named');
  const added = await insertGroupSeats(
    tx,
    customerNumber,
    named.map((p) => p.partNumber),
  );
  if (added.length)
    await refuseOverCapacity(tx, customerNumber, named, new Set(added.map((a) => a.partNumber)));
  return { added, removed };
}

/** Refuses (409) when one of `changed` pools holds more named seats than it has. */
async function refuseOverCapacity(
  tx: Db,
  customerNumber: string,
  pools: readonly PoolWithoutPolicy[],
  changed: ReadonlySet<string>,
): Promise<void> {
  const counts = await seatCounts(tx, customerNumber);
  for (const pool of pools) {
    if (!changed.has(pool.partNumber)) continue;
    const problem = namedSeatsProblem(
      { name: pool.productName, seats: pool.seats },
      counts.get(pool.partNumber) ?? 0,
    );
    if (problem) throw new AppError('CONFLICT', problem);
  }
}

/**
 * One pool of the account today with its lease policy, or undefined when the part number is no pool; for the
 * web-sessions checkout and sweep, whose callers were admitted by their own credential (no principal here).
 */
export async function webPoolOf(
  db: Db,
  customerNumber: string,
  partNumber: string,
): Promise<WebPool | undefined> {
  const [pool] = await poolsOf(db, customerNumber, partNumber);
  if (!pool) return undefined;
  const saved = (await policiesOf(db, customerNumber)).find((p) => p.partNumber === partNumber);
  return { ...pool, policy: policyOf(saved) };
}
