import { licenseModelGroups } from '@lp/domain/entitlements';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Db, lockUntilCommit, lockUntilCommitCall, queryRows } from '../../db/database.ts';
import {
  entitlements,
  products,
  webGroupPools,
  webGroups,
  webGroupTerms,
  webNamedSeats,
  webPoolPolicies,
  webSeatTransfers,
  webUsers,
} from '../../db/schema.ts';

/** The license models whose lines may make a web seat pool (decision 071); poolKindOf decides per line. */
const webModels = [...licenseModelGroups['Named User'], ...licenseModelGroups['Shared Web']];

/**
 * The account's SSL lines of the web license models with their product, in any state and term: which of them
 * count today is poolCapacity's rule (domain/src/web-seats.ts), not this query's.
 */
export async function webLinesOf(db: Db, customerNumber: string, partNumber?: string) {
  return db
    .select({
      partNumber: entitlements.partNumber,
      productName: products.name,
      licenseModel: entitlements.licenseModel,
      quantity: entitlements.quantity,
      startDate: entitlements.startDate,
      endDate: entitlements.endDate,
      state: entitlements.state,
    })
    .from(entitlements)
    .innerJoin(products, eq(products.partNumber, entitlements.partNumber))
    .where(
      and(
        eq(entitlements.customerNumber, customerNumber),
        eq(entitlements.kind, 'SSL'),
        inArray(entitlements.licenseModel, webModels),
        isNotNull(entitlements.partNumber),
        partNumber === undefined ? undefined : eq(entitlements.partNumber, partNumber),
      ),
    )
    .orderBy(entitlements.partNumber, entitlements.id);
}

const policyColumns = {
  partNumber: webPoolPolicies.partNumber,
  heartbeatWindowSeconds: webPoolPolicies.heartbeatWindowSeconds,
  idleTimeoutSeconds: webPoolPolicies.idleTimeoutSeconds,
  sessionsPerUser: webPoolPolicies.sessionsPerUser,
};

/** The saved policies of the account's pools (pools without one have the defaults). */
export async function policiesOf(db: Db, customerNumber: string) {
  return db
    .select(policyColumns)
    .from(webPoolPolicies)
    .where(eq(webPoolPolicies.customerNumber, customerNumber));
}

/** One pool's saved policy, locked for the transaction that replaces it; undefined when none was saved. */
export async function lockPolicy(db: Db, customerNumber: string, partNumber: string) {
  const [row] = await db
    .select(policyColumns)
    .from(webPoolPolicies)
    .where(
      and(eq(webPoolPolicies.customerNumber, customerNumber), eq(webPoolPolicies.partNumber, partNumber)),
    )
    .for('update');
  return row;
}

export async function upsertPolicy(
  db: Db,
  customerNumber: string,
  partNumber: string,
  policy: { heartbeatWindowSeconds: number; idleTimeoutSeconds: number; sessionsPerUser: number },
  at: Date,
) {
  await db
    .insert(webPoolPolicies)
    .values({ customerNumber, partNumber, ...policy, updatedAt: at })
    .onConflictDoUpdate({
      target: [webPoolPolicies.customerNumber, webPoolPolicies.partNumber],
      set: { ...policy, updatedAt: at },
    });
}

/**
 * Holds one pool's lock until the transaction ends (both engines). Every writer of a pool's seats, leases or terms
 * takes it first, so checkouts and assignment changes of one pool take turns; a transaction that needs several
 * pools takes them in part-number order (lockPools), so two of them never wait on each other.
 */
export async function lockPool(tx: Db, customerNumber: string, partNumber: string): Promise<void> {
  await lockUntilCommit(tx, poolLockName(customerNumber, partNumber));
}

const poolLockName = (customerNumber: string, partNumber: string) =>
  `web-pool:${customerNumber}:${partNumber}`;

/** lockPool's lock as an SQL call, for a statement that takes it along with other work (the checkout). */
export const poolLockCall = (customerNumber: string, partNumber: string) =>
  lockUntilCommitCall(poolLockName(customerNumber, partNumber));

/**
 * webLinesOf of one pool and its saved policy (null: none saved) as one jsonb value `{lines, policy}`, for a caller
 * that reads it inside its own statement (the checkout reads everything under the pool's lock at once).
 */
