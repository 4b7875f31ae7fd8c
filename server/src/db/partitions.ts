import { sql } from 'drizzle-orm';
import { type Job, utcDay } from '../platform/jobs.ts';
import { type Db, queryRows } from './database.ts';

/**
 * Tables partitioned by the UTC month of a time column (decision 073). Each has a `<table>_default` partition for
 * rows of a month without its own; `lp_month_partition` (migration 0018, since 0024 with the default partition's
 * storage options) makes a month's partition and moves that month's rows out of the default one.
 */
export type MonthPartitionedTable = 'usage_sessions' | 'web_leases';

/** How many months ahead of the current one the partitions are made. */
export const MONTHS_AHEAD = 3;

/** The first day (YYYY-MM-01) of the UTC month of `at`, moved by `months`. */
export function monthStart(at: Date, months = 0): string {
  const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
  return d.toISOString().slice(0, 10);
}

/** Makes the month partitions of `table` from the month of `from` to that of `to` that are missing. */
export async function ensureMonthPartitions(
  db: Db,
  table: MonthPartitionedTable,
  from: Date,
  to: Date,
): Promise<void> {
  await db.execute(
    sql`select lp_month_partition(${table}, m::date)
          from generate_series(${monthStart(from)}::date, ${monthStart(to)}::date, interval '1 month') m`,
  );
}

/** The month partitions of `table` (not the default one), oldest first: name and first day of the month. */
export async function monthPartitions(
  db: Db,
  table: MonthPartitionedTable,
): Promise<{ name: string; month: string }[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         where i.inhparent = ${table}::regclass and c.relname ~ '_p[0-9]{4}_[0-9]{2}$' order by 1`,
  );
  return rows.map(({ name }) => ({ name, month: `${name.slice(-7).replace('_', '-')}-01` }));
}

/**
 * The months the usage tables can be written in, made ahead: a license server may report a session that started
 * up to `backfillDays` ago (CLS_BACKFILL_DAYS); a web lease starts when it is checked out. Three months ahead, so a
 * new month never starts in the default partition.
 */
export async function ensureUsagePartitions(db: Db, now: Date, backfillDays: number): Promise<void> {
  const ahead = new Date(Date.parse(monthStart(now, MONTHS_AHEAD)));
  await ensureMonthPartitions(
    db,
    'usage_sessions',
    new Date(now.getTime() - backfillDays * 86_400_000),
    ahead,
  );
  await ensureMonthPartitions(db, 'web_leases', now, ahead);
}

/** Once a UTC day, on whichever node claims the run (decision 040): the months ahead are made. Safe to repeat. */
export function usagePartitionsJob(backfillDays: number): Job {
  return {
    name: 'usage-partitions',
    runKeyOf: utcDay,
    run: async (ctx, _day, now) => {
      await ensureUsagePartitions(ctx.db, now, backfillDays);
    },
  };
}
