import { formatDate } from '@lp/domain/dates';
import { chargeCents, rateTableFor, sessionHours } from '@lp/domain/elastic-rating';
import { sql } from 'drizzle-orm';
import { type Db, jsonRows, queryRows } from '../../db/database.ts';
import { rateTables } from '../cls-api/service.ts';
import { ledgerEntitlements, postCharges } from '../ledger/service.ts';
import type { ElasticTarget } from './world/types.ts';

const BATCH = 20_000;

/** The staging table the generator writes to: usage_sessions' shape, no indexes, dropped at commit. */
export const STAGING = 'seed_sessions';

interface Staged {
  id: number;
  customer_number: string;
  entitlement_id: number | null;
  start_time: string;
  end_time: string | null;
  last_seen_at: string;
  product: string;
  product_count: number;
}

/** Drops a table's secondary indexes for a bulk load; answers a function that recreates them. */
export async function withoutIndexes(db: Db, table: string): Promise<() => Promise<void>> {
  const indexes = await queryRows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and tablename = ${table} and indexname <> ${`${table}_pkey`}`,
  );
  for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
  return async () => {
    // A partitioned table's index reads "ON ONLY" (the parent alone): made again on the parent, it cascades to
    // every partition.
    for (const index of indexes) await db.execute(sql.raw(index.definition.replace(' ON ONLY ', ' ON ')));
  };
}

/**
 * Turns the generated sessions (in the staging table) into rated usage exactly as the license-server API does:
 * each session is priced by the rating code and its charge drawn down by the ledger in time order. Elastic
 * quantities are set from the priced usage first, so each entitlement ends at its planned used percentage
 * (1 = used up, the rest spilling to the next entitlement or overage).
 */
export async function loadSeededUsage(db: Db, targets: readonly ElasticTarget[]): Promise<void> {
  const { rates, newest } = await rateTables(db);
  const fractions = new Map(targets.map((t) => [t.entitlementId, t.usedFraction]));
  const restoreSessions = await withoutIndexes(db, 'usage_sessions');
  const restoreLedger = await withoutIndexes(db, 'elastic_ledger');
  const staged = await queryRows<Staged>(
    db,
    sql`select id::int as id, customer_number, entitlement_id::int as entitlement_id, start_time, end_time, last_seen_at, product, product_count
      from ${sql.raw(STAGING)} order by customer_number, coalesce(end_time, last_seen_at), id`,
  );
  const byAccount = new Map<string, Staged[]>();
  for (const r of staged) {
    const list = byAccount.get(r.customer_number) ?? [];
    list.push(r);
    byAccount.set(r.customer_number, list);
  }
  for (const [cn, rows] of byAccount) {
    const entitlements = await ledgerEntitlements(db, cn);
    const planned = new Map<number, number>();
    const priced: { id: number; hours: number; rate: number; version: string; cents: number }[] = [];
    const charges = rows.map((r) => {
      const start = new Date(r.start_time);
      const version = rateTableFor(entitlements, formatDate(start), newest);
      const rate = rates.get(version)?.get(r.product) ?? 0;
      const hours = sessionHours(
        start.getTime(),
        r.end_time === null ? null : Date.parse(r.end_time),
        Date.parse(r.last_seen_at),
      );
      const cents = chargeCents(rate, Number(r.product_count), hours);
      priced.push({ id: r.id, hours, rate, version, cents });
      if (r.entitlement_id !== null)
        planned.set(r.entitlement_id, (planned.get(r.entitlement_id) ?? 0) + cents);
      return { product: r.product, cents, at: new Date(r.end_time ?? r.last_seen_at) };
    });
    const quantities = entitlements.flatMap((e) => {
      const fraction = fractions.get(e.id);
      if (fraction === undefined) return [];
      const used = (planned.get(e.id) ?? 0) / 100;
      const quantity =
        fraction >= 1
          ? Math.max(Math.floor(used), 0)
          : Math.max(1000, Math.ceil(used / fraction / 100) * 100);
      e.quantityCents = quantity * 100;
      return [{ id: e.id, quantity }];
    });
    if (quantities.length)
      await db.execute(sql`update entitlements e set quantity = t.quantity
        from json_to_recordset(${jsonRows(quantities)}) as t(id bigint, quantity bigint) where e.id = t.id`);
    const posted = await postCharges(db, cn, entitlements, charges);
    // The transactions' ActivationID: the entitlement that paid first (none when all of it was overage).
    const final = priced.map((p, i) => ({ ...p, entitlement: posted[i].entitlementId }));
    for (let i = 0; i < final.length; i += BATCH)
      await db.execute(sql`insert into usage_sessions (id, customer_number, entitlement_id, session_id, start_time,
          end_time, product, product_version, product_count, hours, charge, currency, username, host, project,
          session_status, referer_ip, cloud_job_id, server_id, rate_table_version, rate, charged_cents, last_seen_at)
        select s.id, s.customer_number, t.entitlement, s.session_id, s.start_time, s.end_time, s.product,
          s.product_version, s.product_count, t.hours, t.cents / 100.0, s.currency, s.username, s.host, s.project,
          s.session_status, s.referer_ip, s.cloud_job_id, s.server_id, t.version, t.rate, t.cents, s.last_seen_at
        from json_to_recordset(${jsonRows(final.slice(i, i + BATCH))}) as t(id bigint, hours float8, rate float8,
          version text, cents bigint, entitlement bigint)
          join ${sql.raw(STAGING)} s on s.id = t.id`);
  }
  await db.execute(sql.raw(`drop table ${STAGING}`));
  await restoreSessions();
  await restoreLedger();
}