export const poolJson = (customerNumber: string, partNumber: string) =>
  sql`jsonb_build_object(
    'lines', (select coalesce(jsonb_agg(jsonb_build_object('partNumber', e.part_number, 'productName', p.name,
          'licenseModel', e.license_model, 'quantity', e.quantity, 'startDate', e.start_date,
          'endDate', e.end_date, 'state', e.state) order by e.id), '[]'::jsonb)
      from entitlements e join products p on p.part_number = e.part_number
      where e.customer_number = ${customerNumber} and e.kind = 'SSL' and e.part_number = ${partNumber}
        and e.license_model in ${webModels}),
    'policy', (select jsonb_build_object('heartbeatWindowSeconds', w.heartbeat_window_seconds,
          'idleTimeoutSeconds', w.idle_timeout_seconds, 'sessionsPerUser', w.sessions_per_user)
      from web_pool_policies w where w.customer_number = ${customerNumber} and w.part_number = ${partNumber}))`;

/** Locks the pools in part-number order (once each). */
export async function lockPools(
  tx: Db,
  customerNumber: string,
  partNumbers: Iterable<string>,
): Promise<void> {
  for (const partNumber of [...new Set(partNumbers)].sort()) await lockPool(tx, customerNumber, partNumber);
}

/** The part numbers that have named seats or are given to groups in the account: what applyGroupSeats may touch. */
export async function seatPartsOf(db: Db, customerNumber: string): Promise<string[]> {
  const rows = await queryRows<{ part_number: string }>(
    db,
    sql`select part_number from web_named_seats where customer_number = ${customerNumber}
        union select part_number from web_group_pools where customer_number = ${customerNumber}`,
  );
  return rows.map((r) => r.part_number);
}

type SeatChange = { partNumber: string; userId: string };
const seatChanges = (rows: { part_number: string; user_id: string }[]): SeatChange[] =>
  rows.map((r) => ({ partNumber: r.part_number, userId: r.user_id }));

/** Deletes the seats of people who are neither invited nor active (suspended, removed). */
export async function deleteSeatsOfInactivePeople(tx: Db, customerNumber: string): Promise<SeatChange[]> {
  return seatChanges(
    await queryRows(
      tx,
      sql`delete from web_named_seats s using web_users u
          where s.customer_number = ${customerNumber} and u.id = s.user_id and u.state not in ('invited', 'active')
          returning s.part_number, s.user_id`,
    ),
  );
}

/**
 * Group seats whose person is no longer a member of any group given the pool: deleted. Those still reached through
 * another such group are re-pointed at it (the lowest group id), so a seat's group always gives it.
 */
export async function reconcileGroupSeats(tx: Db, customerNumber: string): Promise<SeatChange[]> {
  const removed = await queryRows<{ part_number: string; user_id: string }>(
    tx,
    sql`delete from web_named_seats s
        where s.customer_number = ${customerNumber} and s.group_id is not null
          and not exists (
            select 1 from web_group_pools gp join web_group_members m on m.group_id = gp.group_id
            where gp.customer_number = s.customer_number and gp.part_number = s.part_number and m.user_id = s.user_id)
        returning s.part_number, s.user_id`,
  );
  await tx.execute(
    sql`update web_named_seats s set group_id = (
          select min(gp.group_id::text)::uuid from web_group_pools gp
          join web_group_members m on m.group_id = gp.group_id
          where gp.customer_number = s.customer_number and gp.part_number = s.part_number and m.user_id = s.user_id)
        where s.customer_number = ${customerNumber} and s.group_id is not null
          and not exists (
            select 1 from web_group_pools gp join web_group_members m on m.group_id = gp.group_id
            where gp.customer_number = s.customer_number and gp.part_number = s.part_number
              and gp.group_id = s.group_id and m.user_id = s.user_id)`,
  );
  return seatChanges(removed);
}

/**
 * Gives a seat of each of `partNumbers` (the account's named pools today) to every invited or active member of a
 * group the pool is given to; a person who holds one already (directly or through another group) keeps theirs.
 */
export async function insertGroupSeats(
  tx: Db,
  customerNumber: string,
  partNumbers: readonly string[],
): Promise<SeatChange[]> {
  if (!partNumbers.length) return [];
  return seatChanges(
    await queryRows(
      tx,
      sql`insert into web_named_seats (customer_number, part_number, user_id, group_id)
          select distinct on (gp.part_number, m.user_id) gp.customer_number, gp.part_number, m.user_id, gp.group_id
          from web_group_pools gp
          join web_group_members m on m.group_id = gp.group_id
          join web_users u on u.id = m.user_id
          where gp.customer_number = ${customerNumber} and u.customer_number = ${customerNumber}
            and u.state in ('invited', 'active')
            and gp.part_number in (select jsonb_array_elements_text(${JSON.stringify(partNumbers)}::jsonb))
          order by gp.part_number, m.user_id, gp.group_id::text
          on conflict do nothing
          returning part_number, user_id`,
    ),
  );
}

