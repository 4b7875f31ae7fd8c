import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { products } from './entitlements.ts';

/**
 * Web licensing (issue 24, decision 071). A pool is one product of one account, computed from its entitlement
 * lines (Named User and Shared Web models); this table keeps the lease policy of a pool whose defaults were
 * changed. A pool without a row has the column defaults.
 */
export const webPoolPolicies = pgTable(
  'web_pool_policies',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number')
      .notNull()
      .references(() => products.partNumber),
    /** A lease without a heartbeat for this long ends heartbeat-lost. */
    heartbeatWindowSeconds: integer('heartbeat_window_seconds').notNull().default(300),
    /** A lease with no activity reported for this long ends idle-timeout. */
    idleTimeoutSeconds: integer('idle_timeout_seconds').notNull().default(900),
    sessionsPerUser: integer('sessions_per_user').notNull().default(1),
    updatedAt: ts('updated_at'),
  },
  (t) => [
    primaryKey({ columns: [t.customerNumber, t.partNumber] }),
    check('web_pool_policies_heartbeat_check', sql`${t.heartbeatWindowSeconds} between 60 and 3600`),
    check('web_pool_policies_idle_check', sql`${t.idleTimeoutSeconds} between 60 and 86400`),
    check('web_pool_policies_sessions_check', sql`${t.sessionsPerUser} between 1 and 10`),
  ],
);

/**
 * The account's directory of people who may hold web seats (decision 071). E-mail is stored lower-cased and is
 * unique per account; a removed person keeps the row so their leases and audit entries still name them, and is
 * brought back (not duplicated) when invited or provisioned again.
 */
export const webUsers = pgTable(
  'web_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    source: text('source').notNull(),
    state: text('state').notNull(),
    /** A directory administrator manages seats; the last active one cannot be removed or suspended. */
    role: text('role').notNull().default('member'),
    scimExternalId: text('scim_external_id'),
    lastSeenAt: ts('last_seen_at'),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
    /** Bumped by every change; SCIM's ETag (W/"<version>"). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    unique('web_users_account_email_key').on(t.customerNumber, t.email),
    check('web_users_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('web_users_source_check', sql`${t.source} in ('manual', 'csv', 'sign-in', 'scim')`),
    check('web_users_state_check', sql`${t.state} in ('invited', 'active', 'suspended', 'removed')`),
    check('web_users_role_check', sql`${t.role} in ('member', 'administrator')`),
  ],
);

/** Groups of the directory: made in the portal or pushed by the identity provider. Names are unique per account. */
export const webGroups = pgTable(
  'web_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    source: text('source').notNull(),
    scimExternalId: text('scim_external_id'),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    unique('web_groups_account_name_key').on(t.customerNumber, t.name),
    check('web_groups_source_check', sql`${t.source} in ('manual', 'scim')`),
  ],
);

export const webGroupMembers = pgTable(
  'web_group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => webGroups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => webUsers.id, { onDelete: 'cascade' }),
    addedAt: ts('added_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('web_group_members_user_idx').on(t.userId)],
);

/**
 * A named seat held by one person in one pool: one row however the person is reached. `groupId` is the group that
 * gave it (null: assigned directly); a direct assignment outlives the group's.
 */
export const webNamedSeats = pgTable(
  'web_named_seats',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number')
      .notNull()
      .references(() => products.partNumber),
    userId: uuid('user_id')
      .notNull()
      .references(() => webUsers.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => webGroups.id, { onDelete: 'set null' }),
    assignedAt: ts('assigned_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.customerNumber, t.partNumber, t.userId] }),
    index('web_named_seats_user_idx').on(t.userId),
  ],
);

/** Named seats taken from one person and given to another: the transfer rule counts these over 30 days. */
export const webSeatTransfers = pgTable(
  'web_seat_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number').notNull(),
    fromUserId: uuid('from_user_id').references(() => webUsers.id, { onDelete: 'set null' }),
    toUserId: uuid('to_user_id').references(() => webUsers.id, { onDelete: 'set null' }),
    at: ts('at').notNull().default(sql`now()`),
  },
  (t) => [index('web_seat_transfers_pool_at_idx').on(t.customerNumber, t.partNumber, t.at)],
);

