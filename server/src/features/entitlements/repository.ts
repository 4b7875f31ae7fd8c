import { leaseColumnKinds } from '@lp/contract/leases/schemas';
import type { Drawable } from '@lp/domain/elastic-rating';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import type { StatementEntitlement } from '@lp/domain/statement';
import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { type Db, jsonRows, queryRows } from '../../db/database.ts';
import { entitlements, products } from '../../db/schema.ts';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

/** The account's elastic entitlements with their product name; used_cents is what the ledger has drawn. */
export async function listElasticEntitlements(db: Db, customerNumber: string) {
  return db
    .select({
      activationId: entitlements.activationId,
      licenseModel: entitlements.licenseModel,
      state: entitlements.state,
      startDate: entitlements.startDate,
      endDate: entitlements.endDate,
      currency: entitlements.currency,
      quantity: entitlements.quantity,
      usedCents: entitlements.usedCents,
      poNumber: entitlements.poNumber,
      rateTableVersion: entitlements.rateTableVersion,
      productName: entitlements.productName,
      catalogueName: products.name,
      partNumber: entitlements.partNumber,
    })
    .from(entitlements)
    .leftJoin(products, eq(products.partNumber, entitlements.partNumber))
    .where(and(eq(entitlements.customerNumber, customerNumber), eq(entitlements.kind, 'ELASTIC')))
    .orderBy(asc(entitlements.id));
}

/** A day column as UTC midnight, so the engine's day methods and its 'YYYY-MM-DD' text form apply. */
const day = (column: SQL) => sql`((${column})::date::timestamp at time zone 'UTC')`;

/**
 * Leases and perpetuals (spec 002 §3 "Lease/perpetual server record") as the query engine sees them. The FSA
 * manual drawdown product never appears (spec 002 §4).
 */
export const leasesResource: Resource = {
  name: 'leases',
  from: sql`entitlements e left join products p on p.part_number = e.part_number`,
  columns: typedColumns(leaseColumnKinds, {
    ActivationId: { expr: sql`e.activation_id` },
    ProductName: { expr: sql`coalesce(e.product_name, p.name, e.part_number, '')` },
    PartNumber: { expr: sql`coalesce(e.part_number, '')` },
    LineItemQuantity: { expr: sql`e.quantity` },
    StartDate: { expr: day(sql`e.start_date`) },
    EndDate: { expr: day(sql`e.end_date`), nullable: true },
    LicenseModel: { expr: sql`e.license_model` },
    VersionDate: { expr: day(sql`e.version_date`), nullable: true },
    IsActivationPermanent: { expr: sql`(case when e.end_date is null then 'true' else 'false' end)` },
    Type: { expr: sql`(case when e.is_evaluation then 'Evaluation' else '' end)` },
    EntitlementName: { expr: sql`e.activation_id` },
    EntitlementState: { expr: sql`e.state` },
    meta_accountId: { expr: sql`e.customer_number` },
    Activated: { expr: sql`e.activated` },
  }),
  id: { expr: sql`e.id`, type: 'number' },
  // Spec 002 §9: leases by expiration ascending (perpetuals, without an end, last).
  defaultSort: [{ name: 'EndDate', direction: 'asc' }],
  maxLimit: 1000,
  maxDistinct: 500,
};

export type LeaseSplit = 'all' | 'active' | 'inactive';

/**
 * The account's deployed leases, optionally split at `today` ('YYYY-MM-DD', UTC): active = started and
 * (permanent or ending today or later), the rule of @lp/domain/lease-entitlements; the rest is inactive.
 */
export function leasesScope(customerNumber: string, split: LeaseSplit, today: string): SQL {
  const base = sql`e.customer_number = ${customerNumber} and e.kind = 'SSL' and e.state = 'Deployed'
    and e.part_number is distinct from ${FSA_MANUAL_DRAWDOWN_PART}`;
  const active = sql`(e.start_date <= ${today} and (e.end_date is null or e.end_date >= ${today}))`;
  if (split === 'active') return sql`${base} and ${active}`;
  if (split === 'inactive') return sql`${base} and not ${active}`;
  return base;
}

