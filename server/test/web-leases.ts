import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../src/db/database.ts';

/*
 * Hand-made web licensing rows for the tests of checkouts, /web-transactions and the reports (several features):
 * people, groups, named seats, group terms, and sessions and denials at given instants, written straight into the
 * tables.
 */

export async function addWebPerson(
  db: Db,
  customerNumber: string,
  email: string,
  state: 'invited' | 'active' | 'suspended' | 'removed' = 'active',
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into web_users (customer_number, email, name, source, state)
      values (${customerNumber}, ${email}, ${email.split('@')[0]}, 'manual', ${state}) returning id`,
  );
  return row.id;
}

export async function addWebGroup(db: Db, customerNumber: string, name: string, members: string[]) {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into web_groups (customer_number, name, source) values (${customerNumber}, ${name}, 'manual')
      returning id`,
  );
  for (const userId of members)
    await db.execute(sql`insert into web_group_members (group_id, user_id) values (${row.id}, ${userId})`);
  return row.id;
}

export async function assignNamedSeat(db: Db, customerNumber: string, partNumber: string, userId: string) {
  await db.execute(
    sql`insert into web_named_seats (customer_number, part_number, user_id)
      values (${customerNumber}, ${partNumber}, ${userId})`,
  );
}

export async function addGroupTerms(
  db: Db,
  customerNumber: string,
  partNumber: string,
  groupId: string,
  guaranteed: number,
  cap: number | null,
) {
  await db.execute(
    sql`insert into web_group_terms (customer_number, part_number, group_id, guaranteed, cap)
      values (${customerNumber}, ${partNumber}, ${groupId}, ${guaranteed}, ${cap})`,
  );
}

export interface LeaseRow {
  customerNumber: string;
  partNumber: string;
  email: string;
  userId?: string | null;
  groupId?: string | null;
  /** ISO instants */
  start: string;
  /** null: still open; ignored for a denial (it ends as it starts) */
  end?: string | null;
  outcome?: 'open' | 'released' | 'idle-timeout' | 'heartbeat-lost' | 'admin-released' | 'user-removed';
  denial?: string;
  product?: string;
  client?: string;
  poolKind?: 'named' | 'shared' | null;
}

export async function addLease(db: Db, lease: LeaseRow): Promise<void> {
  const denied = lease.denial !== undefined;
  const end = denied ? lease.start : (lease.end ?? null);
  const outcome = denied ? 'denied' : (lease.outcome ?? (end === null ? 'open' : 'released'));
  await db.execute(
    sql`insert into web_leases (customer_number, part_number, pool_kind, user_id, email, group_id, product, client,
        started_at, last_heartbeat_at, last_activity_at, ended_at, outcome, denial_reason)
      values (${lease.customerNumber}, ${lease.partNumber}, ${lease.poolKind ?? 'shared'}, ${lease.userId ?? null},
        ${lease.email}, ${lease.groupId ?? null}, ${lease.product ?? 'Fluids Online'}, ${lease.client ?? ''},
        ${lease.start}, ${denied ? null : lease.start}, ${denied ? null : lease.start}, ${end}, ${outcome},
        ${lease.denial ?? null})`,
  );
}

/** A lease's row as the reports read it. */
export async function leaseRow(db: Db, leaseId: string) {
  const [row] = await queryRows<{
    outcome: string;
    denial_reason: string | null;
    group_id: string | null;
    ended_at: string | Date | null;
    last_activity_at: string | Date | null;
  }>(
    db,
    sql`select outcome, denial_reason, group_id, ended_at, last_activity_at from web_leases where lease_id = ${leaseId}`,
  );
  return row;
}

/** Moves a lease's last heartbeat and activity back by these many seconds (the tests' clock). */
export async function ageLease(db: Db, leaseId: string, heartbeatSeconds: number, activitySeconds: number) {
  await db.execute(
    sql`update web_leases set
        last_heartbeat_at = last_heartbeat_at - make_interval(secs => ${heartbeatSeconds}),
        last_activity_at = last_activity_at - make_interval(secs => ${activitySeconds})
      where lease_id = ${leaseId}`,
  );
}

/** An instant `hours` before now, ISO. */
export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
