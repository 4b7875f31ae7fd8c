import { parseInstant } from '@lp/contract/common/dates';
import { AUTOMATED_ACTION, entitlementKinds } from '@lp/domain/entitlements';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * timestamptz read with the one date parser: drizzle's own reader hands PostgreSQL's text to `new Date`,
 * whose legacy parsing turns years 1..99 into 19xx (decision 020).
 */
const ts = customType<{ data: Date; driverData: string }>({
  dataType: () => 'timestamp with time zone',
  toDriver: (value) => (value instanceof Date ? value.toISOString() : value),
  fromDriver: (value) => new Date(typeof value === 'string' ? (parseInstant(value) ?? Number.NaN) : value),
});

/**
 * Portal users: created or refreshed from ID-token claims at each sign-in, bound to the provider's (issuer,
 * subject) on the first one (decision 042).
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull().unique(),
    name: text('name').notNull().default(''),
    vendorRoles: text('vendor_roles').array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    lastLoginAt: ts('last_login_at'),
    /** 'built-in' for the built-in provider (its issuer URL follows PUBLIC_URL), else the token's `iss` */
    idpIssuer: text('idp_issuer'),
    idpSubject: text('idp_subject'),
    /** A disabled user's sessions and tokens stop working on the next call */
    disabledAt: ts('disabled_at'),
    /** When the provider last stated the vendor roles (sign-in); tokens act on them for a limited time only */
    rolesConfirmedAt: ts('roles_confirmed_at'),
  },
  (t) => [
    uniqueIndex('users_idp_identity').on(t.idpIssuer, t.idpSubject),
    check('users_idp_identity_pair', sql`(${t.idpIssuer} is null) = (${t.idpSubject} is null)`),
  ],
);

/** Server-side sessions named by an opaque cookie; the id is stored as a SHA-256 hash. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    idToken: text('id_token'),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    lastSeenAt: ts('last_seen_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Pending sign-ins: PKCE verifier, state and nonce between /login and /callback. */
export const loginStates = pgTable('login_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  returnTo: text('return_to').notNull().default('/'),
  expiresAt: ts('expires_at').notNull(),
});

/**
 * Failed sign-ins of the built-in provider per e-mail (keyed by an HMAC of the address, so typed
 * addresses of unknown accounts are not stored): shared by every API node (decision 017).
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    emailKey: text('email_key').primaryKey(),
    failures: integer('failures').notNull(),
    windowStartedAt: ts('window_started_at').notNull(),
    lockedUntil: ts('locked_until'),
  },
  (t) => [index('sign_in_failures_window_idx').on(t.windowStartedAt)],
);

/**
 * Failed sign-ins per e-mail and client address (decision 017, revised): growing delays for one address, and
 * `succeededAt` marks an address the user has signed in from. `pairKey` is an HMAC of both.
 */
export const signInAddressFailures = pgTable(
  'sign_in_address_failures',
  {
    pairKey: text('pair_key').primaryKey(),
    failures: integer('failures').notNull().default(0),
    lastFailureAt: ts('last_failure_at'),
    lockedUntil: ts('locked_until'),
    succeededAt: ts('succeeded_at'),
  },
  (t) => [index('sign_in_address_failures_last_failure_idx').on(t.lastFailureAt)],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    name: text('name').notNull().default(''),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [index('api_tokens_user_idx').on(t.userId)],
);

/** Directory of the built-in OpenID provider (the default IdP); not used with an external IdP. */
export const idpAccounts = pgTable('idp_accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  roles: text('roles').array().notNull().default(sql`'{}'::text[]`),
  passwordHash: text('password_hash').notNull(),
});

/** Set-password links of the built-in provider, made by the operator CLI; only the secret's hash is stored. */
export const passwordLinks = pgTable(
  'password_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    idpAccountId: uuid('idp_account_id')
      .notNull()
      .references(() => idpAccounts.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('password_links_account_idx').on(t.idpAccountId)],
);

/** oidc-provider adapter storage (sessions, grants, codes, ...) and its signing keys. */
export const oidcStore = pgTable(
  'oidc_store',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: ts('expires_at'),
    consumedAt: ts('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_store_grant_idx').on(t.grantId),
    index('oidc_store_uid_idx').on(t.uid),
  ],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const accounts = pgTable(
  'accounts',
  {
    customerNumber: text('customer_number').primaryKey(),
    name: text('name').notNull(),
    orgType: text('org_type').notNull().default('Undefined'),
    exportControlStatus: text('export_control_status').notNull().default(''),
    supportEmail: text('support_email').notNull().default(''),
    isAccessDisabled: boolean('is_access_disabled').notNull().default(false),
    isFnpLicenseGenerator: boolean('is_fnp_license_generator').notNull().default(false),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [index('accounts_name_idx').on(sql`lower(${t.name})`)],
);

/** Portal-access contacts: the authorization data for customer users. */
export const portalContacts = pgTable(
  'portal_contacts',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerNumber, t.email] }),
    index('portal_contacts_email_idx').on(t.email),
  ],
);

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

