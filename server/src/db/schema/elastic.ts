import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { entitlements } from './entitlements.ts';
import { licenseServers } from './license-servers.ts';

/**
 * Partitioned by the UTC month of start_time (migration 0018, decision 073), which Drizzle cannot express: the
 * primary key and the session key carry start_time.
 */
export const usageSessions = pgTable(
  'usage_sessions',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    customerNumber: text('customer_number').notNull(),
    entitlementId: bigint('entitlement_id', { mode: 'number' }),
    sessionId: text('session_id').notNull(),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    product: text('product').notNull(),
    productVersion: text('product_version').notNull().default(''),
    productCount: integer('product_count').notNull(),
    hours: doublePrecision('hours').notNull(),
    charge: doublePrecision('charge').notNull(),
    currency: text('currency').notNull(),
    username: text('username').notNull(),
    host: text('host').notNull(),
    project: text('project').notNull().default(''),
    sessionStatus: text('session_status').notNull(),
    refererIp: text('referer_ip').notNull().default(''),
    cloudJobId: text('cloud_job_id'),
    serverId: text('server_id').notNull(),
    /** Rate table version and rate (units per count per hour) the session is priced with, fixed at its start. */
    rateTableVersion: text('rate_table_version').notNull().default(''),
    rate: doublePrecision('rate').notNull().default(0),
    /** What the ledger has drawn for this session so far, in hundredths of a unit. */
    chargedCents: bigint('charged_cents', { mode: 'number' }).notNull().default(0),
    /** Latest event time seen (start, heartbeat or end): active sessions accrue up to it. */
    lastSeenAt: ts('last_seen_at'),
  },
  (t) => [
    primaryKey({ name: 'usage_sessions_pkey', columns: [t.id, t.startTime] }),
    // Migration 0002 recreates this index with INCLUDE (username, product), which Drizzle cannot express.
    index('usage_sessions_customer_start_idx').on(t.customerNumber, t.startTime, t.id),
    uniqueIndex('usage_sessions_server_session_idx').on(t.serverId, t.sessionId, t.startTime),
    // Migration 0022: start_time before id, for the loose index scan of User's distinct values (decision 077).
    index('usage_sessions_customer_user_idx').on(t.customerNumber, t.username, t.startTime, t.id),
  ],
);

/**
 * The sessions of months past USAGE_RETENTION_MONTHS, summed per account, UTC day of the start, license server and
 * product before their partition was dropped; kept for ever (migration 0019, decision 073).
 */
export const usageDailyRollups = pgTable(
  'usage_daily_rollups',
  {
    customerNumber: text('customer_number').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    serverId: text('server_id').notNull(),
    product: text('product').notNull(),
    sessions: integer('sessions').notNull(),
    hours: doublePrecision('hours').notNull(),
    chargedCents: bigint('charged_cents', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'usage_daily_rollups_pk', columns: [t.customerNumber, t.day, t.serverId, t.product] }),
  ],
);

/**
 * Usage sessions per account, license server, UTC day of their start and product, as they are now (migrations 0021
 * and 0022, decisions 076 and 077): kept by a trigger on every insert into usage_sessions, cleared for the days
 * retention drops.
 */
export const usageDailyCounts = pgTable(
  'usage_daily_counts',
  {
    customerNumber: text('customer_number').notNull(),
    serverId: text('server_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    product: text('product').notNull(),
    sessions: bigint('sessions', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'usage_daily_counts_pk', columns: [t.customerNumber, t.day, t.serverId, t.product] }),
  ],
);

/** Elastic IP allow-list rules per account and elastic license server (spec 000 §2.10). */
export const ipRules = pgTable(
  'ip_rules',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    elasticServerId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    position: integer('position').notNull(),
    ruleName: text('rule_name').notNull(),
    ipAddress: text('ip_address').notNull(),
  },
  (t) => [index('ip_rules_customer_cls_idx').on(t.customerNumber, t.elasticServerId, t.position)],
);

/** Versioned elastic rate tables: units per product count per hour. */
export const rateTables = pgTable(
  'rate_tables',
  {
    version: text('version').notNull(),
    product: text('product').notNull(),
    rate: doublePrecision('rate').notNull(),
  },
  (t) => [primaryKey({ columns: [t.version, t.product] })],
);

/**
 * The elastic ledger: usage drawn from an entitlement (kind usage), what no entitlement covered (kind overage,
 * entitlement_id null), each summed per posting, product and UTC day (decision 078), and staff adjustments (kind
 * adjustment; negative = credit). Amounts are hundredths of a unit so sums are exact.
 */
export const elasticLedger = pgTable(
  'elastic_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    entitlementId: bigint('entitlement_id', { mode: 'number' }).references(() => entitlements.id, {
      onDelete: 'cascade',
    }),
    /** The session a usage row was posted for, on rows written before decision 078 (null since: rows per day). */
    sessionRowId: bigint('session_row_id', { mode: 'number' }),
    kind: text('kind').notNull(),
    product: text('product').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** When the usage happened (statement periods and rollups use this). */
    at: ts('at').notNull(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    createdBy: text('created_by'),
    note: text('note'),
  },
  (t) => [
    index('elastic_ledger_customer_at_idx').on(t.customerNumber, t.at),
    index('elastic_ledger_entitlement_idx').on(t.entitlementId),
  ],
);

/** Daily rollups of the ledger per account, entitlement (0 = not covered) and product; written with each ledger row. */
export const elasticDailyUsage = pgTable(
  'elastic_daily_usage',
  {
    customerNumber: text('customer_number').notNull(),
    day: text('day').notNull(),
    entitlementId: bigint('entitlement_id', { mode: 'number' }).notNull(),
    product: text('product').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerNumber, t.entitlementId, t.day, t.product] })],
);

/** Credentials of elastic license servers for the /cls/v1 API (hashed bearer tokens, revocable). */
export const clsCredentials = pgTable(
  'cls_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    elasticServerId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    createdBy: text('created_by').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('cls_credentials_server_idx').on(t.customerNumber, t.elasticServerId)],
);

/** PIN (encrypted at rest) and allowed usernames of an elastic license server (spec 001 §2.4). */
export const elasticServerSettings = pgTable(
  'elastic_server_settings',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    elasticServerId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    pinCipher: text('pin_cipher'),
    users: text('users').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.customerNumber, t.elasticServerId] })],
);
