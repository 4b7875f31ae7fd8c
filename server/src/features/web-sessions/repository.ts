import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

/**
 * web_leases and what a checkout reads of the directory and assignments (web_users, web_group_members,
 * web_named_seats, web_group_terms), which web-directory and web-seats write.
 */

type Instant = string | Date;
const iso = (v: Instant) => new Date(v).toISOString();
const isoOrNull = (v: Instant | null) => (v === null ? null : iso(v));

/*
 * A checkout is three statements in its transaction (decision 071 "As built"): claimCheckout (the operation key, the
 * account, the pool's lock), checkoutState (everything the seat rules read, under that lock) and recordCheckout (the
 * lease or denial, the person seen, the key's outcome).
 */

/**
 * The checkout's first statement: claims the operation key when one is sent (`claimKey`: waits on a concurrent
 * claim of the same key until it commits, then finds it taken), reads the account, and takes the pool's lock
 * (`lock`) only once the key is claimed: it is evaluated in the projection of the claim's rows (a volatile call
 * PostgreSQL keeps there), so never before the claim and never for a retry that only answers the stored outcome.
 * Without a key the lock is always taken.
 */
export async function claimCheckout(
  tx: Db,
  customerNumber: string,
  claimKey: SQL | undefined,
  lock: SQL,
): Promise<{ account?: { exportControlStatus: string; disabled: boolean }; claimed: boolean }> {
  const [row] = await queryRows<{
    export_control_status: string | null;
    is_access_disabled: boolean | null;
    claimed: number;
  }>(
    tx,
    sql`with claim as (${claimKey ?? sql`select null::text as key`})
      select a.export_control_status, a.is_access_disabled,
        (select count(*)::int from (select key, ${lock} as locked from claim) l) as claimed
      from (select 1) one left join accounts a on a.customer_number = ${customerNumber}`,
  );
  return {
    account:
      row.export_control_status === null
        ? undefined
        : { exportControlStatus: row.export_control_status, disabled: row.is_access_disabled === true },
    claimed: Number(row.claimed) > 0,
  };
}

/**
 * Everything the seat rules read for a checkout, in one statement under the pool's lock: the pool (`pool`, the
 * caller's jsonb SQL value), the person by e-mail (none: id null), whether they hold a named seat of the pool,
 * their open leases of it, the pool's open leases, and the groups' terms on it with each group's open leases (by
 * the group the seat counts to) and whether the person is a member, in group-name order so a person of several
 * groups is served alike each time. The counts that do not apply (a named pool's terms) are read all the same:
 * index lookups, cheaper than another round trip.
 */
export async function checkoutState(
  tx: Db,
  customerNumber: string,
  partNumber: string,
  email: string,
  pool: SQL,
) {
  const [row] = await queryRows<{
    pool: unknown;
    user_id: string | null;
    state: string | null;
    named_seat: boolean;
    sessions: number;
    open: number;
    terms: {
      groupId: string;
      groupName: string;
      guaranteed: number;
      cap: number | null;
      open: number;
      member: boolean;
    }[];
  }>(
    tx,
    sql`select ${pool} as pool, u.id as user_id, u.state,
        exists (select 1 from web_named_seats s
          where s.customer_number = ${customerNumber} and s.part_number = ${partNumber} and s.user_id = u.id)
          as named_seat,
        (select count(*)::int from web_leases l
          where l.customer_number = ${customerNumber} and l.part_number = ${partNumber} and l.user_id = u.id
            and l.outcome = 'open') as sessions,
        (select count(*)::int from web_leases l
          where l.customer_number = ${customerNumber} and l.part_number = ${partNumber} and l.outcome = 'open')
          as open,
        (select coalesce(jsonb_agg(jsonb_build_object('groupId', t.group_id, 'groupName', g.name,
              'guaranteed', t.guaranteed, 'cap', t.cap,
              'open', (select count(*)::int from web_leases l
                where l.customer_number = t.customer_number and l.part_number = t.part_number
                  and l.group_id = t.group_id and l.outcome = 'open'),
              'member', exists (select 1 from web_group_members m where m.group_id = t.group_id and m.user_id = u.id))
            order by g.name, t.group_id), '[]'::jsonb)
          from web_group_terms t join web_groups g on g.id = t.group_id
          where t.customer_number = ${customerNumber} and t.part_number = ${partNumber}) as terms
      from (select 1) one left join web_users u on u.customer_number = ${customerNumber} and u.email = ${email}`,
  );
  const terms = parsed(row.terms).map((t) => ({
    groupId: t.groupId,
    groupName: t.groupName,
    guaranteed: Number(t.guaranteed),
    cap: t.cap === null ? null : Number(t.cap),
    open: Number(t.open),
    member: t.member === true,
  }));
  return {
    pool: parsed(row.pool),
    person: row.user_id === null ? undefined : { id: row.user_id, state: row.state as string },
    holdsNamedSeat: row.named_seat === true,
    sessions: Number(row.sessions),
    open: Number(row.open),
    terms: terms.map(({ member: _member, ...t }) => t),
    personGroupIds: terms.filter((t) => t.member).map((t) => t.groupId),
  };
}

/** jsonb arrives parsed from both drivers; text only if a driver's parser is ever missing. */
const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export interface NewLease {
  /** The lease's handle, made by the caller so the answer stored with the key is known before the insert. */
  leaseId: string;
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

/**
 * The checkout's last statement: records a grant (open, its heartbeat and activity now) or a denial (ended at
 * once); for a grant the person was last seen now and an invited person becomes active (a version bump, as every
 * change of a person); `keyOutcome`, when given, stores the answer for the key's retries. One statement, so the
 * person's last seen costs no round trip and is written in the same transaction as the lease, as before.
 */
export async function recordCheckout(tx: Db, lease: NewLease, keyOutcome: SQL | undefined): Promise<void> {
  const at = lease.at.toISOString();
  const granted = lease.denialReason === null;
  const writes = [
    sql`lease as (insert into web_leases (lease_id, customer_number, part_number, pool_kind, user_id, email, group_id,
        credential_id, product, client, started_at, last_heartbeat_at, last_activity_at, ended_at, outcome,
        denial_reason)
      values (${lease.leaseId}, ${lease.customerNumber}, ${lease.partNumber}, ${lease.poolKind}, ${lease.userId},
        ${lease.email}, ${lease.groupId}, ${lease.credentialId}, ${lease.product}, ${lease.client}, ${at},
        ${granted ? at : null}, ${granted ? at : null}, ${granted ? null : at},
        ${granted ? 'open' : 'denied'}, ${lease.denialReason}))`,
  ];
  if (granted && lease.userId !== null)
    writes.push(sql`seen as (update web_users set last_seen_at = ${at},
        state = case when state = 'invited' then 'active' else state end,
        version = version + case when state = 'invited' then 1 else 0 end,
        updated_at = case when state = 'invited' then ${at}::timestamptz else updated_at end
      where id = ${lease.userId})`);
  if (keyOutcome) writes.push(sql`outcome as (${keyOutcome})`);
  await tx.execute(sql`with ${sql.join(writes, sql`, `)} select 1`);
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
