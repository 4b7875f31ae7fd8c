import type { AuditAction } from '@lp/contract/audit/actions';
import type { WebPool, WebPoolPolicy, WebPoolUse, WebSeatChange } from '@lp/contract/web-seats/schemas';
import { webPoolPolicyLimits } from '@lp/contract/web-seats/schemas';
import {
  changeText,
  groupTermsProblem,
  namedSeatsProblem,
  type PoolKind,
  poolCapacity,
  poolKindOf,
  TRANSFER_WINDOW_DAYS,
  transferAllowance,
  transferProblem,
  transfersText,
} from '@lp/domain/web-seats';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { type AuditChange, auditActor, recordAudit } from '../audit/service.ts';
import {
  deleteSeats,
  deleteSeatsOfInactivePeople,
  groupOf,
  groupPoolsOf,
  groupReachOf,
  groupsOf,
  groupTermsOf,
  insertDirectSeats,
  insertGroupSeats,
  insertTransfer,
  leaseUse,
  lockPolicy,
  lockPool,
  lockPools,
  makeSeatsDirect,
  peopleOf,
  pointSeatAtGroup,
  policiesOf,
  poolJson,
  poolLockCall,
  reconcileGroupSeats,
  replaceGroupPools,
  replaceGroupTerms,
  seatCounts,
  seatPartsOf,
  seatsOfPeople,
  transferMade,
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
  return poolsFromLines(await webLinesOf(db, customerNumber, partNumber), utcToday());
}

type WebLine = Awaited<ReturnType<typeof webLinesOf>>[number];

