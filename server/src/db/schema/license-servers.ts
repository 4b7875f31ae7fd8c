import { AUTOMATED_ACTION } from '@lp/domain/entitlements';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';
import { entitlements } from './entitlements.ts';

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

/** Ed25519 keys that sign license files; retired keys stay published so older files still verify. */
export const licenseSigningKeys = pgTable('license_signing_keys', {
  keyId: text('key_id').primaryKey(),
  /** PKCS#8 PEM, encrypted with the server secret. */
  privateKeyCipher: text('private_key_cipher').notNull(),
  publicKeyPem: text('public_key_pem').notNull(),
  createdAt: ts('created_at').notNull().default(sql`now()`),
  retiredAt: ts('retired_at'),
});