/** A group's terms on a shared pool: seats kept free for its members and the most they may hold at once. */
export const webGroupTerms = pgTable(
  'web_group_terms',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number')
      .notNull()
      .references(() => products.partNumber),
    groupId: uuid('group_id')
      .notNull()
      .references(() => webGroups.id, { onDelete: 'cascade' }),
    guaranteed: integer('guaranteed').notNull().default(0),
    /** null: no cap beyond the pool's seats */
    cap: integer('cap'),
  },
  (t) => [
    primaryKey({ columns: [t.customerNumber, t.partNumber, t.groupId] }),
    check('web_group_terms_guaranteed_check', sql`${t.guaranteed} >= 0`),
    check(
      'web_group_terms_cap_check',
      sql`${t.cap} is null or (${t.cap} >= 1 and ${t.cap} >= ${t.guaranteed})`,
    ),
  ],
);

/** A named pool given to a group: every member holds a seat of it (rows in web_named_seats with the group). */
export const webGroupPools = pgTable(
  'web_group_pools',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number')
      .notNull()
      .references(() => products.partNumber),
    groupId: uuid('group_id')
      .notNull()
      .references(() => webGroups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.customerNumber, t.partNumber, t.groupId] })],
);

/**
 * Per-product credentials of the web-license API (/web/v1): a vendor product (a browser app, a cloud solver)
 * checks out seats of the part numbers it is issued for, in any account. Only the token's hash is stored.
 */
export const webCredentials = pgTable('web_credentials', {
  id: uuid('id').primaryKey().defaultRandom(),
  product: text('product').notNull(),
  partNumbers: text('part_numbers').array().notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: ts('created_at').notNull().default(sql`now()`),
  createdBy: text('created_by').notNull(),
  revokedAt: ts('revoked_at'),
});

/**
 * Session leases of web seats, and denials: one row per checkout, so /web-transactions and the reports read one
 * table. `outcome` is 'open' while the lease lives; a denial has outcome 'denied' and its reason. Partitioned by
 * the UTC month of started_at (migration 0020, decision 073), which Drizzle cannot express.
 */