function poolsFromLines(rows: readonly WebLine[], today: string): PoolWithoutPolicy[] {
  const byPart = new Map<string, { productName: string; lines: WebLine[] }>();
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

/**
 * The account's pools with their named seats held and a shared pool's group terms, behind the account gate
 * ('read'): what the reports need of a pool, without listWebPools' lease use (the 30-day peak reads a month of
 * leases, seconds for an account of 10 000 people; issue 24 §5).
 */
export async function webPoolSeats(ctx: AppContext, principal: Principal, customerNumber: string) {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const [pools, seats, terms] = await Promise.all([
    poolsOf(ctx.db, customerNumber),
    seatCounts(ctx.db, customerNumber),
    groupTermsOf(ctx.db, customerNumber),
  ]);
  return pools.map((p) => ({
    ...p,
    assigned: seats.get(p.partNumber) ?? 0,
    groupTerms:
      p.kind === 'shared'
        ? terms
            .filter((t) => t.partNumber === p.partNumber)
            .map(({ groupId, groupName, guaranteed, cap }) => ({ groupId, groupName, guaranteed, cap }))
        : [],
  }));
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
 * The pool lock (decision 071) other features take through this service, as an SQL call inside their own
 * statement: the web-sessions checkout takes it with the claim of its operation key, before it reads the pool's
 * counts in its next statement. One key per account and part number (an advisory transaction lock, both engines).
 */
export const webPoolLockCall = (customerNumber: string, partNumber: string) =>
  poolLockCall(customerNumber, partNumber);

/**
 * webPoolOf's read as one jsonb SQL value, for the checkout's single read under the pool's lock; webPoolFromJson
 * makes the pool of it (today's lines by poolCapacity, the saved policy or the defaults) as webPoolOf does.
 */
export const webPoolJson = (customerNumber: string, partNumber: string) =>
  poolJson(customerNumber, partNumber);

export function webPoolFromJson(json: unknown): WebPool | undefined {
  const value = json as { lines: readonly WebLine[]; policy: WebPoolPolicy | null };
  const [pool] = poolsFromLines(
    value.lines.map((l) => ({ ...l, quantity: Number(l.quantity) })),
    utcToday(),
  );
  return pool && { ...pool, policy: policyOf(value.policy ?? undefined) };
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

/*
 * The assignment commands of web seats (decision 071): direct named seats, their transfer, the named pools given to
 * a group and the groups' terms on a shared pool. Each runs in one transaction under its pools' locks, answers
 * what it does in a sentence and counts, and is audited; a preview runs the same change and rolls it back.
 */

export const unknownPerson = 'No person with this id in the account’s directory.';
export const unknownGroup = 'No group with this id in the account’s directory.';
export const notNamedPool = (pool: string) =>
  `${pool} is a shared pool: its seats are not assigned to people.`;
export const notSharedPool = (pool: string) =>
  `${pool} is a named pool: its seats are assigned to people, not kept for groups.`;
export const inactivePerson = (email: string) =>
  `${email} is suspended or removed: only invited and active people hold seats.`;
export const noSeatToTransfer = (email: string, pool: string) =>
  `${email} holds no seat of ${pool} to transfer.`;
export const seatThroughGroup = (email: string, pool: string) =>
  `${email} holds the seat of ${pool} through a group: take them out of the group instead.`;
export const holdsSeatAlready = (email: string, pool: string) => `${email} already holds a seat of ${pool}.`;
const nothing = 'changes nothing';
const byGroupName = (a: { groupName: string }, b: { groupName: string }) =>
  a.groupName.localeCompare(b.groupName);

const conflict = (text: string) => new AppError('CONFLICT', text);
const plural = (n: number, word: string) => `${n} ${n === 1 ? word : `${word}s`}`;

interface Outcome {
  change: Omit<WebSeatChange, 'preview' | 'text'> & { texts: string[] };
  audit: AuditChange[];
}

const noChange = { assigned: 0, unassigned: 0, madeDirect: 0, keptThroughGroup: 0, transfers: 0 };

/** Thrown to roll a preview's transaction back with its answer. */
class PreviewDone {
  readonly outcome: Outcome;
  constructor(outcome: Outcome) {
    this.outcome = outcome;
  }
}

/**
 * Runs a command in one transaction: a real change records its audit entries (none when it changes nothing); a
 * preview makes the same change, with the same refusals, and rolls it back.
 */
async function command(
  ctx: AppContext,
  principal: Principal,
  preview: boolean | undefined,
  work: (tx: Db) => Promise<Outcome>,
): Promise<WebSeatChange> {
  const outcome = await ctx.db
    .transaction(async (tx) => {
      const done = await work(tx);
      if (preview) throw new PreviewDone(done);
      if (done.audit.length) await recordAudit(tx, auditActor(principal), done.audit);
      return done;
    })
    .catch((e: unknown) => {
      if (e instanceof PreviewDone) return e.outcome;
      throw e;
    });
  const { texts, ...numbers } = outcome.change;
  return { preview: Boolean(preview), text: texts.length ? texts.join('; ') : nothing, ...numbers };
}

/** The account's pool of this part number, of the kind the command needs; 404 or 409 otherwise. */
async function poolOfKind(tx: Db, customerNumber: string, partNumber: string, kind: 'named' | 'shared') {
  const [pool] = await poolsOf(tx, customerNumber, partNumber);
  if (!pool) throw notFound(unknownPool);
  if (pool.kind !== kind)
    throw conflict(kind === 'named' ? notNamedPool(pool.productName) : notSharedPool(pool.productName));
  return pool;
}

/**
 * The people of the account's directory with these ids (404 for any other, as for an id nobody has); with
 * `mustBeActive`, 409 for one suspended or removed.
 */
async function peopleNamed(tx: Db, customerNumber: string, ids: readonly string[], mustBeActive: boolean) {
  const people = new Map((await peopleOf(tx, customerNumber, ids)).map((p) => [p.id, p]));
  for (const id of ids) {
    const person = people.get(id);
    if (!person) throw notFound(unknownPerson);
    if (mustBeActive && person.state !== 'invited' && person.state !== 'active')
      throw conflict(inactivePerson(person.email));
  }
  return people;
}

async function refuseOverSeats(tx: Db, customerNumber: string, pool: PoolWithoutPolicy, adding: number) {
  const held = (await seatCounts(tx, customerNumber)).get(pool.partNumber) ?? 0;
  const problem = namedSeatsProblem({ name: pool.productName, seats: pool.seats }, held + adding);
  if (problem) throw conflict(problem);
}

type SeatsRequest = { customerNumber: string; partNumber: string; userIds: string[]; preview?: boolean };

/** Direct seats for people: new seats within the pool's seats; a seat held through a group becomes direct. */
export async function assignWebSeats(ctx: AppContext, principal: Principal, request: SeatsRequest) {
  const { customerNumber, partNumber, userIds } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return command(ctx, principal, request.preview, async (tx) => {
    await lockPool(tx, customerNumber, partNumber);
    const pool = await poolOfKind(tx, customerNumber, partNumber, 'named');
    const people = await peopleNamed(tx, customerNumber, userIds, true);
    const held = await seatsOfPeople(tx, customerNumber, partNumber, userIds);
    const fresh = userIds.filter((id) => !held.has(id));
    const viaGroup = userIds.filter((id) => held.has(id) && held.get(id) !== null);
    if (fresh.length) await refuseOverSeats(tx, customerNumber, pool, fresh.length);
    await insertDirectSeats(tx, customerNumber, partNumber, fresh);
    await makeSeatsDirect(tx, customerNumber, partNumber, viaGroup);
    const emails = (ids: string[]) => ids.map((id) => people.get(id)!.email);
    const texts = [];
    if (fresh.length) texts.push(changeText('assigns', fresh.length, pool.productName));
    if (viaGroup.length)
      texts.push(
        `${plural(viaGroup.length, 'user')} holding a seat through a group now ${viaGroup.length === 1 ? 'holds' : 'hold'} it directly`,
      );
    return {
      change: { ...noChange, assigned: fresh.length, madeDirect: viaGroup.length, texts },
      audit:
        fresh.length || viaGroup.length
          ? [
              seatsEntry('web-seats.seats.assigned', customerNumber, partNumber, {
                assigned: emails(fresh),
                madeDirect: emails(viaGroup),
              }),
            ]
          : [],
    };
  });
}

/**
 * Takes people's direct seats. A person a group given the pool reaches keeps a seat through it (their direct seat
 * becomes the group's); a seat held only through a group stays: the group gives it.
 */
export async function unassignWebSeats(ctx: AppContext, principal: Principal, request: SeatsRequest) {
  const { customerNumber, partNumber, userIds } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return command(ctx, principal, request.preview, async (tx) => {
    await lockPool(tx, customerNumber, partNumber);
    const pool = await poolOfKind(tx, customerNumber, partNumber, 'named');
    const people = await peopleNamed(tx, customerNumber, userIds, false);
    const held = await seatsOfPeople(tx, customerNumber, partNumber, userIds);
    const reach = await groupReachOf(tx, customerNumber, partNumber, userIds);
    const gone: string[] = [];
    const toGroup: string[] = [];
    const kept: string[] = [];
    for (const id of userIds) {
      if (!held.has(id)) continue;
      const group = reach.get(id);
      if (!group) gone.push(id);
      else {
        kept.push(id);
        if (held.get(id) !== null) continue;
        toGroup.push(id);
        await pointSeatAtGroup(tx, customerNumber, partNumber, id, group);
      }
    }
    await deleteSeats(tx, customerNumber, partNumber, gone);
    const emails = (ids: string[]) => ids.map((id) => people.get(id)!.email);
    const texts = [];
    if (gone.length) texts.push(changeText('removes', gone.length, pool.productName));
    if (kept.length)
      texts.push(
        `${plural(kept.length, 'user')} ${kept.length === 1 ? 'keeps' : 'keep'} a seat through a group`,
      );
    return {
      change: { ...noChange, unassigned: gone.length, keptThroughGroup: kept.length, texts },
      audit:
        gone.length || toGroup.length
          ? [
              seatsEntry('web-seats.seats.unassigned', customerNumber, partNumber, {
                unassigned: emails(gone),
                keptThroughGroup: emails(toGroup),
              }),
            ]
          : [],
    };
  });
}

const seatsEntry = (
  action: AuditAction,
  customerNumber: string,
  partNumber: string,
  after: Record<string, unknown>,
): AuditChange => ({ customerNumber, action, object: { type: 'web-pool', id: partNumber }, after });

/**
 * Gives one person's direct seat to another who holds none, counted as a transfer against the pool's allowance.
 * Sent again once made (the transfer is recorded, the first holds none, the second holds it directly) it changes
 * nothing.
 */
export async function transferWebSeat(
  ctx: AppContext,
  principal: Principal,
  request: {
    customerNumber: string;
    partNumber: string;
    fromUserId: string;
    toUserId: string;
    preview?: boolean;
  },
) {
  const { customerNumber, partNumber, fromUserId, toUserId } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return command(ctx, principal, request.preview, async (tx) => {
    await lockPool(tx, customerNumber, partNumber);
    const pool = await poolOfKind(tx, customerNumber, partNumber, 'named');
    const people = await peopleNamed(tx, customerNumber, [fromUserId], false);
    const from = people.get(fromUserId)!;
    const to = (await peopleNamed(tx, customerNumber, [toUserId], true)).get(toUserId)!;
    const held = await seatsOfPeople(tx, customerNumber, partNumber, [fromUserId, toUserId]);
    // A retry of a transfer already made: nothing to do.
    if (
      !held.has(fromUserId) &&
      held.get(toUserId) === null &&
      (await transferMade(tx, customerNumber, partNumber, fromUserId, toUserId, TRANSFER_WINDOW_DAYS))
    )
      return { change: { ...noChange, texts: [] }, audit: [] };
    if (!held.has(fromUserId)) throw conflict(noSeatToTransfer(from.email, pool.productName));
    if (held.get(fromUserId) !== null) throw conflict(seatThroughGroup(from.email, pool.productName));
    if (held.has(toUserId)) throw conflict(holdsSeatAlready(to.email, pool.productName));
    const used = (await transfersSince(tx, customerNumber, TRANSFER_WINDOW_DAYS)).get(partNumber) ?? 0;
    const problem = transferProblem({ name: pool.productName, seats: pool.seats }, used, 1);
    if (problem) throw conflict(problem);
    // The first keeps a seat when a group reaches them: the pool then holds one more.
    const group = (await groupReachOf(tx, customerNumber, partNumber, [fromUserId])).get(fromUserId);
    if (group) {
      await refuseOverSeats(tx, customerNumber, pool, 1);
      await pointSeatAtGroup(tx, customerNumber, partNumber, fromUserId, group);
    } else await deleteSeats(tx, customerNumber, partNumber, [fromUserId]);
    await insertDirectSeats(tx, customerNumber, partNumber, [toUserId]);
    await insertTransfer(tx, customerNumber, partNumber, fromUserId, toUserId);
    const texts = [
      group ? `${from.email} keeps a seat through a group` : changeText('removes', 1, pool.productName),
      changeText('assigns', 1, pool.productName),
      transfersText(used + 1, pool.seats),
    ];
    return {
      change: {
        ...noChange,
        assigned: 1,
        unassigned: group ? 0 : 1,
        keptThroughGroup: group ? 1 : 0,
        transfers: 1,
        texts,
      },
      audit: [
        {
          customerNumber,
          action: 'web-seats.seat.transferred',
          object: { type: 'web-pool', id: partNumber },
          before: { holder: from.email },
          after: { holder: to.email },
        },
      ],
    };
  });
}

/** Per pool, the sentences of what applyGroupSeats did. */
function seatChangeTexts(changes: SeatChanges, pools: readonly PoolWithoutPolicy[]): string[] {
  const name = (part: string) => pools.find((p) => p.partNumber === part)?.productName ?? part;
  const byPool = (rows: { partNumber: string }[]) => {
    const n = new Map<string, number>();
    for (const r of rows) n.set(r.partNumber, (n.get(r.partNumber) ?? 0) + 1);
    return [...n].sort(([a], [b]) => a.localeCompare(b));
  };
  return [
    ...byPool(changes.added).map(([part, n]) => changeText('assigns', n, name(part))),
    ...byPool(changes.removed).map(([part, n]) => changeText('removes', n, name(part))),
  ];
}

/** Replaces the named pools given to a group; its members' seats follow (applyGroupSeats), within the pools' seats. */
export async function setWebGroupPools(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; groupId: string; partNumbers: string[]; preview?: boolean },
) {
  const { customerNumber, groupId } = request;
  const partNumbers = [...request.partNumbers].sort();
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return command(ctx, principal, request.preview, async (tx) => {
    const group = await groupOf(tx, customerNumber, groupId);
    if (!group) throw notFound(unknownGroup);
    const pools = await poolsOf(tx, customerNumber);
    for (const part of partNumbers) {
      const pool = pools.find((p) => p.partNumber === part);
      if (!pool) throw notFound(unknownPool);
      if (pool.kind !== 'named') throw conflict(notNamedPool(pool.productName));
    }
    await lockPools(tx, customerNumber, [...(await seatPartsOf(tx, customerNumber)), ...partNumbers]);
    const before = await groupPoolsOf(tx, customerNumber, groupId);
    if (before.join() === partNumbers.join()) return { change: { ...noChange, texts: [] }, audit: [] };
    await replaceGroupPools(tx, customerNumber, groupId, partNumbers);
    const seats = await applyGroupSeats(tx, customerNumber);
    return {
      change: {
        ...noChange,
        assigned: seats.added.length,
        unassigned: seats.removed.length,
        texts: seatChangeTexts(seats, pools),
      },
      audit: [
        {
          customerNumber,
          action: 'web-seats.group-pools.changed',
          object: { type: 'web-group', id: groupId },
          before: { group: group.name, partNumbers: before },
          after: { group: group.name, partNumbers, seatsAdded: seats.added, seatsRemoved: seats.removed },
        },
      ],
    };
  });
}

/** Replaces a shared pool's group terms, refused (409) with groupTermsProblem's words. */
export async function saveWebGroupTerms(
  ctx: AppContext,
  principal: Principal,
  request: {
    customerNumber: string;
    partNumber: string;
    terms: { groupId: string; guaranteed: number; cap: number | null }[];
    preview?: boolean;
  },
) {
  const { customerNumber, partNumber } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  return command(ctx, principal, request.preview, async (tx) => {
    await lockPool(tx, customerNumber, partNumber);
    const pool = await poolOfKind(tx, customerNumber, partNumber, 'shared');
    const groups = new Map(
      (
        await groupsOf(
          tx,
          customerNumber,
          request.terms.map((t) => t.groupId),
        )
      ).map((g) => [g.id, g.name]),
    );
    if (request.terms.some((t) => !groups.has(t.groupId))) throw notFound(unknownGroup);
    const terms = request.terms
      .map((t) => ({
        groupId: t.groupId,
        groupName: groups.get(t.groupId)!,
        guaranteed: t.guaranteed,
        cap: t.cap,
      }))
      .sort(byGroupName);
    const problem = groupTermsProblem({ name: pool.productName, seats: pool.seats }, terms);
    if (problem) throw conflict(problem);
    const before = (await groupTermsOf(tx, customerNumber, partNumber))
      .map(({ partNumber: _, ...t }) => t)
      .sort(byGroupName);
    const shown = (rows: typeof terms) =>
      rows.map(({ groupName, guaranteed, cap }) => ({ group: groupName, guaranteed, cap }));
    if (JSON.stringify(shown(before)) === JSON.stringify(shown(terms)))
      return { change: { ...noChange, texts: [] }, audit: [] };
    await replaceGroupTerms(tx, customerNumber, partNumber, terms);
    return {
      change: {
        ...noChange,
        texts: [
          terms.length
            ? `sets the terms of ${plural(terms.length, 'group')} on ${pool.productName}`
            : `clears the group terms of ${pool.productName}`,
        ],
      },
      audit: [
        {
          customerNumber,
          action: 'web-seats.group-terms.changed',
          object: { type: 'web-pool', id: partNumber },
          before: { terms: shown(before) },
          after: { terms: shown(terms) },
        },
      ],
    };
  });
}