/** How many named seats each pool of the account holds. */
export async function seatCounts(db: Db, customerNumber: string): Promise<Map<string, number>> {
  const rows = await queryRows<{ part_number: string; n: number }>(
    db,
    sql`select part_number, count(*)::int as n from web_named_seats
        where customer_number = ${customerNumber} group by part_number`,
  );
  return new Map(rows.map((r) => [r.part_number, Number(r.n)]));
}

/* Assignments: direct seats, groups given a named pool, groups' terms, transfers, and the pools' use. */

/** The account's people among `ids` (others' and unknown ids are absent). */
export async function peopleOf(db: Db, customerNumber: string, ids: readonly string[]) {
  return db
    .select({ id: webUsers.id, email: webUsers.email, state: webUsers.state })
    .from(webUsers)
    .where(and(eq(webUsers.customerNumber, customerNumber), inArray(webUsers.id, [...ids])));
}

/** The account's group with this id, or undefined. */
export async function groupOf(db: Db, customerNumber: string, groupId: string) {
  const [row] = await db
    .select({ id: webGroups.id, name: webGroups.name })
    .from(webGroups)
    .where(and(eq(webGroups.customerNumber, customerNumber), eq(webGroups.id, groupId)));
  return row;
}

/** The account's groups among `ids`. */
export async function groupsOf(db: Db, customerNumber: string, ids: readonly string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: webGroups.id, name: webGroups.name })
    .from(webGroups)
    .where(and(eq(webGroups.customerNumber, customerNumber), inArray(webGroups.id, [...ids])));
}

/** The seats of one pool held by `userIds`: user id → the group that gave it (null: direct). */
export async function seatsOfPeople(
  db: Db,
  customerNumber: string,
  partNumber: string,
  userIds: readonly string[],
) {
  const rows = await db
    .select({ userId: webNamedSeats.userId, groupId: webNamedSeats.groupId })
    .from(webNamedSeats)
    .where(
      and(
        eq(webNamedSeats.customerNumber, customerNumber),
        eq(webNamedSeats.partNumber, partNumber),
        inArray(webNamedSeats.userId, [...userIds]),
      ),
    );
  return new Map(rows.map((r) => [r.userId, r.groupId]));
}

/** For each of `userIds` an invited or active member of a group given the pool: the group (the lowest id). */
export async function groupReachOf(
  db: Db,
  customerNumber: string,
  partNumber: string,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await queryRows<{ user_id: string; group_id: string }>(
    db,
    sql`select m.user_id, min(gp.group_id::text) as group_id
        from web_group_pools gp
        join web_group_members m on m.group_id = gp.group_id
        join web_users u on u.id = m.user_id and u.state in ('invited', 'active')
        where gp.customer_number = ${customerNumber} and gp.part_number = ${partNumber}
          and m.user_id::text in (select jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))
        group by m.user_id`,
  );
  return new Map(rows.map((r) => [r.user_id, r.group_id]));
}

const seatOf = (customerNumber: string, partNumber: string, userIds: readonly string[]) =>
  and(
    eq(webNamedSeats.customerNumber, customerNumber),
    eq(webNamedSeats.partNumber, partNumber),
    inArray(webNamedSeats.userId, [...userIds]),
  );

export async function insertDirectSeats(
  tx: Db,
  customerNumber: string,
  partNumber: string,
  userIds: string[],
) {
  if (!userIds.length) return;
  await tx.insert(webNamedSeats).values(userIds.map((userId) => ({ customerNumber, partNumber, userId })));
}

/** Seats held through a group become direct (they outlive the group's). */
export async function makeSeatsDirect(tx: Db, customerNumber: string, partNumber: string, userIds: string[]) {
  if (!userIds.length) return;
  await tx
    .update(webNamedSeats)
    .set({ groupId: null })
    .where(seatOf(customerNumber, partNumber, userIds));
}

/** A direct seat of a person a group still reaches becomes that group's. */
export async function pointSeatAtGroup(
  tx: Db,
  customerNumber: string,
  partNumber: string,
  userId: string,
  groupId: string,
) {
  await tx
    .update(webNamedSeats)
    .set({ groupId })
    .where(seatOf(customerNumber, partNumber, [userId]));
}

export async function deleteSeats(tx: Db, customerNumber: string, partNumber: string, userIds: string[]) {
  if (!userIds.length) return;
  await tx.delete(webNamedSeats).where(seatOf(customerNumber, partNumber, userIds));
}

