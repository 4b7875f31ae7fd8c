import { capacityDenials } from '@lp/domain/web-reporting';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

/*
 * The reports' SQL over web_leases (written by web-sessions), web_named_seats (written by web-seats) and the
 * rollups of closed hours (web_usage_hours, web_usage_people: written by the rollup below, decision 071 as
 * built). Periods are [from, to) instants; days and hours are UTC. The hours before the watermark are read from
 * the rollups, the rest of a period from web_leases, so an answer is current and equals a read of web_leases alone.
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

/** The group key of the rollups' whole-pool rows (a key column cannot be null). */
export const WHOLE_POOL = '00000000-0000-0000-0000-000000000000';

/**
 * Hours before the answer are rolled up (null: none are; the reports then read web_leases alone). A report reads it
 * first and passes it on as a constant, so each branch below is an index range the planner can see. Should the job
 * move it meanwhile, the report still reads the hours before the old one from the rollups (rows rolled up once do
 * not change) and the rest from web_leases.
 */
export async function readWatermark(db: Db): Promise<string | null> {
  const [row] = await queryRows<{ rolled_until: Instant }>(
    db,
    sql`select rolled_until from web_usage_watermark`,
  );
  return row ? iso(row.rolled_until) : null;
}

/**
 * The sessions (not denials) of `scope` open at some time in [from, to) (started in it, or before it and ended
 * after its start or still open), clipped to it (an open one ends now): once with the whole pool's key, and, with
 * `groups`, once more with the group its seat counted to. Three index ranges, so a window of the past or the last
 * hour reads its own sessions, not every one that ended after it: started in it ((customer_number, started_at)),
 * ended in it ((customer_number, ended_at)), and those across it (ended after it, or open).
 */
function sessionsIn(scope: SQL, fromInstant: string, toInstant: string, groups: boolean): SQL {
  const from = sql`${fromInstant}::timestamptz`;
  const to = sql`${toInstant}::timestamptz`;
  const branch = (when: SQL) =>
    sql`select l.customer_number, l.part_number, l.group_id, l.user_id, l.started_at, l.ended_at
      from web_leases l where ${scope} and l.outcome <> 'denied' and ${from} < ${to} and ${when}`;
  return sql`select l.customer_number, l.part_number, k.group_id, l.user_id, l.started_at,
      greatest(l.started_at, ${from}) as s, least(coalesce(l.ended_at, now()), ${to}) as e
    from (
      ${branch(sql`l.started_at >= ${from} and l.started_at < ${to}`)}
      union all
      ${branch(sql`l.started_at < ${from} and l.ended_at > ${from} and l.ended_at < ${to}`)}
      union all
      ${branch(sql`l.started_at < ${from} and (l.ended_at >= ${to} or l.outcome = 'open')`)}
    ) l
    cross join lateral (values (${WHOLE_POOL}::uuid)${groups ? sql`, (l.group_id)` : sql``}) k(group_id)
    where k.group_id is not null`;
}

/**
 * CTEs ending in `hours`: per account, pool, group key and UTC hour of [from, to), the sessions started in it,
 * open at some time in it (the hours from its start's to the one before its end; a session of no length counts
 * in its hour unless it is on the hour) and the most open at once in it. The most at once is a running sum over
 * each instant's starts and ends (so back to back is one), with the level at every hour's start (a 0 step at
 * each hour some session is open in), so an hour's peak needs nothing outside it and a day's peak is the most of
 * its hours' (also when the day is rolled up in part and read from web_leases for the rest).
 */
function hoursOf(sessions: SQL, fromInstant: string, toInstant: string): SQL {
  const from = sql`${fromInstant}::timestamptz`;
  const to = sql`${toInstant}::timestamptz`;
  return sql`l as (${sessions}),
    touched as (
      select customer_number, part_number, group_id, h, count(*)::int as active
      from l, generate_series(date_trunc('hour', l.s, 'UTC'), l.e - interval '1 microsecond', interval '1 hour') h
      group by 1, 2, 3, 4),
    starts as (
      select customer_number, part_number, group_id, date_trunc('hour', l.started_at, 'UTC') as h,
        count(*)::int as started
      from l where l.started_at >= ${from} group by 1, 2, 3, 4),
    events as (
      select customer_number, part_number, group_id, s as at, 1 as step from l
      union all
      select customer_number, part_number, group_id, e, -1 from l where e < ${to}
      union all
      select customer_number, part_number, group_id, h, 0 from touched),
    levels as (
      select customer_number, part_number, group_id, at,
        sum(sum(step)) over (partition by customer_number, part_number, group_id order by at) as n
      from events group by 1, 2, 3, 4),
    peaks as (
      select customer_number, part_number, group_id, date_trunc('hour', at, 'UTC') as h, max(n)::int as peak
      from levels where at < ${to} group by 1, 2, 3, 4),
    hours as (
      select customer_number, part_number, group_id, h as hour, coalesce(st.started, 0) as started,
        coalesce(tc.active, 0) as active, coalesce(pk.peak, 0) as peak
      from touched tc full join starts st using (customer_number, part_number, group_id, h)
        left join peaks pk using (customer_number, part_number, group_id, h))`;
}

