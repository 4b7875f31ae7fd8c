import { z } from 'zod';
import { calendarDaySchema, instantText, zonedInstantSchema } from '../common/dates.ts';
import { successOf, successWith } from '../common/envelope.ts';
import { activationIdField, customerNumberField, serverIdField } from '../common/fields.ts';

const instant = zonedInstantSchema;

/**
 * One session event sent by an elastic license server. Every event carries the session's descriptor, so a
 * heartbeat or end that arrives before its start (or alone) still describes the session completely.
 */
export const usageEventSchema = z.strictObject({
  type: z.enum(['start', 'heartbeat', 'end']),
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w.:-]+$/, 'letters, digits and . _ : - only'),
  /** when this event happened */
  time: instant,
  /** when the session started */
  startTime: instant,
  product: z.string().min(1).max(100),
  productCount: z.number().int().min(1).max(100_000),
  user: z.string().min(1).max(100),
  host: z.string().min(1).max(255),
  project: z.string().max(255).default(''),
  productVersion: z.string().max(50).default(''),
  ip: z.string().max(45).default(''),
  cloudJobId: z.string().max(100).optional(),
  /** how an ended session ended */
  status: z.enum(['Completed', 'Terminated']).optional(),
});
export type UsageEvent = z.infer<typeof usageEventSchema>;
export type UsageEventInput = z.input<typeof usageEventSchema>;

/** POST /cls/v1/usage: events are checked one by one, so a bad event does not sink the good ones. */
export const usageBatchSchema = z.strictObject({ events: z.array(z.unknown()).min(1).max(5000) });

export const usageBatchResponseSchema = successWith({
  accepted: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
});
export type UsageBatchResponse = z.infer<typeof usageBatchResponseSchema>;

/** GET /cls/v1/policy: what the license server enforces (served with an ETag). */
export const policyResponseSchema = successWith({
  clsId: z.string(),
  alias: z.string(),
  pin: z.string().nullable(),
  users: z.array(z.string()),
  ipRules: z.array(z.object({ ruleName: z.string(), ipAddress: z.string() })),
  /** products priced for this server's account, with their rate table version */
  products: z.array(z.string()),
  rateTableVersion: z.string(),
});
export type PolicyResponse = z.infer<typeof policyResponseSchema>;

/** Vendor staff: issue a credential for an elastic license server of an account. */
export const issueCredentialRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  clsId: serverIdField,
});
export const issueCredentialResponseSchema = successOf(
  z.object({ id: z.string(), token: z.string(), clsId: z.string(), customerNumber: z.string() }),
);
export const credentialListResponseSchema = successOf(
  z.array(
    z.object({
      id: z.string(),
      clsId: z.string(),
      createdAt: instantText,
      createdBy: z.string(),
      revokedAt: instantText.nullable(),
    }),
  ),
);

/** Vendor busops: a credit (negative) or debit (positive) adjustment of an elastic entitlement, in units. */
export const adjustmentRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  activationId: activationIdField,
  amount: z.number().finite().min(-1e9).max(1e9),
  product: z.string().min(1).max(100).default('Balance Adjustment'),
  note: z.string().max(1000).default(''),
  day: calendarDaySchema.optional(),
});
/** Credentials of an account (vendor staff): GET /api/cls/credentials?customerNumber= */
export const credentialListQuerySchema = z.strictObject({ customerNumber: customerNumberField });
export const credentialIdParamsSchema = z.strictObject({ id: z.uuid() });
/** The entitlement's Used after the adjustment, in units. */
export const adjustmentResponseSchema = successOf(z.object({ activationId: z.string(), used: z.number() }));
export type AdjustmentResult = z.infer<typeof adjustmentResponseSchema>['data'];
export type ServerCredential = z.infer<typeof credentialListResponseSchema>['data'][number];
export type IssuedCredential = z.infer<typeof issueCredentialResponseSchema>['data'];
export type AdjustmentRequest = z.input<typeof adjustmentRequestSchema>;