const sslColumns = {
  id: entitlements.id,
  customerNumber: entitlements.customerNumber,
  activationId: entitlements.activationId,
  productName: sql<string>`coalesce(${entitlements.productName}, ${products.name}, ${entitlements.partNumber}, '')`,
  partNumber: sql<string>`coalesce(${entitlements.partNumber}, '')`,
  featureName: products.featureName,
  daemon: products.daemon,
  licenseModel: entitlements.licenseModel,
  quantity: entitlements.quantity,
  activated: entitlements.activated,
  startDate: entitlements.startDate,
  endDate: entitlements.endDate,
  versionDate: entitlements.versionDate,
  isEvaluation: entitlements.isEvaluation,
};

/** The account's deployed leases and perpetuals; the FSA manual drawdown product is never one (spec 002 §4). */
const deployedSsl = (customerNumber: string) =>
  and(
    eq(entitlements.customerNumber, customerNumber),
    eq(entitlements.kind, 'SSL'),
    eq(entitlements.state, 'Deployed'),
    sql`${entitlements.partNumber} is distinct from ${FSA_MANUAL_DRAWDOWN_PART}`,
  );

const selectSsl = (db: Db) =>
  db
    .select(sslColumns)
    .from(entitlements)
    .leftJoin(products, eq(products.partNumber, entitlements.partNumber));

/** The account's deployed leases and perpetuals, by activation id. */
export async function listSslEntitlements(db: Db, customerNumber: string) {
  return selectSsl(db).where(deployedSsl(customerNumber)).orderBy(asc(entitlements.activationId));
}

/** Entitlements by id (any account: the caller scopes), same shape as listSslEntitlements. */
export async function listEntitlementsById(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return selectSsl(db).where(inArray(entitlements.id, ids));
}

/** Seats activated per activation id, for the account's own leases and perpetuals among `activationIds`. */
export async function activatedByActivationId(db: Db, customerNumber: string, activationIds: string[]) {
  if (activationIds.length === 0) return [];
  return db
    .select({ activationId: entitlements.activationId, activated: entitlements.activated })
    .from(entitlements)
    .where(and(deployedSsl(customerNumber), inArray(entitlements.activationId, activationIds)));
}

/** The account's deployed lease or perpetual with this activation id, locked for the rest of the transaction. */
export async function lockSslEntitlement(db: Db, customerNumber: string, activationId: string) {
  const [row] = await selectSsl(db)
    .where(and(deployedSsl(customerNumber), eq(entitlements.activationId, activationId)))
    .for('update', { of: entitlements });
  return row;
}

/**
 * Adds `delta` seats to an entitlement's activated count only while 0 <= activated <= quantity holds afterwards:
 * one conditional update, so parallel batches can never overdraw (the row lock orders them). False when refused.
 */
export async function changeActivated(db: Db, entitlementId: number, delta: number): Promise<boolean> {
  const rows = await db
    .update(entitlements)
    .set({ activated: sql`${entitlements.activated} + ${delta}` })
    .where(
      and(
        eq(entitlements.id, entitlementId),
        sql`${entitlements.activated} + ${delta} between 0 and ${entitlements.quantity}`,
      ),
    )
    .returning({ id: entitlements.id });
  return rows.length > 0;
}

/** Only these entitlements count as elastic (spec 001 §4 classification). */
const isElastic = (customerNumber: string) =>
  and(
    eq(entitlements.customerNumber, customerNumber),
    eq(entitlements.kind, 'ELASTIC'),
    eq(entitlements.licenseModel, 'Elastic-AEU'),
    eq(entitlements.state, 'Deployed'),
  );

const statementColumns = {
  id: entitlements.id,
  activationId: entitlements.activationId,
  poNumber: entitlements.poNumber,
  startDate: entitlements.startDate,
  endDate: entitlements.endDate,
  quantity: entitlements.quantity,
  currency: entitlements.currency,
};

export async function listStatementEntitlements(
  db: Db,
  customerNumber: string,
): Promise<StatementEntitlement[]> {
  return db
    .select(statementColumns)
    .from(entitlements)
    .where(isElastic(customerNumber))
    .orderBy(asc(entitlements.startDate), asc(entitlements.id));
}

export async function findStatementEntitlement(
  db: Db,
  customerNumber: string,
  activationId: string,
): Promise<StatementEntitlement | undefined> {
  const [row] = await db
    .select(statementColumns)
    .from(entitlements)
    .where(and(isElastic(customerNumber), eq(entitlements.activationId, activationId)));
  return row;
}

