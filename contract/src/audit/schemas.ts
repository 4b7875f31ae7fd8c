import { z } from 'zod';
import { displayDateTimeText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { countRequestSchema, distinctRequestSchema, pageRequestSchema } from '../query/schemas.ts';

/** A CSV export of the Audit Log takes at most this many entries in one call. */
export const AUDIT_EXPORT_MAX = 10_000;

/**
 * Columns of an audit entry (issue 13 §1, decision 039) a client may filter, sort and ask distinct values of.
 * `account` is the entry's customer number (null for changes of no account, e.g. sign-ins and feature flags).
 */
export const auditColumnKinds = {
  time: 'timestamp',
  account: 'text',
  actorKind: 'text',
  actor: 'text',
  action: 'text',
  objectType: 'text',
  objectId: 'text',
  requestId: 'text',
  clientIp: 'text',
} as const satisfies ColumnKinds;
export type AuditColumn = keyof typeof auditColumnKinds;
export const auditColumns = Object.keys(auditColumnKinds) as AuditColumn[];

/**
 * The account whose log is read; absent for the cross-account view (vendor staff only), whose rows then say
 * their account.
 */
const scope = { customerNumber: customerNumberField.optional() };

/**
 * POST /api/audit: the generic page query (spec 000 §3) over the audit log. A time range is an ordinary
 * criterion, e.g. {name: 'time', method: 'DATERANGE', value: [from, to]}; default sort time descending, the
 * entry's id breaks ties.
 */
export const auditPageRequestSchema = pageRequestSchema.extend({
  ...scope,
  /** Above the grid's pages: the CSV export of the filtered rows. */
  limit: z.number().int().min(1).max(AUDIT_EXPORT_MAX).optional(),
});
export type AuditPageRequest = z.input<typeof auditPageRequestSchema>;
export const auditCountRequestSchema = countRequestSchema.extend(scope);
export const auditDistinctRequestSchema = distinctRequestSchema.extend(scope);

const changedFields = z.record(z.string(), z.unknown()).nullable();

/** One entry: time as 'YYYY-MM-DD HH:mm:ss' (UTC), the changed fields before and after (secrets redacted). */
export const auditRowSchema = z.object({
  id: z.number().int(),
  time: displayDateTimeText,
  account: z.string().nullable(),
  actorKind: z.enum(['user', 'api-token', 'license-server', 'automated']),
  actor: z.string(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string(),
  /** The server's id of the request */
  requestId: z.string().nullable(),
  /** The X-Request-Id the client sent, as the client's (never taken as the request id) */
  clientRequestId: z.string().nullable(),
  clientIp: z.string().nullable(),
  before: changedFields,
  after: changedFields,
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageResponseSchema = successOf(z.array(auditRowSchema), { token: z.string().nullable() });

/** POST /api/audit/checkpoint-status: the account's log (or, for vendor staff, every account's). */
export const auditCheckpointStatusRequestSchema = z.strictObject(scope);

/**
 * The audit checkpoints (decision 044) as the Audit Log page shows them: the last checkpoint written, the last
 * check of the chains against the checkpoint before it, and what it found (for an account's readers only their
 * account's chain; a problem with no chain is a checkpoint file). Times 'YYYY-MM-DD HH:mm:ss' UTC.
 */
export const auditCheckpointStatusSchema = z.object({
  lastCheckpoint: displayDateTimeText.nullable(),
  checkedAt: displayDateTimeText.nullable(),
  /** null before the first check */
  ok: z.boolean().nullable(),
  problems: z.array(
    z.object({ chain: z.string().nullable(), seq: z.number().int().nullable(), reason: z.string() }),
  ),
});
export type AuditCheckpointStatus = z.infer<typeof auditCheckpointStatusSchema>;
