import { licenseModelGroups } from '@lp/domain/entitlements';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { type Db, lockUntilCommit, queryRows } from '../../db/database.ts';
import { entitlements, products, webPoolPolicies } from '../../db/schema.ts';

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
  await lockUntilCommit(tx, `web-pool:${customerNumber}:${partNumber}`);
}

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