/**
 * License servers (hosts): FlexLM hosts (one or a triad of three host ids) and elastic (cloud) license servers
 * (decision 029). `hostIdentity` is the one internal name of a host's identity: for FlexLM the spec's host
 * identifier (TYPE=id, 'TYPE=' omitted for ETHERNET, comma-joined for a triad), for an elastic server its CLS id.
 * Unique among live hosts (deleting a host removes the row).
 */
export const licenseServers = pgTable('license_servers', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** flexlm or elastic */
  kind: text('kind').notNull(),
  hostIdentity: text('host_identity').notNull().unique(),
  /** Canonical lower-case ids, comma-joined for a triad, in the order entered (elastic: the CLS id). */
  hostIds: text('host_ids').notNull(),
  /** ETHERNET, DISK_SERIAL_NUM or FLEXID, comma-joined like hostIds. */
  hostIdTypes: text('host_id_types').notNull(),
  /** The host's name (a triad's first server). */
  name: text('name').notNull(),
  /** Every server's name in order, comma-joined (the SERVER lines of a triad); equals name for one server. */
  serverNames: text('server_names').notNull(),
  port: integer('port').notNull().default(1055),
  borrowable: boolean('borrowable').notNull().default(false),
  alias: text('alias'),
  /** Unknown (new), Active (has live fulfillments or a running elastic server), Inactive */
  state: text('state').notNull().default('Unknown'),
  createdBy: text('created_by').notNull().default(AUTOMATED_ACTION),
  createdAt: ts('created_at').notNull().default(sql`now()`),
});

/**
 * The accounts a license server serves (a FlexLM host may be shared by several accounts of an organisation).
 * `inSharedGroup`: the account is in the host's shared-server group, the approved accounts last saved for it.
 */
export const licenseServerAccounts = pgTable(
  'license_server_accounts',
  {
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => licenseServers.id, { onDelete: 'cascade' }),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    inSharedGroup: boolean('in_shared_group').notNull().default(false),
    addedAt: ts('added_at').notNull().default(sql`now()`),
  },
  (t) => [
    primaryKey({ columns: [t.serverId, t.customerNumber] }),
    index('license_server_accounts_customer_idx').on(t.customerNumber),
  ],
);

/**
 * What one entitlement has activated on one host: `count` is live (0 once all of it is returned; the row stays
 * for the history). One row per (host, entitlement); `parentId` is the source fulfillment of a rehost.
 */
export const fulfillments = pgTable(
  'fulfillments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => licenseServers.id, { onDelete: 'cascade' }),
    entitlementId: bigint('entitlement_id', { mode: 'number' })
      .notNull()
      .references(() => entitlements.id, { onDelete: 'cascade' }),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    count: integer('count').notNull(),
    parentId: bigint('parent_id', { mode: 'number' }).references((): AnyPgColumn => fulfillments.id, {
      onDelete: 'set null',
    }),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex('fulfillments_server_entitlement_idx').on(t.serverId, t.entitlementId),
    index('fulfillments_entitlement_idx').on(t.entitlementId),
    index('fulfillments_customer_idx').on(t.customerNumber),
    check('fulfillments_count_check', sql`${t.count} >= 0`),
  ],
);

/** The activation history: every create (+count) and return (-count) of a fulfillment. */
export const fulfillmentEvents = pgTable(
  'fulfillment_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fulfillmentId: bigint('fulfillment_id', { mode: 'number' })
      .notNull()
      .references(() => fulfillments.id, { onDelete: 'cascade' }),
    serverId: bigint('server_id', { mode: 'number' })
      .notNull()
      .references(() => licenseServers.id, { onDelete: 'cascade' }),
    customerNumber: text('customer_number').notNull(),
    time: ts('time').notNull(),
    /** The user's e-mail, or 'Automated Action' when the system acts. */
    modifiedBy: text('modified_by').notNull(),
    /** ACTIVATE or RETURN */
    action: text('action').notNull(),
    count: integer('count').notNull(),
    /** new, rehost, deactivate, return (what the user did) */
    lifecycleAction: text('lifecycle_action'),
    parentFulfillmentId: bigint('parent_fulfillment_id', { mode: 'number' }),
  },
  (t) => [index('fulfillment_events_server_time_idx').on(t.serverId, t.time)],
);

