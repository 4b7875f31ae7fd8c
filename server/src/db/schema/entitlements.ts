import { entitlementKinds } from '@lp/domain/entitlements';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  pgTable,
  primaryKey,
  text,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';

export const products = pgTable('products', {
  partNumber: text('part_number').primaryKey(),
  name: text('name').notNull(),
  family: text('family').notNull(),
  daemon: text('daemon').notNull(),
  featureName: text('feature_name').notNull(),
});

export const entitlements = pgTable(
  'entitlements',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    activationId: text('activation_id').notNull().unique(),
    /** SSL (lease/perpetual), ELASTIC or FSA */
    kind: text('kind', { enum: entitlementKinds }).notNull(),
    licenseModel: text('license_model').notNull(),
    /** shared, named or server (plain floating) */
    licenseType: text('license_type').notNull().default('server'),
    state: text('state').notNull().default('Deployed'),
    partNumber: text('part_number').references(() => products.partNumber),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
    /** Seats activated on hosts (sum of live fulfillments), kept in step in the same transaction. */
    activated: bigint('activated', { mode: 'number' }).notNull().default(0),
    startDate: text('start_date').notNull(),
    /** null = permanent */
    endDate: text('end_date'),
    isEvaluation: boolean('is_evaluation').notNull().default(false),
    poNumber: text('po_number'),
    rateTableVersion: text('rate_table_version'),
    currency: text('currency'),
    /** FSA contract: budget; FSA order line: its cost; in cents of `currency` */
    priceCents: bigint('price_cents', { mode: 'number' }),
    /** Perpetuals: end of maintenance ("Maintenance ends on {date}"); 'YYYY-MM-DD' */
    versionDate: text('version_date'),
    /** Shown instead of the catalogue name (FSA manual-entry lines) */
    productName: text('product_name'),
    /** FSA order lines: the FSA contract (an entitlement of kind FSA) the line was ordered against */
    fsaContractId: bigint('fsa_contract_id', { mode: 'number' }).references(
      (): AnyPgColumn => entitlements.id,
      {
        onDelete: 'set null',
      },
    ),
    orderedAt: ts('ordered_at'),
    orderedBy: text('ordered_by'),
    /** FSA contract: the business-operations e-mail list, comma-separated (spec 002 §3 ansysbusopsemails) */
    busopsEmails: text('busops_emails'),
    /** Elastic: units drawn by the ledger, in hundredths (kept in step with elastic_ledger in one transaction). */
    usedCents: bigint('used_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    index('entitlements_customer_kind_idx').on(t.customerNumber, t.kind),
    index('entitlements_fsa_contract_idx').on(t.fsaContractId),
    check('entitlements_activated_check', sql`${t.activated} >= 0 and ${t.activated} <= ${t.quantity}`),
  ],
);

/** FSA price tables: what a contract may order, with a price per billing period (null = not offered). */
export const fsaPrices = pgTable(
  'fsa_prices',
  {
    contractId: bigint('contract_id', { mode: 'number' })
      .notNull()
      .references(() => entitlements.id, { onDelete: 'cascade' }),
    partNumber: text('part_number')
      .notNull()
      .references(() => products.partNumber),
    price7DaysCents: bigint('price_7_days_cents', { mode: 'number' }),
    price30DaysCents: bigint('price_30_days_cents', { mode: 'number' }),
    price60DaysCents: bigint('price_60_days_cents', { mode: 'number' }),
    price90DaysCents: bigint('price_90_days_cents', { mode: 'number' }),
    price180DaysCents: bigint('price_180_days_cents', { mode: 'number' }),
    price1YearCents: bigint('price_1_year_cents', { mode: 'number' }),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.partNumber] })],
);