/**
 * Runs a statement that expands sessions into hours or days with generate_series, with PostgreSQL's JIT off: the
 * planner takes each series for 1 000 rows, so the cost crosses the JIT thresholds and compiling takes seconds
 * for milliseconds of work.
 */
async function rowsWithoutJit<T>(db: Db, query: SQL): Promise<T[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return queryRows<T>(tx, query);
  });
}

/** The period's hours rolled up ([from, rolledTo)) and the rest, read from web_leases ([tailFrom, to)). */
function splitOf(period: Period, watermark: string | null) {
  // ISO instants of one format sort as they fall.
  const mark = watermark ?? period.from;
  const rolledTo = [mark, period.to].sort()[0];
  return {
    rolled: sql`hour >= ${period.from}::timestamptz and hour < ${rolledTo}::timestamptz`,
    tailFrom: [mark, period.from].sort()[1],
    to: period.to,
  };
}

/**
 * Each day's most sessions open at once, per pool (groupId null) and per pool and group the sessions counted to:
 * the most of its hours' peaks, rolled-up hours from web_usage_hours and the rest from web_leases.
 */
export async function dailyPeaks(db: Db, customerNumber: string, period: Period, watermark: string | null) {
  const split = splitOf(period, watermark);
  const rows = await rowsWithoutJit<{ part_number: string; group_id: string; day: string; peak: number }>(
    db,
    sql`with ${hoursOf(sessionsIn(sql`l.customer_number = ${customerNumber}`, split.tailFrom, split.to, true), split.tailFrom, split.to)},
      every_hour as (
        select part_number, group_id, hour, peak from web_usage_hours
        where customer_number = ${customerNumber} and ${split.rolled}
        union all
        select part_number, group_id, hour, peak from hours)
      select part_number, group_id, to_char(hour at time zone 'UTC', 'YYYY-MM-DD') as day, max(peak)::int as peak
      from every_hour group by 1, 2, 3`,
  );
  return rows.map((r) => ({
    partNumber: r.part_number,
    groupId: r.group_id === WHOLE_POOL ? null : r.group_id,
    day: r.day,
    peak: Number(r.peak),
  }));
}

/** '0'/'1' × 366: the days of `year` (bit d-1 for its day d) that fall in the period. */
function yearMask(year: number, period: Period): string {
  const first = Date.UTC(year, 0, 1);
  const from = Math.max(Date.parse(period.from), first);
  const to = Math.min(Date.parse(period.to), Date.UTC(year + 1, 0, 1));
  const bits = Array<string>(366).fill('0');
  for (let t = from; t < to; t += 86_400_000) bits[Math.round((t - first) / 86_400_000)] = '1';
  return bits.join('');
}

const NO_DAYS = sql`repeat('0', 366)::bit(366)`;

/**
 * People with a session in the period: per pool (groupId null) and per pool and group the sessions counted to.
 * Rolled-up days from web_usage_people (a person counts once however many days), the rest from web_leases.
 */
export async function activeUsers(db: Db, customerNumber: string, period: Period, watermark: string | null) {
  const years: { year: number; mask: string }[] = [];
  for (let y = Number(period.fromDay.slice(0, 4)); y <= Number(period.toDay.slice(0, 4)); y++)
    years.push({ year: y, mask: yearMask(y, period) });
  const split = splitOf(period, watermark);
  const rows = await rowsWithoutJit<{ part_number: string; group_id: string; n: number }>(
    db,
    sql`with l as (${sessionsIn(sql`l.customer_number = ${customerNumber}`, split.tailFrom, split.to, true)}),
      years as (select * from jsonb_to_recordset(${JSON.stringify(years)}::jsonb) as y(year int, mask text)),
      people as (
        select p.part_number, p.group_id, p.user_id
        from web_usage_people p join years y on y.year = p.year
        where p.customer_number = ${customerNumber} and (p.days & y.mask::bit(366)) <> ${NO_DAYS}
        union
        select part_number, group_id, user_id from l where user_id is not null)
      select part_number, group_id, count(*)::int as n from people group by 1, 2`,
  );
  return rows.map((r) => ({
    partNumber: r.part_number,
    groupId: r.group_id === WHOLE_POOL ? null : r.group_id,
    users: Number(r.n),
  }));
}