/**
 * Client-supplied keys of write batches (return, create, shared group, remove host): a retried batch finds
 * its key and answers the first outcome without acting again.
 */
export const operationKeys = pgTable('operation_keys', {
  key: text('key').primaryKey(),
  operation: text('operation').notNull(),
  userEmail: text('user_email').notNull(),
  result: jsonb('result').notNull(),
  createdAt: ts('created_at').notNull().default(sql`now()`),
});

/** Ed25519 keys that sign license files; retired keys stay published so older files still verify. */
export const licenseSigningKeys = pgTable('license_signing_keys', {
  keyId: text('key_id').primaryKey(),
  /** PKCS#8 PEM, encrypted with the server secret. */
  privateKeyCipher: text('private_key_cipher').notNull(),
  publicKeyPem: text('public_key_pem').notNull(),
  createdAt: ts('created_at').notNull().default(sql`now()`),
  retiredAt: ts('retired_at'),
});

export const usageSessions = pgTable(
  'usage_sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    // Migration 0002 recreates this index with INCLUDE (username, product), which Drizzle cannot express.
    index('usage_sessions_customer_start_idx').on(t.customerNumber, t.startTime, t.id),
    uniqueIndex('usage_sessions_server_session_idx').on(t.serverId, t.sessionId),
    index('usage_sessions_customer_user_idx').on(t.customerNumber, t.username, t.id),
  ],
);

export const emails = pgTable(
  'emails',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Null for vendor-wide messages (the audit checkpoints' copy), which no account's page lists. */
    customerNumber: text('customer_number').references(() => accounts.customerNumber, {
      onDelete: 'cascade',
    }),
    to: text('to_address').notNull(),
    cc: text('cc_address').notNull().default(''),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** [{filename, contentType, contentBase64}] sent with the message and kept with the record. */
    attachments: jsonb('attachments').notNull().default(sql`'[]'::jsonb`),
    /** Header fields of this message beyond the ones every message gets (the digests' List-Unsubscribe, decision 060). */
    headers: jsonb('headers').notNull().default(sql`'{}'::jsonb`),
    date: ts('date').notNull().default(sql`now()`),
    /** Outbox state: recorded (no SMTP configured), pending, sent, failed (gave up after retries). */
    deliveryStatus: text('delivery_status').notNull().default('recorded'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    lastError: text('last_error'),
    sentAt: ts('sent_at'),
    /** The user who asked for it (statements, license files): counted against the hourly limits (decision 045). */
    requestedBy: text('requested_by'),
  },
  (t) => [
    index('emails_customer_date_idx').on(t.customerNumber, t.date),
    index('emails_outbox_idx').on(t.deliveryStatus, t.nextAttemptAt),
    index('emails_requested_by_date_idx').on(t.requestedBy, t.date).where(sql`${t.requestedBy} is not null`),
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
    clsId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    position: integer('position').notNull(),
    ruleName: text('rule_name').notNull(),
    ipAddress: text('ip_address').notNull(),
  },
  (t) => [index('ip_rules_customer_cls_idx').on(t.customerNumber, t.clsId, t.position)],
);

export const alerts = pgTable('alerts', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  category: text('category').notNull(),
  status: text('status').notNull(),
  date: ts('date').notNull(),
  expires: ts('expires'),
  services: text('services').array().notNull(),
  description: text('description').notNull(),
  links: jsonb('links').notNull().default(sql`'{}'::jsonb`),
});

export const features = pgTable('features', {
  name: text('name').primaryKey(),
  description: text('description').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  conflicts: text('conflicts').array().notNull().default(sql`'{}'::text[]`),
});

export const userFeatures = pgTable('user_features', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  enabled: text('enabled').array().notNull(),
});

/** Saved table views, per user, customer and table. */
export const tablePrefs = pgTable(
  'table_prefs',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerNumber: text('customer_number').notNull(),
    tableName: text('table_name').notNull(),
    payload: jsonb('payload').notNull(),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.customerNumber, t.tableName] })],
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
 * The elastic ledger: every charge drawn from an entitlement (kind usage), what no entitlement covered
 * (kind overage, entitlement_id null) and staff adjustments (kind adjustment; negative = credit).
 * Amounts are hundredths of a unit so sums are exact.
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
    index('elastic_ledger_session_idx').on(t.sessionRowId),
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
    clsId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
    createdBy: text('created_by').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('cls_credentials_server_idx').on(t.customerNumber, t.clsId)],
);

