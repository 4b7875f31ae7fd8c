import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

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
 * and any update but forward onto an entry of the chain (decision 062).
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