export const webLeases = pgTable(
  'web_leases',
  {
    id: bigint('id', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    /**
     * The lease's handle in the product API (not guessable, unlike the row id): a random UUID, unique with
     * started_at (the partition key) and looked up in each month's index.
     */
    leaseId: uuid('lease_id').notNull().defaultRandom(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number').notNull(),
    poolKind: text('pool_kind'),
    userId: uuid('user_id').references(() => webUsers.id, { onDelete: 'set null' }),
    /** As the product sent it: a denial for an unknown person still says who asked. */
    email: text('email').notNull(),
    /** The group whose guarantee the seat came from; null for named seats and the pool's free seats. */
    groupId: uuid('group_id').references(() => webGroups.id, { onDelete: 'set null' }),
    credentialId: uuid('credential_id').references(() => webCredentials.id, { onDelete: 'set null' }),
    product: text('product').notNull(),
    client: text('client').notNull().default(''),
    startedAt: ts('started_at').notNull().default(sql`now()`),
    lastHeartbeatAt: ts('last_heartbeat_at'),
    lastActivityAt: ts('last_activity_at'),
    endedAt: ts('ended_at'),
    outcome: text('outcome').notNull(),
    denialReason: text('denial_reason'),
  },
  (t) => [
    primaryKey({ name: 'web_leases_pkey', columns: [t.id, t.startedAt] }),
    unique('web_leases_lease_id_unique').on(t.leaseId, t.startedAt),
    check(
      'web_leases_outcome_check',
      sql`${t.outcome} in ('open', 'released', 'idle-timeout', 'heartbeat-lost', 'admin-released', 'user-removed', 'denied')`,
    ),
    check(
      'web_leases_denial_check',
      sql`(${t.outcome} = 'denied') = (${t.denialReason} is not null) and (${t.denialReason} is null or ${t.denialReason} in ('no-seat-assigned', 'pool-full', 'group-cap', 'suspended-user', 'unknown-user', 'no-pool', 'session-limit'))`,
    ),
    check('web_leases_pool_kind_check', sql`${t.poolKind} is null or ${t.poolKind} in ('named', 'shared')`),
    index('web_leases_account_started_idx').on(t.customerNumber, t.startedAt),
    // The reports' periods and the reclaim windows read leases by their end (migration 0016).
    index('web_leases_account_ended_idx').on(t.customerNumber, t.endedAt),
    index('web_leases_open_idx').on(t.customerNumber, t.partNumber).where(sql`${t.outcome} = 'open'`),
    index('web_leases_user_open_idx').on(t.userId).where(sql`${t.outcome} = 'open'`),
    // The reclaim list probes each named seat's open session and latest end (migration 0017).
    index('web_leases_seat_use_idx')
      .on(t.customerNumber, t.partNumber, t.userId, t.endedAt)
      .where(sql`${t.outcome} <> 'denied'`),
    // The denials report reads only denials (migration 0017; the SQL also INCLUDEs part, reason and e-mail).
    index('web_leases_denied_idx').on(t.customerNumber, t.startedAt).where(sql`${t.outcome} = 'denied'`),
  ],
);

/**
 * The reports' rollups of closed UTC hours (issue 24 §5, decision 071 as built), written by web-reporting's
 * rollup job. `groupId` is the group the sessions counted to, or the nil uuid for the whole pool (a key column
 * cannot be null). No foreign key to the group: a deleted group's rows stay, unread (no terms name it).
 */
export const webUsageHours = pgTable(
  'web_usage_hours',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number').notNull(),
    groupId: uuid('group_id').notNull(),
    hour: ts('hour').notNull(),
    /** Sessions started in the hour */
    started: integer('started').notNull(),
    /** Sessions open at some time in the hour */
    active: integer('active').notNull(),
    /** The most sessions open at once in the hour */
    peak: integer('peak').notNull(),
  },
  (t) => [
    primaryKey({ name: 'web_usage_hours_pk', columns: [t.customerNumber, t.partNumber, t.groupId, t.hour] }),
    index('web_usage_hours_hour_idx').on(t.hour),
  ],
);

/** 366 bits, bit d-1 for day d of a UTC year (PostgreSQL's bit(366), text '0101…' in and out). */
const yearDays = customType<{ data: string; driverData: string }>({ dataType: () => 'bit(366)' });

/** Who had a session on which days: per person and UTC year, a bit per day (distinct people per period). */
export const webUsagePeople = pgTable(
  'web_usage_people',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    partNumber: text('part_number').notNull(),
    groupId: uuid('group_id').notNull(),
    year: integer('year').notNull(),
    userId: uuid('user_id').notNull(),
    days: yearDays('days').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'web_usage_people_pk',
      columns: [t.customerNumber, t.year, t.partNumber, t.groupId, t.userId],
    }),
  ],
);

/** One row: hours before `rolledUntil` are rolled up; the reports read web_leases from there on. */
export const webUsageWatermark = pgTable(
  'web_usage_watermark',
  {
    id: boolean('id').primaryKey().default(true),
    rolledUntil: ts('rolled_until').notNull(),
    rolledAt: ts('rolled_at').notNull().default(sql`now()`),
  },
  (t) => [check('web_usage_watermark_one_row_check', sql`${t.id}`)],
);

/** Bearer tokens of an account's SCIM endpoint, issued and revoked by its administrators. Only hashes are stored. */
export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    createdBy: text('created_by').notNull(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('scim_tokens_account_idx').on(t.customerNumber)],
);
