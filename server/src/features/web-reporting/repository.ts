import { capacityDenials } from '@lp/domain/web-reporting';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

/*
 * The reports' SQL over web_leases (written by web-sessions) and web_named_seats (written by web-seats). Periods
 * are [from, to) instants; days and hours are UTC. Leases that overlap a period are found through the indexes
 * (customer_number, started_at), (customer_number, ended_at) and the open leases' index.
 */

type Instant = string | Date;
const iso = (v: Instant) => new Date(v).toISOString();

export interface Period {
  /** First day, 'YYYY-MM-DD' */
  fromDay: string;
  /** Last day, included */
  toDay: string;
  /** [from, to) as ISO instants */
  from: string;
  to: string;
}

/** Sessions (not denials) of the account open at some time in the period. */
const overlapping = (customerNumber: string, period: Period, partNumber?: string): SQL =>
  sql`l.customer_number = ${customerNumber} and l.outcome <> 'denied'
    and l.started_at < ${period.to}::timestamptz
    and (l.started_at >= ${period.from}::timestamptz or l.ended_at > ${period.from}::timestamptz or l.outcome = 'open')
    ${partNumber === undefined ? sql`` : sql`and l.part_number = ${partNumber}`}`;

/**
 * Each day's most sessions open at once, per pool (or per pool and group whose guarantee or cap the sessions
 * counted to). A running sum over the sessions' starts (+1) and ends (-1), ends first at the same instant, with
 * a 0 at each day's start so a day with no start or end still has the level it began with.
 */
export async function dailyPeaks(db: Db, customerNumber: string, period: Period, byGroup: boolean) {
  const rows = await queryRows<{ part_number: string; group_id: string | null; day: string; peak: number }>(
    db,
    sql`with leases as (
        select l.part_number, ${byGroup ? sql`l.group_id` : sql`null::uuid`} as group_id,
          greatest(l.started_at, ${period.from}::timestamptz) as s,
          least(coalesce(l.ended_at, now()), ${period.to}::timestamptz) as e
        from web_leases l
        where ${overlapping(customerNumber, period)} ${byGroup ? sql`and l.group_id is not null` : sql``}),
      keys as (select distinct part_number, group_id from leases),
      days as (
        select (d::timestamp at time zone 'UTC') as at
        from generate_series(${period.fromDay}::date, ${period.toDay}::date, interval '1 day') d),
      events as (
        select part_number, group_id, s as at, 1 as step from leases
        union all
        select part_number, group_id, e, -1 from leases where e < ${period.to}::timestamptz
        union all
        select k.part_number, k.group_id, d.at, 0 from keys k cross join days d),
      running as (
        select part_number, group_id, at,
          sum(step) over (partition by part_number, group_id order by at, step rows unbounded preceding) as n
        from events)
      select part_number, group_id, to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, max(n)::int as peak
      from running group by 1, 2, 3`,
  );
  return rows.map((r) => ({
    partNumber: r.part_number,
    groupId: r.group_id,
    day: r.day,
    peak: Number(r.peak),
  }));
}

/** People with a session in the period: per pool (groupId null) and per pool and group the sessions counted to. */
export async function activeUsers(db: Db, customerNumber: string, period: Period) {
  const rows = await queryRows<{ part_number: string; group_id: string | null; whole: number; n: number }>(
    db,
    sql`select l.part_number, l.group_id, grouping(l.group_id) as whole, count(distinct l.user_id)::int as n
      from web_leases l
      where ${overlapping(customerNumber, period)}
      group by grouping sets ((l.part_number), (l.part_number, l.group_id))`,
  );
  return rows
    .filter((r) => Number(r.whole) === 1 || r.group_id !== null)
    .map((r) => ({
      partNumber: r.part_number,
      groupId: Number(r.whole) === 1 ? null : r.group_id,
      users: Number(r.n),
    }));
}

/** Sessions started in each weekday (0 Monday) and hour, and sessions open at some time in each, over the period. */
export async function hourlyUse(db: Db, customerNumber: string, period: Period, partNumber?: string) {
  const rows = await queryRows<{ weekday: number; hour: number; started: number; active: number }>(
    db,
    sql`with leases as (
        select l.started_at at time zone 'UTC' as started,
          greatest(l.started_at, ${period.from}::timestamptz) at time zone 'UTC' as s,
          least(coalesce(l.ended_at, now()), ${period.to}::timestamptz) at time zone 'UTC' as e
        from web_leases l
        where ${overlapping(customerNumber, period, partNumber)}),
      starts as (
        select started as at, 1 as started, 0 as active from leases
        where started >= ${period.from}::timestamptz at time zone 'UTC'),
      hours as (
        select h as at, 0 as started, 1 as active
        from leases, generate_series(date_trunc('hour', s), e - interval '1 microsecond', interval '1 hour') h)
      select (extract(isodow from at)::int - 1) as weekday, extract(hour from at)::int as hour,
        sum(started)::int as started, sum(active)::int as active
      from (select * from starts union all select * from hours) x
      group by 1, 2`,
  );
  return rows.map((r) => ({
    weekday: Number(r.weekday),
    hour: Number(r.hour),
    started: Number(r.started),
    active: Number(r.active),
  }));
}

