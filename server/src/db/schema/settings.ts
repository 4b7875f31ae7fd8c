import { sql } from 'drizzle-orm';
import { bigserial, boolean, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { ts } from './columns.ts';

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

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
