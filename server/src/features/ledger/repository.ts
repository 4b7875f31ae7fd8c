import { sql } from 'drizzle-orm';
import { type Db, jsonRows, lockUntilCommit, queryRows } from '../../db/database.ts';

/**
 * Serialises every ledger write of one account (usage posting, adjustments) until the transaction ends, so
 * concurrent batches never read the same balance and overdraw an entitlement.
 */
export async function lockAccountLedger(tx: Db, customerNumber: string): Promise<void> {
  await lockUntilCommit(tx, `elastic-ledger:${customerNumber}`);
}

export interface LedgerRow {
  customer_number: string;
  entitlement_id: number | null;
  kind: 'usage' | 'overage' | 'adjustment';
  product: string;
  amount_cents: number;
  at: string;
  created_by?: string | null;
  note?: string | null;
}

export interface RollupRow {
  customer_number: string;
  entitlement_id: number;
  day: string;
  product: string;
  amount_cents: number;
}

const BATCH = 20_000;

export async function insertLedgerRows(tx: Db, rows: readonly LedgerRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.execute(sql`insert into elastic_ledger
        (customer_number, entitlement_id, kind, product, amount_cents, at, created_by, note)
      select customer_number, entitlement_id, kind, product, amount_cents, at, created_by, note
      from json_to_recordset(${jsonRows(rows.slice(i, i + BATCH))}) as t(customer_number text,
        entitlement_id bigint, kind text, product text, amount_cents bigint,
        at timestamptz, created_by text, note text)`);
  }
}

/** Adds to the daily rollups (one row per account, entitlement, day and product). */
export async function addToRollups(tx: Db, rows: readonly RollupRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.execute(sql`insert into elastic_daily_usage (customer_number, entitlement_id, day, product, amount_cents)
      select customer_number, entitlement_id, day, product, amount_cents
      from json_to_recordset(${jsonRows(rows.slice(i, i + BATCH))}) as t(customer_number text,
        entitlement_id bigint, day text, product text, amount_cents bigint)
      on conflict (customer_number, entitlement_id, day, product)
      do update set amount_cents = elastic_daily_usage.amount_cents + excluded.amount_cents`);
  }
}

export interface ReconcileRow {
  customer_number: string;
  session_cents: string | number;
  usage_cents: string | number;
  overage_cents: string | number;
  adjustment_cents: string | number;
  rollup_cents: string | number;
}

/** Per account: what sessions charged (rolled up or not), what the ledger holds by kind and its rollups (entitlements' Used). */
export async function reconcileTotals(db: Db, customerNumber?: string): Promise<ReconcileRow[]> {
  const only = (column: string) =>
    customerNumber ? sql`where ${sql.raw(column)} = ${customerNumber}` : sql``;
  return queryRows<ReconcileRow>(
    db,
    // The sessions of months past retention are in their daily rollups (decision 073).
    sql`with s as (select customer_number, sum(c) as c from (
          select customer_number, charged_cents as c from usage_sessions ${only('customer_number')}
          union all
          select customer_number, charged_cents from usage_daily_rollups ${only('customer_number')}) kept
        group by 1),
      l as (select customer_number,
          sum(amount_cents) filter (where kind = 'usage') as usage,
          sum(amount_cents) filter (where kind = 'overage') as overage,
          sum(amount_cents) filter (where kind = 'adjustment') as adjustment
        from elastic_ledger ${only('customer_number')} group by 1),
      r as (select customer_number, sum(amount_cents) as total from elastic_daily_usage ${only('customer_number')} group by 1),
      k as (select customer_number from s union select customer_number from l
        union select customer_number from r)
    select k.customer_number, coalesce(s.c, 0) as session_cents, coalesce(l.usage, 0) as usage_cents,
      coalesce(l.overage, 0) as overage_cents, coalesce(l.adjustment, 0) as adjustment_cents,
      coalesce(r.total, 0) as rollup_cents
    from k left join s using (customer_number) left join l using (customer_number)
      left join r using (customer_number)
    order by k.customer_number`,
  );
}

/** Usage drawn per elastic entitlement and UTC day since `fromDay` (every account; the notices' burn rate). */
export const dailyUsageSince = (db: Db, fromDay: string) =>
  queryRows<{ entitlement_id: string | number; day: string; cents: string | number }>(
    db,
    sql`select entitlement_id, to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(amount_cents) as cents
      from elastic_ledger
      where kind = 'usage' and entitlement_id is not null and at >= ${`${fromDay}T00:00:00Z`}::timestamptz
      group by 1, 2 order by 1, 2`,
  );