/** Sessions started in each weekday (0 Monday) and hour, and sessions open at some time in each, over the period. */
export async function hourlyUse(
  db: Db,
  customerNumber: string,
  period: Period,
  watermark: string | null,
  partNumber?: string,
) {
  const split = splitOf(period, watermark);
  const scope = sql`l.customer_number = ${customerNumber}
    ${partNumber === undefined ? sql`` : sql`and l.part_number = ${partNumber}`}`;
  const rows = await rowsWithoutJit<{ weekday: number; hour: number; started: number; active: number }>(
    db,
    sql`with ${hoursOf(sessionsIn(scope, split.tailFrom, split.to, false), split.tailFrom, split.to)},
      every_hour as (
        select hour, started, active from web_usage_hours
        where customer_number = ${customerNumber} and group_id = ${WHOLE_POOL}::uuid
          ${partNumber === undefined ? sql`` : sql`and part_number = ${partNumber}`}
          and ${split.rolled}
        union all
        select hour, started, active from hours)
      select (extract(isodow from hour at time zone 'UTC')::int - 1) as weekday,
        extract(hour from hour at time zone 'UTC')::int as hour, sum(started)::int as started,
        sum(active)::int as active
      from every_hour group by 1, 2`,
  );
  return rows.map((r) => ({
    weekday: Number(r.weekday),
    hour: Number(r.hour),
    started: Number(r.started),
    active: Number(r.active),
  }));
}

/** Accounts with web leases (each read through its own indexes by the rollup). */
export async function accountsWithLeases(db: Db): Promise<string[]> {
  const rows = await queryRows<{ customer_number: string }>(
    db,
    sql`select a.customer_number from accounts a
      where exists (select 1 from web_leases l where l.customer_number = a.customer_number)
      order by 1`,
  );
  return rows.map((r) => r.customer_number);
}

/**
 * Takes the rollup's lock (to the end of the transaction) and answers the watermark (null: nothing rolled up).
 * The transaction runs without JIT (see rowsWithoutJit).
 */
