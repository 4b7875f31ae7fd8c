import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import type { LeaseRecord } from '@lp/contract/leases/schemas';
import type { FilterRule } from '@lp/contract/query/schemas';
import { formatDate } from '@lp/domain/dates';
import { accountCurrency } from '@lp/domain/elastic-entitlements';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import type { FsaPriceList } from '@lp/domain/fsa-pricing';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database.ts';
import { entitlements, products } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { type PageOptions, queryCount, queryDistinct, queryPage } from '../../platform/query/engine.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import {
  activatedByActivationId,
  addToUsed,
  changeActivated,
  findStatementEntitlement,
  type LeaseSplit,
  type LedgerEntitlement,
  leasesResource,
  leasesScope,
  listElasticCurrencies,
  listElasticEntitlements,
  listEndingsBetween,
  listEntitlementsById,
  listLedgerEntitlements,
  listOpenElasticBudgets,
  listSslEntitlements,
  listStatementEntitlements,
  lockSslEntitlement,
  usedCentsByAccount,
} from './repository.ts';

/**
 * Spec 001 §3: the account's elastic entitlement records. Every record of kind ELASTIC is returned
 * whatever its model and state; which of them count is the classification's business (@lp/domain).
 */
export async function getEntitlements(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<ElasticEntitlementRecord[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const rows = await listElasticEntitlements(ctx.db, customerNumber);
  return rows.map((r) => ({
    ActivationId: r.activationId,
    LicenseModel: r.licenseModel,
    EntitlementState: r.state,
    StartDate: r.startDate,
    EndDate: r.endDate,
    Currency: r.currency ?? '',
    // The ledger keeps hundredths of a unit so that its sums are exact.
    Used: r.usedCents / 100,
    LineItemQuantity: r.quantity,
    PONumber: r.poNumber ?? '',
    CustomAttributes: {
      Product: r.productName ?? r.catalogueName ?? r.partNumber ?? '',
      // One order line of elastic units: its count is the number of units bought.
      Count: r.quantity,
      RateTableVersion: r.rateTableVersion ?? '',
    },
  }));
}

const toLeaseRecord = (r: Record<string, unknown>): LeaseRecord => ({
  ActivationId: String(r.ActivationId),
  ProductName: String(r.ProductName),
  PartNumber: String(r.PartNumber),
  LineItemQuantity: Number(r.LineItemQuantity),
  StartDate: formatDate(r.StartDate as Date),
  EndDate: r.EndDate ? formatDate(r.EndDate as Date) : null,
  LicenseModel: String(r.LicenseModel),
  VersionDate: r.VersionDate ? formatDate(r.VersionDate as Date) : null,
  IsActivationPermanent: r.IsActivationPermanent === 'true' ? 'true' : 'false',
  Type: String(r.Type),
  EntitlementName: String(r.EntitlementName),
  EntitlementState: String(r.EntitlementState),
  meta_accountId: String(r.meta_accountId),
  Activated: Number(r.Activated),
});

/** Leases need the ssl gate: an allowed customer type and self-serve licensing (spec 002 §6); export-denied → 403. */
async function leasesScopeFor(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  split: LeaseSplit,
) {
  await authorizeAccount(ctx, principal, customerNumber, 'ssl');
  return leasesScope(customerNumber, split, formatDate(new Date()));
}

/** One page of the account's leases and perpetuals (all, active or inactive). */
export async function listLeases(
  ctx: AppContext,
  principal: Principal,
  split: LeaseSplit,
  {
    customerNumber,
    filter,
    sorting,
    offset,
    token,
    limit,
  }: { customerNumber: string } & PageOptions['request'],
) {
  const scope = await leasesScopeFor(ctx, principal, customerNumber, split);
  const page = await queryPage(ctx.db, leasesResource, {
    scope,
    request: { filter, sorting, offset, token, limit },
    secret: ctx.secret,
  });
  return { rows: page.rows.map(toLeaseRecord), token: page.token };
}

export async function countLeases(
  ctx: AppContext,
  principal: Principal,
  split: LeaseSplit,
  customerNumber: string,
  filter?: FilterRule,
) {
  const scope = await leasesScopeFor(ctx, principal, customerNumber, split);
  return queryCount(ctx.db, leasesResource, { scope, filter });
}

export async function distinctLeaseValues(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; filter?: FilterRule; key: string; limit?: number },
) {
  const scope = await leasesScopeFor(ctx, principal, request.customerNumber, 'all');
  const values = await queryDistinct(ctx.db, leasesResource, {
    scope,
    filter: request.filter,
    key: request.key,
    limit: request.limit,
  });
  return values.map((v) => (v instanceof Date ? formatDate(v) : v));
}

