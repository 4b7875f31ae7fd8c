import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

/**
 * web_leases and what a checkout reads of the directory and assignments (web_users, web_group_members,
 * web_named_seats, web_group_terms), which web-directory and web-seats write.
 */

type Instant = string | Date;
const iso = (v: Instant) => new Date(v).toISOString();
const isoOrNull = (v: Instant | null) => (v === null ? null : iso(v));

/** The account's state, or undefined for an unknown account. */
export async function accountOf(db: Db, customerNumber: string) {
  const [row] = await queryRows<{ export_control_status: string; is_access_disabled: boolean }>(
    db,
    sql`select export_control_status, is_access_disabled from accounts where customer_number = ${customerNumber}`,
  );
  return row && { exportControlStatus: row.export_control_status, disabled: row.is_access_disabled };
}

export async function personOf(db: Db, customerNumber: string, email: string) {
  const [row] = await queryRows<{ id: string; state: string }>(
    db,
    sql`select id, state from web_users where customer_number = ${customerNumber} and email = ${email}`,
  );
  return row;
}

/** The person's open leases of the pool. */
export async function openLeasesOfPerson(db: Db, customerNumber: string, partNumber: string, userId: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from web_leases
      where customer_number = ${customerNumber} and part_number = ${partNumber} and user_id = ${userId}
        and outcome = 'open'`,
  );
  return Number(row.n);
}

export async function holdsNamedSeat(db: Db, customerNumber: string, partNumber: string, userId: string) {
  const rows = await queryRows<{ one: number }>(
    db,
    sql`select 1 as one from web_named_seats
      where customer_number = ${customerNumber} and part_number = ${partNumber} and user_id = ${userId}`,
  );
  return rows.length > 0;
}

/**
 * A shared pool's open leases: in all, and for each group with terms on it (by the group the seat counts to), with
 * whether the person is a member. Terms in group-name order, so a person of several groups is served alike each time.
 */
export async function sharedPoolCounts(db: Db, customerNumber: string, partNumber: string, userId: string) {
  const [total] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from web_leases
      where customer_number = ${customerNumber} and part_number = ${partNumber} and outcome = 'open'`,
  );
  const terms = await queryRows<{
    group_id: string;
    group_name: string;
    guaranteed: number;
    cap: number | null;
    open: number;
    member: boolean;
  }>(
    db,
    sql`select t.group_id, g.name as group_name, t.guaranteed, t.cap,
        (select count(*)::int from web_leases l
          where l.customer_number = t.customer_number and l.part_number = t.part_number
            and l.group_id = t.group_id and l.outcome = 'open') as open,
        exists (select 1 from web_group_members m where m.group_id = t.group_id and m.user_id = ${userId}) as member
      from web_group_terms t join web_groups g on g.id = t.group_id
      where t.customer_number = ${customerNumber} and t.part_number = ${partNumber}
      order by g.name, t.group_id`,
  );
  return {
    open: Number(total.n),
    terms: terms.map((t) => ({
      groupId: t.group_id,
      groupName: t.group_name,
      guaranteed: Number(t.guaranteed),
      cap: t.cap === null ? null : Number(t.cap),
      open: Number(t.open),
    })),
    personGroupIds: terms.filter((t) => t.member).map((t) => t.group_id),
  };
}

export interface NewLease {
  customerNumber: string;
  partNumber: string;
  poolKind: 'named' | 'shared' | null;
  userId: string | null;
  email: string;
  groupId: string | null;
  credentialId: string;
  product: string;
  client: string;
  at: Date;
  /** null: granted (open); a reason: a denial, ended when asked */
  denialReason: string | null;
}

/** Records a grant (open, its heartbeat and activity now) or a denial (ended at once); answers the lease id. */
export async function insertLease(tx: Db, lease: NewLease): Promise<string> {
  const at = lease.at.toISOString();
  const granted = lease.denialReason === null;
  const [row] = await queryRows<{ lease_id: string }>(
    tx,
    sql`insert into web_leases (customer_number, part_number, pool_kind, user_id, email, group_id, credential_id,
        product, client, started_at, last_heartbeat_at, last_activity_at, ended_at, outcome, denial_reason)
      values (${lease.customerNumber}, ${lease.partNumber}, ${lease.poolKind}, ${lease.userId}, ${lease.email},
        ${lease.groupId}, ${lease.credentialId}, ${lease.product}, ${lease.client}, ${at},
        ${granted ? at : null}, ${granted ? at : null}, ${granted ? null : at},
        ${granted ? 'open' : 'denied'}, ${lease.denialReason})
      returning lease_id`,
  );
  return row.lease_id;
}

