import { sql } from 'drizzle-orm';
import { check, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
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