/** Currency and end day of the account's elastic entitlements that name a currency. */
export async function listElasticCurrencies(db: Db, customerNumber: string) {
  return db
    .select({ currency: entitlements.currency, endDate: entitlements.endDate })
    .from(entitlements)
    .where(
      and(
        eq(entitlements.customerNumber, customerNumber),
        eq(entitlements.kind, 'ELASTIC'),
        isNotNull(entitlements.currency),
      ),
    )
    .orderBy(asc(entitlements.startDate), asc(entitlements.id));
}

export interface LedgerEntitlement extends Drawable {
  activationId: string;
}

/** The account's elastic entitlements with their balances (read under the account lock). */
export async function listLedgerEntitlements(tx: Db, customerNumber: string): Promise<LedgerEntitlement[]> {
  const rows = await queryRows<{
    id: string | number;
    activation_id: string;
    license_model: string;
    state: string;
    start_date: string;
    end_date: string | null;
    quantity: number;
    used_cents: string | number;
    rate_table_version: string | null;
  }>(
    tx,
    sql`select id, activation_id, license_model, state, start_date, end_date, quantity, used_cents, rate_table_version
      from entitlements where customer_number = ${customerNumber} and kind = 'ELASTIC' order by id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    activationId: r.activation_id,
    licenseModel: r.license_model,
    state: r.state,
    startDate: r.start_date,
    endDate: r.end_date,
    quantityCents: Math.round(Number(r.quantity) * 100),
    usedCents: Number(r.used_cents),
    rateTableVersion: r.rate_table_version,
  }));
}

/** Adds drawn cents to entitlements' Used (the ledger's posting, inside its transaction). */
export async function addToUsed(tx: Db, deltas: readonly { id: number; cents: number }[]): Promise<void> {
  if (deltas.length === 0) return;
  await tx.execute(sql`update entitlements e set used_cents = e.used_cents + t.cents
    from json_to_recordset(${jsonRows(deltas)}) as t(id bigint, cents bigint) where e.id = t.id`);
}

/** Per account (or one account): the cents drawn from its elastic entitlements, as the ledger reconciles them. */
export async function usedCentsByAccount(db: Db, customerNumber?: string) {
  return queryRows<{ customer_number: string; used: string | number }>(
    db,
    sql`select customer_number, sum(used_cents) as used from entitlements
      where kind = 'ELASTIC' ${customerNumber ? sql`and customer_number = ${customerNumber}` : sql``} group by 1`,
  );
}

/** Deployed leases, perpetuals' maintenance and evaluations of every account ending from `from` to `to`. */
export const listEndingsBetween = (db: Db, from: string, to: string) =>
  queryRows<{
    customer_number: string;
    activation_id: string;
    product: string;
    type: 'lease-ending' | 'maintenance-ending' | 'evaluation-ending';
    end_day: string;
  }>(
    db,
    sql`select e.customer_number, e.activation_id, coalesce(e.product_name, p.name, e.part_number, e.activation_id) as product,
        case when e.is_evaluation then 'evaluation-ending' when e.end_date is null then 'maintenance-ending' else 'lease-ending' end as type,
        coalesce(e.end_date, e.version_date) as end_day
      from entitlements e left join products p on p.part_number = e.part_number
      where e.kind = 'SSL' and e.state = 'Deployed'
        and coalesce(e.end_date, e.version_date) between ${from} and ${to}
      order by e.customer_number, end_day, e.activation_id`,
  );

/** Every account's elastic entitlements whose term has not ended (quantity and used in hundredths of units). */
export const listOpenElasticBudgets = (db: Db, today: string) =>
  queryRows<{
    id: string | number;
    customer_number: string;
    activation_id: string;
    product: string;
    quantity: string | number;
    used_cents: string | number;
    end_date: string | null;
  }>(
    db,
    sql`select e.id, e.customer_number, e.activation_id, coalesce(e.product_name, p.name, e.activation_id) as product,
        e.quantity, e.used_cents, e.end_date
      from entitlements e left join products p on p.part_number = e.part_number
      where e.kind = 'ELASTIC' and e.state = 'Deployed' and (e.end_date is null or e.end_date >= ${today})
      order by e.customer_number, e.id`,
  );