/** Spec 002 §7 /api/fulfillments/count: activated seats per activation id of the account (others left out). */
export async function fulfillmentCounts(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  activationIds: string[],
): Promise<Record<string, number>> {
  await authorizeAccount(ctx, principal, customerNumber, 'ssl');
  const rows = await activatedByActivationId(ctx.db, customerNumber, [...new Set(activationIds)]);
  return Object.fromEntries(rows.map((r) => [r.activationId, r.activated]));
}

/**
 * For other features (activations, license files), without an authorization check (decision 026: they call this
 * service, never the repository; the entitlements feature is the only reader of the table).
 */
export const sslEntitlements = {
  ofAccount: listSslEntitlements,
  byIds: listEntitlementsById,
  lock: lockSslEntitlement,
  changeActivated,
};
export type SslEntitlement = Awaited<ReturnType<typeof listSslEntitlements>>[number];

/**
 * Elastic entitlements as the statements see them (decision 026: other features read entitlements through
 * these, never the table). No authorization: the caller has passed the account gate or acts for a server.
 */
export const statementEntitlements = {
  ofAccount: (db: Db, customerNumber: string) => listStatementEntitlements(db, customerNumber),
  byActivationId: (db: Db, customerNumber: string, activationId: string) =>
    findStatementEntitlement(db, customerNumber, activationId),
};

/** The currency uncovered usage of the account is priced in (the one rule the statement shows too). */
export async function elasticCurrencyOf(db: Db, customerNumber: string): Promise<string> {
  return accountCurrency(await listElasticCurrencies(db, customerNumber));
}

export type { LedgerEntitlement } from './repository.ts';

/**
 * The elastic ledger's reads and writes of entitlements (the ledger owns the rules and the account lock; the
 * table is this feature's). Run inside the ledger's transaction.
 */
export const ledgerEntitlementStore = {
  list: (tx: Db, customerNumber: string): Promise<LedgerEntitlement[]> =>
    listLedgerEntitlements(tx, customerNumber),
  addUsed: (tx: Db, deltas: readonly { id: number; cents: number }[]) => addToUsed(tx, deltas),
  usedByAccount: async (db: Db, customerNumber?: string) =>
    new Map((await usedCentsByAccount(db, customerNumber)).map((r) => [r.customer_number, Number(r.used)])),
};

/** An FSA contract with the sum and the last time of its order lines (the FSA ledger's inputs). */
export interface FsaContractRow {
  id: number;
  customerNumber: string;
  activationId: string;
  poNumber: string | null;
  startDate: string;
  endDate: string | null;
  currency: string | null;
  /** Comma-separated */
  busopsEmails: string | null;
  budgetCents: number;
  linesCents: number;
  lineCount: number;
  /** 'YYYY-MM-DD HH:mm:ss' UTC */
  lastOrderedAt: string | null;
}

/** A contract as an order reads it under the contract's lock: its terms and the sum of its order lines. */
export type LockedFsaContractRow = Omit<FsaContractRow, 'lineCount' | 'lastOrderedAt'>;
export interface LockedFsaContract {
  contract: LockedFsaContractRow;
  prices: FsaPriceRow[];
}

const fsaLine = alias(entitlements, 'fsa_line');

/** One product of a contract's price table (`fsa_prices`), its prices in cents (null = not offered). */
export interface FsaPriceRow extends FsaPriceList {
  partNumber: string;
  name: string;
}

/** The contract's price table as one json value of the statement that names the contract (by name, then part). */
const priceTableOf = (contractId: SQL) =>
  sql<FsaPriceRow[]>`(select coalesce(json_agg(json_build_object('partNumber', p.part_number, 'name', pr.name,
      'price7Days', p.price_7_days_cents, 'price30Days', p.price_30_days_cents, 'price60Days', p.price_60_days_cents,
      'price90Days', p.price_90_days_cents, 'price180Days', p.price_180_days_cents, 'price1Year', p.price_1_year_cents)
      order by pr.name, p.part_number), '[]'::json)
    from fsa_prices p join products pr on pr.part_number = p.part_number where p.contract_id = ${contractId})`;

