import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import type { MonthPartitionedTable } from '../../db/partitions.ts';

export interface RolledUp {
  sessions: number;
  chargedCents: number;
}

/**
 * Adds the sessions of `table` (a month partition of usage_sessions, or its default partition with `before`)
 * to usage_daily_rollups, per account, UTC day of the start, license server and product; answers what was added.
 */
export async function rollUpSessions(db: Db, table: string, before?: string): Promise<RolledUp> {
  const only = before ? sql`where start_time < ${before}::timestamptz` : sql``;
  const [row] = await queryRows<{ sessions: string | number; cents: string | number }>(
    db,
    sql`with src as (
          select customer_number, (start_time at time zone 'UTC')::date as day, server_id, product,
                 count(*)::int as sessions, sum(hours) as hours, sum(charged_cents) as charged_cents
            from ${sql.identifier(table)} ${only}
           group by 1, 2, 3, 4),
        added as (
          insert into usage_daily_rollups (customer_number, day, server_id, product, sessions, hours, charged_cents)
          select * from src
          on conflict (customer_number, day, server_id, product) do update
             set sessions = usage_daily_rollups.sessions + excluded.sessions,
                 hours = usage_daily_rollups.hours + excluded.hours,
                 charged_cents = usage_daily_rollups.charged_cents + excluded.charged_cents)
        select coalesce(sum(sessions), 0) as sessions, coalesce(sum(charged_cents), 0) as cents from src`,
  );
  return { sessions: Number(row.sessions), chargedCents: Number(row.cents) };
}

/** Detaches a month partition from its table and drops it: no row is read or written. */
export async function dropMonthPartition(
  db: Db,
  parent: MonthPartitionedTable,
  table: string,
): Promise<void> {
  await db.execute(sql`alter table ${sql.identifier(parent)} detach partition ${sql.identifier(table)}`);
  await db.execute(sql`drop table ${sql.identifier(table)}`);
}

/** The rows of `table` (of web_leases started before `before`), for the audit entry of a drop. */
export async function countLeases(db: Db, table: string, before?: string): Promise<number> {
  const only = before ? sql`where started_at < ${before}::timestamptz` : sql``;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from ${sql.identifier(table)} ${only}`,
  );
  return row.n;
}

/** Deletes the default partition's rows that started before `before` (rows of months already dropped). */
export async function deleteDefaultRows(
  db: Db,
  parent: MonthPartitionedTable,
  before: string,
): Promise<void> {
  const column = parent === 'usage_sessions' ? sql`start_time` : sql`started_at`;
  await db.execute(
    sql`delete from ${sql.identifier(`${parent}_default`)} where ${column} < ${before}::timestamptz`,
  );
}

/**
 * Clears the daily session counts (decision 076) of the days whose raw sessions go: from `from` (or the first)
 * to before `before`. Dropping a partition or deleting from the default one fires no trigger on usage_sessions.
 */
export async function clearDailyCounts(db: Db, before: string, from?: string): Promise<void> {
  const since = from ? sql`and day >= ${from}::date` : sql``;
  await db.execute(sql`delete from usage_daily_counts where day < ${before}::date ${since}`);
}