/** A checkout seen: the person was last seen now, and an invited person becomes active. */
export async function markSeen(tx: Db, userId: string, at: Date): Promise<void> {
  await tx.execute(
    sql`update web_users set last_seen_at = ${at.toISOString()},
        state = case when state = 'invited' then 'active' else state end,
        version = version + case when state = 'invited' then 1 else 0 end,
        updated_at = case when state = 'invited' then ${at.toISOString()}::timestamptz else updated_at end
      where id = ${userId}`,
  );
}

export interface StoredLease {
  leaseId: string;
  customerNumber: string;
  partNumber: string;
  outcome: string;
  endedAt: string | null;
  lastHeartbeatAt: string | null;
  lastActivityAt: string | null;
  heartbeatWindowSeconds: number;
  idleTimeoutSeconds: number;
}

/**
 * A lease (not a denial) with its pool's policy, locked for the transaction that renews or ends it; `defaults`
 * for a pool with no saved policy.
 */
export async function lockLease(
  tx: Db,
  leaseId: string,
  defaults: { heartbeatWindowSeconds: number; idleTimeoutSeconds: number },
): Promise<StoredLease | undefined> {
  const [row] = await queryRows<{
    lease_id: string;
    customer_number: string;
    part_number: string;
    outcome: string;
    ended_at: Instant | null;
    last_heartbeat_at: Instant | null;
    last_activity_at: Instant | null;
    heartbeat_window_seconds: number;
    idle_timeout_seconds: number;
  }>(
    tx,
    sql`select l.lease_id, l.customer_number, l.part_number, l.outcome, l.ended_at, l.last_heartbeat_at,
        l.last_activity_at,
        coalesce(p.heartbeat_window_seconds, ${defaults.heartbeatWindowSeconds}) as heartbeat_window_seconds,
        coalesce(p.idle_timeout_seconds, ${defaults.idleTimeoutSeconds}) as idle_timeout_seconds
      from web_leases l
      left join web_pool_policies p on p.customer_number = l.customer_number and p.part_number = l.part_number
      where l.lease_id = ${leaseId} and l.outcome <> 'denied'
      for update of l`,
  );
  return (
    row && {
      leaseId: row.lease_id,
      customerNumber: row.customer_number,
      partNumber: row.part_number,
      outcome: row.outcome,
      endedAt: isoOrNull(row.ended_at),
      lastHeartbeatAt: isoOrNull(row.last_heartbeat_at),
      lastActivityAt: isoOrNull(row.last_activity_at),
      heartbeatWindowSeconds: Number(row.heartbeat_window_seconds),
      idleTimeoutSeconds: Number(row.idle_timeout_seconds),
    }
  );
}

/** Renews an open lease: its heartbeat now, its activity too when the person was active. */
export async function renewLease(tx: Db, leaseId: string, at: Date, active: boolean): Promise<void> {
  await tx.execute(
    sql`update web_leases set last_heartbeat_at = ${at.toISOString()},
        last_activity_at = case when ${active} then ${at.toISOString()}::timestamptz else last_activity_at end
      where lease_id = ${leaseId}`,
  );
}

/** Ends an open lease with this outcome; answers when it ended (undefined: it was not open). */
export async function endLease(tx: Db, leaseId: string, outcome: string, at: Date) {
  const [row] = await queryRows<{ ended_at: Instant }>(
    tx,
    sql`update web_leases set outcome = ${outcome}, ended_at = ${at.toISOString()}
      where lease_id = ${leaseId} and outcome = 'open' returning ended_at`,
  );
  return row && iso(row.ended_at);
}

/** Ends the open leases of these people in one account; answers how many ended. */
export async function endLeasesOfUsers(
  tx: Db,
  customerNumber: string,
  userIds: readonly string[],
  outcome: 'user-removed' | 'admin-released',
): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`update web_leases set outcome = ${outcome}, ended_at = now()
      where customer_number = ${customerNumber} and outcome = 'open'
        and user_id in (select (jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))::uuid)
      returning id`,
  );
  return rows.length;
}

/**
 * Ends every open lease past its pool's deadlines (decision 071): no heartbeat within the heartbeat window →
 * heartbeat-lost; else no activity within the idle timeout → idle-timeout. Answers how many ended of each.
 */