/** A contract's own terms, as the contract list and the order's lock read them. */
const contractTerms = {
  id: entitlements.id,
  customerNumber: entitlements.customerNumber,
  activationId: entitlements.activationId,
  poNumber: entitlements.poNumber,
  startDate: entitlements.startDate,
  endDate: entitlements.endDate,
  currency: entitlements.currency,
  busopsEmails: entitlements.busopsEmails,
  budgetCents: sql<number>`coalesce(${entitlements.priceCents}, 0)`.mapWith(Number),
};

function selectFsaContracts(db: Db) {
  return db
    .select({
      ...contractTerms,
      linesCents: sql<number>`coalesce(sum(${fsaLine.priceCents}), 0)`.mapWith(Number),
      lineCount: sql<number>`count(${fsaLine.id})`.mapWith(Number),
      lastOrderedAt: sql<
        string | null
      >`to_char(max(${fsaLine.orderedAt}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`,
    })
    .from(entitlements)
    .leftJoin(fsaLine, eq(fsaLine.fsaContractId, entitlements.id))
    .groupBy(entitlements.id);
}

/**
 * The FSA feature's reads and writes of entitlements (decision 036: the FSA feature owns the ledger rules and
 * the contract lock; the table is this feature's). No authorization: the caller has passed the account gate.
 */
export interface ContractDaySpend {
  contractId: number;
  day: string;
  cents: number;
}

/**
 * The order lines' costs of the given contracts summed per UTC order day (decision 037), in one grouped query,
 * ascending by day. Every line counts, as in the balance; a line without an order time counts on its start day.
 */
async function fsaDailySpend(db: Db, contractIds: number[]): Promise<ContractDaySpend[]> {
  if (contractIds.length === 0) return [];
  const day = sql<string>`coalesce(to_char(${entitlements.orderedAt} at time zone 'UTC', 'YYYY-MM-DD'), ${entitlements.startDate})`;
  return db
    .select({
      contractId: sql<number>`${entitlements.fsaContractId}`.mapWith(Number),
      day,
      cents: sql<number>`coalesce(sum(${entitlements.priceCents}), 0)`.mapWith(Number),
    })
    .from(entitlements)
    .where(inArray(entitlements.fsaContractId, contractIds))
    .groupBy(entitlements.fsaContractId, day)
    .orderBy(asc(entitlements.fsaContractId), asc(day));
}

/** One FSA order line as the ledger stores it. */
export interface FsaLineValues {
  customerNumber: string;
  activationId: string;
  partNumber: string;
  productName: string | null;
  quantity: number;
  startDate: string;
  endDate: string;
  poNumber: string | null;
  currency: string | null;
  priceCents: number;
  fsaContractId: number;
  orderedAt: Date;
  orderedBy: string;
}

