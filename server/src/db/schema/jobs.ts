import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';

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