/** PIN (encrypted at rest) and allowed usernames of an elastic license server (spec 001 §2.4). */
export const elasticServerSettings = pgTable(
  'elastic_server_settings',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    clsId: text('cls_id')
      .notNull()
      .references(() => licenseServers.hostIdentity, { onDelete: 'cascade', onUpdate: 'cascade' }),
    pinCipher: text('pin_cipher'),
    users: text('users').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: ts('updated_at').notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.customerNumber, t.clsId] })],
);

/**
 * The audit log (issue 13 §1, decision 039): append-only (a trigger refuses UPDATE and DELETE), one hash chain per
 * account ('*' for changes of no account) numbered by `seq`, each `hash` covering the entry and the previous hash.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    chain: text('chain').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    at: ts('at').notNull(),
    customerNumber: text('customer_number'),
    actorKind: text('actor_kind').$type<'user' | 'api-token' | 'license-server' | 'automated'>().notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    /** The server's own id of the request */
    requestId: text('request_id'),
    /** The X-Request-Id the client sent, if any: kept beside the server's id, never trusted as it */
    clientRequestId: text('client_request_id'),
    clientIp: text('client_ip'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_entries_chain_seq').on(t.chain, t.seq),
    index('audit_entries_customer_at').on(t.customerNumber, t.at.desc(), t.id.desc()),
    index('audit_entries_at').on(t.at.desc(), t.id.desc()),
  ],
);

/**
 * The last entry of each audit chain; every append locks its chain's row. Triggers refuse a delete, a truncate
 * and any update but one entry forward.
 */
export const auditChainHeads = pgTable('audit_chain_heads', {
  chain: text('chain').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

/**
 * Audit checkpoint runs (decision 044): what each anchored and whether the chains matched the previous
 * checkpoint. Informational, for the Audit Log page; the signed files outside the database are the evidence.
 */
export const auditCheckpoints = pgTable(
  'audit_checkpoints',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull(),
    /** The job's period (run key); null for `npm run cli -- audit checkpoint` */
    period: text('period'),
    node: text('node').notNull(),
    /** The signed file written; null when no head had moved since the previous checkpoint */
    file: text('file'),
    chains: integer('chains').notNull(),
    entries: bigint('entries', { mode: 'number' }).notNull(),
    ok: boolean('ok').notNull(),
    problems: jsonb('problems')
      .$type<{ chain: string | null; seq: number | null; reason: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [index('audit_checkpoints_at').on(t.at.desc()), index('audit_checkpoints_period').on(t.period)],
);

/** Runs of the database-backed jobs (decision 040): one row per job and run key, claimed by one node at a time. */
export const jobRuns = pgTable(
  'job_runs',
  {
    name: text('name').notNull(),
    runKey: text('run_key').notNull(),
    node: text('node').notNull(),
    claimedAt: ts('claimed_at').notNull(),
    leaseUntil: ts('lease_until').notNull(),
    finishedAt: ts('finished_at'),
    attempts: integer('attempts').notNull().default(1),
    error: text('error'),
  },
  (t) => [primaryKey({ name: 'job_runs_pkey', columns: [t.name, t.runKey] })],
);

/** Proactive notices (decision 041): a finding of an account, recorded once per threshold. */
export const notices = pgTable(
  'notices',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    objectId: text('object_id').notNull(),
    threshold: integer('threshold').notNull(),
    text: text('text').notNull(),
    /** 'YYYY-MM-DD', the job's day */
    foundOn: text('found_on').notNull(),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex('notices_once').on(t.customerNumber, t.type, t.objectId, t.threshold),
    index('notices_customer_created').on(t.customerNumber, t.createdAt.desc()),
  ],
);

/** What a user receives for an account; no row = everything. */
export const noticeChoices = pgTable(
  'notice_choices',
  {
    userEmail: text('user_email').notNull(),
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    expiryDays: integer('expiry_days').array().notNull(),
    usagePercents: integer('usage_percents').array().notNull(),
    runOut: boolean('run_out').notNull(),
  },
  (t) => [primaryKey({ name: 'notice_choices_pkey', columns: [t.userEmail, t.customerNumber] })],
);

/** Notice types an account's administrators switched off. */
export const noticeSettings = pgTable('notice_settings', {
  customerNumber: text('customer_number')
    .primaryKey()
    .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
  disabledTypes: text('disabled_types').array().notNull().default(sql`'{}'::text[]`),
});