export const fsaEntitlements = {
  /** The contracts' order-line costs per UTC order day (decision 037). */
  dailySpend: fsaDailySpend,
  /** Every FSA contract of the account (or of every account), with its order lines summed. */
  contracts: (db: Db, customerNumber?: string): Promise<FsaContractRow[]> =>
    selectFsaContracts(db)
      .where(
        and(
          eq(entitlements.kind, 'FSA'),
          customerNumber === undefined ? undefined : eq(entitlements.customerNumber, customerNumber),
        ),
      )
      .orderBy(asc(entitlements.id)),
  /**
   * Locks the account's contract row (every draw on a contract takes this lock first) and reads its price table in
   * the same statement (the prices need no lock: one round trip less for an order); undefined when the account has
   * no such contract.
   */
  lockContract: async (
    tx: Db,
    customerNumber: string,
    activationId: string,
  ): Promise<LockedFsaContract | undefined> => {
    const [row] = await tx
      .select({
        ...contractTerms,
        prices: priceTableOf(sql`${entitlements.id}`),
      })
      .from(entitlements)
      .where(
        and(
          eq(entitlements.customerNumber, customerNumber),
          eq(entitlements.kind, 'FSA'),
          eq(entitlements.activationId, activationId),
        ),
      )
      .for('update');
    if (!row) return undefined;
    // Read after the lock, in a statement of its own (a statement's snapshot is taken before it waits for a lock):
    // the sum then includes every line committed by the lock's previous holder.
    const [lines] = await tx
      .select({ cents: sql<number>`coalesce(sum(${entitlements.priceCents}), 0)`.mapWith(Number) })
      .from(entitlements)
      .where(eq(entitlements.fsaContractId, row.id));
    const { prices, ...contract } = row;
    return { contract: { ...contract, linesCents: lines?.cents ?? 0 }, prices };
  },
  /** The order lines of the given contracts, with the catalogue name of their product. */
  lines: (db: Db, contractIds: number[]) =>
    db
      .select({
        activationId: entitlements.activationId,
        partNumber: entitlements.partNumber,
        productName: entitlements.productName,
        catalogueName: products.name,
        quantity: entitlements.quantity,
        startDate: entitlements.startDate,
        endDate: entitlements.endDate,
        priceCents: entitlements.priceCents,
        currency: entitlements.currency,
        fsaContractId: entitlements.fsaContractId,
        orderedAt: entitlements.orderedAt,
        orderedBy: entitlements.orderedBy,
      })
      .from(entitlements)
      .leftJoin(products, eq(products.partNumber, entitlements.partNumber))
      .where(contractIds.length ? inArray(entitlements.fsaContractId, contractIds) : sql`false`),
  /**
   * Manual-entry lines are ordered as the vendor's manual drawdown product (FSA0030216): an install whose catalogue
   * lacks it (no demo data) gets the row in the order's transaction, so the line never fails on the foreign key.
   */
  ensureManualDrawdownProduct: async (tx: Db, daemon: string) => {
    await tx
      .insert(products)
      .values({
        partNumber: FSA_MANUAL_DRAWDOWN_PART,
        name: 'Flexible Spending Account Manual Drawdown',
        family: 'Platform',
        daemon,
        featureName: 'fsa_manual',
      })
      .onConflictDoNothing();
  },
  /**
   * An order's drawn lines, deployed lease entitlements of the contract's account, in one insert with a parameter a
   * column (`unnest` of one array per column): neither the statement nor its parameters grow with the lines, where a
   * multi-row VALUES had 17 a line for the driver to build and the database to parse (issue 23).
   */
  addLines: async (tx: Db, lines: FsaLineValues[]) => {
    if (lines.length === 0) return;
    const column = <T>(value: (line: FsaLineValues) => T) => sql.param(lines.map(value));
    await tx.execute(sql`insert into entitlements (customer_number, activation_id, kind, license_model, license_type,
        state, part_number, product_name, quantity, start_date, end_date, po_number, currency, price_cents,
        fsa_contract_id, ordered_at, ordered_by)
      select l.customer_number, l.activation_id, 'SSL', 'Lease', 'server', 'Deployed', l.part_number, l.product_name,
        l.quantity, l.start_date, l.end_date, l.po_number, l.currency, l.price_cents, l.fsa_contract_id, l.ordered_at,
        l.ordered_by
      from unnest(${column((l) => l.customerNumber)}::text[], ${column((l) => l.activationId)}::text[],
        ${column((l) => l.partNumber)}::text[], ${column((l) => l.productName)}::text[],
        ${column((l) => l.quantity)}::bigint[], ${column((l) => l.startDate)}::text[], ${column((l) => l.endDate)}::text[],
        ${column((l) => l.poNumber)}::text[], ${column((l) => l.currency)}::text[], ${column((l) => l.priceCents)}::bigint[],
        ${column((l) => l.fsaContractId)}::bigint[], ${column((l) => l.orderedAt.toISOString())}::timestamptz[],
        ${column((l) => l.orderedBy)}::text[])
        as l(customer_number, activation_id, part_number, product_name, quantity, start_date, end_date, po_number,
          currency, price_cents, fsa_contract_id, ordered_at, ordered_by)`);
  },
};

export const noticeFacts = {
  endings: listEndingsBetween,
  elasticBudgets: listOpenElasticBudgets,
};