export async function sweepLeases(
  db: Db,
  now: Date,
  defaults: { heartbeatWindowSeconds: number; idleTimeoutSeconds: number },
): Promise<{ heartbeatLost: number; idleTimeout: number }> {
  const at = now.toISOString();
  const rows = await queryRows<{ outcome: string; n: number }>(
    db,
    sql`with due as (
        select l.id,
          case when l.last_heartbeat_at + make_interval(secs => coalesce(p.heartbeat_window_seconds,
                ${defaults.heartbeatWindowSeconds})) < ${at}::timestamptz then 'heartbeat-lost'
            when l.last_activity_at + make_interval(secs => coalesce(p.idle_timeout_seconds,
                ${defaults.idleTimeoutSeconds})) < ${at}::timestamptz then 'idle-timeout'
          end as outcome
        from web_leases l
        left join web_pool_policies p on p.customer_number = l.customer_number and p.part_number = l.part_number
        where l.outcome = 'open'
      ), ended as (
        update web_leases l set outcome = due.outcome, ended_at = ${at}
        from due where l.id = due.id and due.outcome is not null and l.outcome = 'open'
        returning due.outcome
      )
      select outcome, count(*)::int as n from ended group by outcome`,
  );
  const count = (outcome: string) => Number(rows.find((r) => r.outcome === outcome)?.n ?? 0);
  return { heartbeatLost: count('heartbeat-lost'), idleTimeout: count('idle-timeout') };
}

/**
 * A job run every minute leaves 1 440 finished rows a day in job_runs; its own finished runs older than a day go
 * (a run key is never claimed again once its minute has passed).
 */
export async function pruneSweepRuns(db: Db, name: string, now: Date): Promise<void> {
  await db.execute(
    sql`delete from job_runs where name = ${name} and finished_at is not null
      and finished_at < ${new Date(now.getTime() - 86_400_000).toISOString()}::timestamptz`,
  );
}

/** The account's open leases (of one person when given), newest first, with the person and the group. */
export async function openLeasesOf(db: Db, customerNumber: string, userId?: string) {
  const rows = await queryRows<{
    lease_id: string;
    user_id: string | null;
    email: string;
    name: string | null;
    part_number: string;
    pool_kind: 'named' | 'shared';
    group_id: string | null;
    group_name: string | null;
    product: string;
    client: string;
    started_at: Instant;
    last_heartbeat_at: Instant | null;
    last_activity_at: Instant | null;
  }>(
    db,
    sql`select l.lease_id, l.user_id, l.email, u.name, l.part_number, l.pool_kind, l.group_id, g.name as group_name,
        l.product, l.client, l.started_at, l.last_heartbeat_at, l.last_activity_at
      from web_leases l
      left join web_users u on u.id = l.user_id
      left join web_groups g on g.id = l.group_id
      where l.customer_number = ${customerNumber} and l.outcome = 'open'
        ${userId === undefined ? sql`` : sql`and l.user_id = ${userId}`}
      order by l.started_at desc, l.id desc`,
  );
  return rows.map((r) => ({
    leaseId: r.lease_id,
    userId: r.user_id,
    email: r.email,
    name: r.name ?? '',
    partNumber: r.part_number,
    seat: r.pool_kind,
    group: r.group_id === null ? null : { id: r.group_id, name: r.group_name ?? '' },
    product: r.product,
    client: r.client,
    startedAt: iso(r.started_at),
    lastHeartbeatAt: isoOrNull(r.last_heartbeat_at),
    lastActivityAt: isoOrNull(r.last_activity_at),
  }));
}

/** A lease of the account (not a denial), locked for the administrator's release. */
export async function lockLeaseOfAccount(tx: Db, customerNumber: string, leaseId: string) {
  const [row] = await queryRows<{
    outcome: string;
    ended_at: Instant | null;
    email: string;
    part_number: string;
  }>(
    tx,
    sql`select outcome, ended_at, email, part_number from web_leases
      where lease_id = ${leaseId} and customer_number = ${customerNumber} and outcome <> 'denied'
      for update`,
  );
  return (
    row && {
      outcome: row.outcome,
      endedAt: isoOrNull(row.ended_at),
      email: row.email,
      partNumber: row.part_number,
    }
  );
}

/**
 * The account's latest lease start or end (/web-transactions' "Data as of"), each maximum read from the end of its
 * index (customer_number, started_at) and (customer_number, ended_at).
 */
export async function latestLeaseEvent(db: Db, customerNumber: string): Promise<Date | null> {
  const [row] = await queryRows<{ at: Instant | null }>(
    db,
    sql`select greatest(
        (select max(started_at) from web_leases where customer_number = ${customerNumber}),
        (select max(ended_at) from web_leases where customer_number = ${customerNumber})) as at`,
  );
  return row?.at ? new Date(row.at) : null;
}