export async function lockWatermark(tx: Db): Promise<string | null> {
  await tx.execute(sql`set local jit = off`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('web-usage-rollup'))`);
  const [row] = await queryRows<{ rolled_until: Instant }>(
    tx,
    sql`select rolled_until from web_usage_watermark`,
  );
  return row ? iso(row.rolled_until) : null;
}

/** The hour of the first lease of these accounts (null: none). */
export async function firstLeaseHour(db: Db, accounts: readonly string[]): Promise<string | null> {
  if (accounts.length === 0) return null;
  const [row] = await queryRows<{ first: Instant | null }>(
    db,
    sql`select date_trunc('hour', min(f.started_at), 'UTC') as first
      from jsonb_array_elements_text(${JSON.stringify(accounts)}::jsonb) a(customer_number)
      cross join lateral (select min(l.started_at) as started_at from web_leases l
        where l.customer_number = a.customer_number) f`,
  );
  return row?.first == null ? null : iso(row.first);
}

/**
 * Rolls up the hours [from, to) of one account: replaces its rows of web_usage_hours in them and adds the days
 * its people had sessions in them to web_usage_people (bits only ever set, so a window rolled again changes
 * nothing). Run in the rollup's transaction.
 */
export async function rollUpAccount(tx: Db, customerNumber: string, from: string, to: string) {
  const f = sql`${from}::timestamptz`;
  const t = sql`${to}::timestamptz`;
  const sessions = sessionsIn(sql`l.customer_number = ${customerNumber}`, from, to, true);
  await tx.execute(
    sql`delete from web_usage_hours where customer_number = ${customerNumber} and hour >= ${f} and hour < ${t}`,
  );
  await tx.execute(
    sql`with ${hoursOf(sessions, from, to)}
      insert into web_usage_hours (customer_number, part_number, group_id, hour, started, active, peak)
      select customer_number, part_number, group_id, hour, started, active, peak from hours`,
  );
  await tx.execute(
    sql`with l as (${sessions}),
      days as (
        select distinct customer_number, part_number, group_id, user_id, d at time zone 'UTC' as d
        from l, generate_series(date_trunc('day', l.s, 'UTC'),
          greatest(date_trunc('day', l.s, 'UTC'), date_trunc('day', l.e - interval '1 microsecond', 'UTC')),
          interval '24 hours') d
        where l.user_id is not null)
      insert into web_usage_people (customer_number, part_number, group_id, year, user_id, days)
      select customer_number, part_number, group_id, extract(year from d)::int, user_id,
        bit_or(overlay(${NO_DAYS} placing B'1' from extract(doy from d)::int))
      from days group by 1, 2, 3, 4, 5
      on conflict (customer_number, year, part_number, group_id, user_id)
        do update set days = web_usage_people.days | excluded.days`,
  );
}

/** Moves the watermark (the rollup's transaction holds its lock). */
export async function setWatermark(tx: Db, until: string) {
  await tx.execute(
    sql`insert into web_usage_watermark (id, rolled_until, rolled_at) values (true, ${until}::timestamptz, now())
      on conflict (id) do update set rolled_until = excluded.rolled_until, rolled_at = excluded.rolled_at`,
  );
}

/** The rollup job's finished runs older than a week go (one a day would otherwise pile up 8 760 rows a year). */
export async function pruneRollupRuns(db: Db, name: string, now: Date) {
  await db.execute(
    sql`delete from job_runs where name = ${name} and finished_at is not null
      and finished_at < ${new Date(now.getTime() - 7 * 86_400_000).toISOString()}::timestamptz`,
  );
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
 * Named seats held since before `since` whose person had no session of the pool from then on (none open, none
 * ended since: a session started since has ended since or is open), with the end of the person's last session of
 * the pool. Per seat two probes of web_leases_seat_use_idx (its open session, its latest end), not the account's
 * leases.
 */
const idleSeatsFrom = (customerNumber: string, since: string) => sql`
      from web_named_seats s
      cross join lateral (
        select max(l.ended_at) as last_seen from web_leases l
        where l.customer_number = s.customer_number and l.part_number = s.part_number and l.user_id = s.user_id
          and l.outcome <> 'denied') seen
      join web_users u on u.id = s.user_id
      left join web_groups g on g.id = s.group_id
      left join products p on p.part_number = s.part_number
      where s.customer_number = ${customerNumber} and s.assigned_at < ${since}::timestamptz
        and (seen.last_seen is null or seen.last_seen < ${since}::timestamptz)
        and not exists (
          select 1 from web_leases l
          where l.customer_number = s.customer_number and l.part_number = s.part_number and l.user_id = s.user_id
            and l.outcome <> 'denied' and l.ended_at is null and l.outcome = 'open')`;

type IdleSeatRow = {
  part_number: string;
  product_name: string | null;
  user_id: string;
  email: string;
  name: string;
  assigned_at: Instant;
  via_group: string | null;
  last_seen: Instant | null;
  total: number | string;
};

/** Idlest first; the e-mail (unique in an account) and the pool make the order total, so pages never overlap. */
async function idleSeatRows(
  db: Db,
  customerNumber: string,
  since: string,
  page?: { offset: number; limit: number },
) {
  return queryRows<IdleSeatRow>(
    db,
    sql`select s.part_number, p.name as product_name, s.user_id, u.email, u.name, s.assigned_at,
        g.name as via_group, seen.last_seen, count(*) over () as total
      ${idleSeatsFrom(customerNumber, since)}
      order by seen.last_seen nulls first, u.email, s.part_number
      ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`,
  );
}

const idleSeat = (r: IdleSeatRow) => ({
  partNumber: r.part_number,
  productName: r.product_name ?? r.part_number,
  userId: r.user_id,
  email: r.email,
  name: r.name,
  assignedAt: iso(r.assigned_at),
  viaGroup: r.via_group,
  lastSeen: r.last_seen === null ? null : iso(r.last_seen),
});

/** Every named seat of an account idle since `since` (the reclaim digest), idlest first. */
export async function idleNamedSeats(db: Db, customerNumber: string, since: string) {
  return (await idleSeatRows(db, customerNumber, since)).map(idleSeat);
}

/** One page of an account's named seats idle since `since`, and how many there are in all. */
export async function idleNamedSeatsPage(
  db: Db,
  customerNumber: string,
  since: string,
  page: { offset: number; limit: number },
) {
  const rows = await idleSeatRows(db, customerNumber, since, page);
  // A page past the end has no row to carry the total: counted on its own then.
  const total = rows.length
    ? Number(rows[0]!.total)
    : page.offset === 0
      ? 0
      : Number(
          (
            await queryRows<{ n: number | string }>(
              db,
              sql`select count(*) as n ${idleSeatsFrom(customerNumber, since)}`,
            )
          )[0]?.n ?? 0,
        );
  return { total, seats: rows.map(idleSeat) };
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
