import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { ts } from './columns.ts';

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