/** Transfers per pool of the account within the rolling window. */
export async function transfersSince(
  db: Db,
  customerNumber: string,
  days: number,
): Promise<Map<string, number>> {
  const rows = await queryRows<{ part_number: string; n: number }>(
    db,
    sql`select part_number, count(*)::int as n from web_seat_transfers
        where customer_number = ${customerNumber} and at > now() - make_interval(days => ${days})
        group by part_number`,
  );
  return new Map(rows.map((r) => [r.part_number, Number(r.n)]));
}

export async function insertTransfer(
  tx: Db,
  customerNumber: string,
  partNumber: string,
  fromUserId: string,
  toUserId: string,
) {
  await tx.insert(webSeatTransfers).values({ customerNumber, partNumber, fromUserId, toUserId });
}

/** The part numbers given to a group. */
export async function groupPoolsOf(db: Db, customerNumber: string, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ partNumber: webGroupPools.partNumber })
    .from(webGroupPools)
    .where(and(eq(webGroupPools.customerNumber, customerNumber), eq(webGroupPools.groupId, groupId)))
    .orderBy(webGroupPools.partNumber);
  return rows.map((r) => r.partNumber);
}

export async function replaceGroupPools(
  tx: Db,
  customerNumber: string,
  groupId: string,
  partNumbers: string[],
) {
  await tx
    .delete(webGroupPools)
    .where(and(eq(webGroupPools.customerNumber, customerNumber), eq(webGroupPools.groupId, groupId)));
  if (partNumbers.length)
    await tx
      .insert(webGroupPools)
      .values(partNumbers.map((partNumber) => ({ customerNumber, partNumber, groupId })));
}

/** The groups' terms on the account's shared pools (one pool's with `partNumber`), with the groups' names. */
export async function groupTermsOf(db: Db, customerNumber: string, partNumber?: string) {
  return db
    .select({
      partNumber: webGroupTerms.partNumber,
      groupId: webGroupTerms.groupId,
      groupName: webGroups.name,
      guaranteed: webGroupTerms.guaranteed,
      cap: webGroupTerms.cap,
    })
    .from(webGroupTerms)
    .innerJoin(webGroups, eq(webGroups.id, webGroupTerms.groupId))
    .where(
      and(
        eq(webGroupTerms.customerNumber, customerNumber),
        partNumber === undefined ? undefined : eq(webGroupTerms.partNumber, partNumber),
      ),
    )
    .orderBy(webGroups.name);
}

export async function replaceGroupTerms(
  tx: Db,
  customerNumber: string,
  partNumber: string,
  terms: readonly { groupId: string; guaranteed: number; cap: number | null }[],
) {
  await tx
    .delete(webGroupTerms)
    .where(and(eq(webGroupTerms.customerNumber, customerNumber), eq(webGroupTerms.partNumber, partNumber)));
  if (terms.length)
    await tx.insert(webGroupTerms).values(
      terms.map(({ groupId, guaranteed, cap }) => ({
        customerNumber,
        partNumber,
        groupId,
        guaranteed,
        cap,
      })),
    );
}

/**
 * Leases per pool of the account: open now, and the most open at once over the last `days` days, from the
 * leases' starts and ends (at one instant an end is counted before a start). Denials are no leases.
 */
export async function leaseUse(
  db: Db,
  customerNumber: string,
  days: number,
): Promise<Map<string, { inUse: number; peak: number }>> {
  const rows = await queryRows<{ part_number: string; in_use: number; peak: number }>(
    db,
    sql`with leases as (
          select part_number, started_at, ended_at, outcome, now() - make_interval(days => ${days}) as since
          from web_leases
          where customer_number = ${customerNumber} and outcome <> 'denied'
            and (outcome = 'open' or ended_at > now() - make_interval(days => ${days}))),
        events as (
          select part_number, greatest(started_at, since) as at, 1 as step from leases
          union all
          select part_number, ended_at, -1 from leases where outcome <> 'open' and ended_at is not null),
        running as (
          select part_number, sum(step) over (partition by part_number order by at, step rows unbounded preceding) as n
          from events)
        select part_number,
          (select count(*)::int from leases l where l.part_number = r.part_number and l.outcome = 'open') as in_use,
          max(n)::int as peak
        from running r group by part_number`,
  );
  return new Map(rows.map((r) => [r.part_number, { inUse: Number(r.in_use), peak: Number(r.peak) }]));
}

/** Whether this transfer was made within the window (a retry of it finds it made). */
export async function transferMade(
  db: Db,
  customerNumber: string,
  partNumber: string,
  fromUserId: string,
  toUserId: string,
  days: number,
): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from web_seat_transfers
        where customer_number = ${customerNumber} and part_number = ${partNumber}
          and from_user_id = ${fromUserId} and to_user_id = ${toUserId}
          and at > now() - make_interval(days => ${days})
        limit 1`,
  );
  return rows.length > 0;
}
