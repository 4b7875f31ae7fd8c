import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../../db/database.ts';

/*
 * Directory and assignment rows for the web-sessions tests, written straight into the tables web-directory and
 * web-seats own (their commands are built beside this feature); only what a checkout reads.
 */

export async function addPerson(
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

export async function addGroup(db: Db, customerNumber: string, name: string, members: string[]) {
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

export async function setGroupTerms(
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