/** Denials in the period by pool and reason, with the pool's product name. */
export async function denialCounts(db: Db, customerNumber: string, period: Period) {
  const rows = await queryRows<{
    part_number: string;
    product_name: string | null;
    reason: string;
    n: number;
  }>(
    db,
    sql`select l.part_number, p.name as product_name, l.denial_reason as reason, count(*)::int as n
      from web_leases l left join products p on p.part_number = l.part_number
      where l.customer_number = ${customerNumber} and l.outcome = 'denied'
        and l.started_at >= ${period.from}::timestamptz and l.started_at < ${period.to}::timestamptz
      group by 1, 2, 3`,
  );
  return rows.map((r) => ({
    partNumber: r.part_number,
    productName: r.product_name ?? r.part_number,
    reason: r.reason,
    count: Number(r.n),
  }));
}

/** Per pool, the most different people refused for capacity (pool full, group cap) within one clock hour. */
export async function capacityDenialPeaks(db: Db, customerNumber: string, period: Period) {
  const reasons = sql.join(
    capacityDenials.map((r) => sql`${r}`),
    sql`, `,
  );
  const rows = await queryRows<{ part_number: string; peak: number }>(
    db,
    sql`select part_number, max(n)::int as peak from (
        select l.part_number, date_trunc('hour', l.started_at at time zone 'UTC') as h, count(distinct l.email) as n
        from web_leases l
        where l.customer_number = ${customerNumber} and l.outcome = 'denied' and l.denial_reason in (${reasons})
          and l.started_at >= ${period.from}::timestamptz and l.started_at < ${period.to}::timestamptz
        group by 1, 2) x
      group by 1`,
  );
  return new Map(rows.map((r) => [r.part_number, Number(r.peak)]));
}

/**
 * Named seats held since before `since` whose person had no session of the pool from then on (none started or
 * ended since, none open), with the end of the person's last session of the pool (read for those seats only).
 */
export async function idleNamedSeats(db: Db, customerNumber: string, since: string) {
  const rows = await queryRows<{
    part_number: string;
    product_name: string | null;
    user_id: string;
    email: string;
    name: string;
    assigned_at: Instant;
    via_group: string | null;
    last_seen: Instant | null;
  }>(
    db,
    sql`with used as (
        select distinct l.part_number, l.user_id from web_leases l
        where l.customer_number = ${customerNumber} and l.outcome <> 'denied' and l.user_id is not null
          and (l.started_at >= ${since}::timestamptz or l.ended_at >= ${since}::timestamptz or l.outcome = 'open')),
      idle as (
        select s.part_number, s.user_id, s.group_id, s.assigned_at from web_named_seats s
        where s.customer_number = ${customerNumber} and s.assigned_at < ${since}::timestamptz
          and not exists (select 1 from used where used.part_number = s.part_number and used.user_id = s.user_id)),
      seen as (
        select l.part_number, l.user_id, max(l.ended_at) as last_seen
        from web_leases l join idle i on i.part_number = l.part_number and i.user_id = l.user_id
        where l.customer_number = ${customerNumber} and l.outcome <> 'denied'
        group by 1, 2)
      select i.part_number, p.name as product_name, i.user_id, u.email, u.name, i.assigned_at,
        g.name as via_group, seen.last_seen
      from idle i
      join web_users u on u.id = i.user_id
      left join web_groups g on g.id = i.group_id
      left join products p on p.part_number = i.part_number
      left join seen on seen.part_number = i.part_number and seen.user_id = i.user_id
      order by seen.last_seen nulls first, u.email, i.part_number`,
  );
  return rows.map((r) => ({
    partNumber: r.part_number,
    productName: r.product_name ?? r.part_number,
    userId: r.user_id,
    email: r.email,
    name: r.name,
    assignedAt: iso(r.assigned_at),
    viaGroup: r.via_group,
    lastSeen: r.last_seen === null ? null : iso(r.last_seen),
  }));
}

/** Every account's named seats idle since `since` (the reclaim digest), with the pool's product name. */
export async function idleNamedSeatsOfAll(db: Db, since: string) {
  const rows = await queryRows<{ customer_number: string }>(
    db,
    sql`select distinct customer_number from web_named_seats where assigned_at < ${since}::timestamptz
      order by customer_number`,
  );
  const byAccount = new Map<string, Awaited<ReturnType<typeof idleNamedSeats>>>();
  for (const { customer_number } of rows) {
    const seats = await idleNamedSeats(db, customer_number, since);
    if (seats.length) byAccount.set(customer_number, seats);
  }
  return byAccount;
}
