import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * Web licensing (issue 24, decision 071): the account's web seat pools and their lease policy. The bounds of a
 * policy, the same as the checks of the table web_pool_policies; a pool without a saved policy has the defaults.
 */
export const webPoolPolicyLimits = {
  heartbeatWindowSeconds: { min: 60, max: 3600, default: 300 },
  idleTimeoutSeconds: { min: 60, max: 86400, default: 900 },
  sessionsPerUser: { min: 1, max: 10, default: 1 },
} as const;

const bounded = (name: keyof typeof webPoolPolicyLimits, what: string) => {
  const { min, max } = webPoolPolicyLimits[name];
  const message = `${what} must be a whole number from ${min} to ${max}.`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

export const webPoolPolicySchema = z.strictObject({
  heartbeatWindowSeconds: bounded('heartbeatWindowSeconds', 'The heartbeat window (seconds)'),
  idleTimeoutSeconds: bounded('idleTimeoutSeconds', 'The idle timeout (seconds)'),
  sessionsPerUser: bounded('sessionsPerUser', 'The sessions per user'),
});
export type WebPoolPolicy = z.infer<typeof webPoolPolicySchema>;

const dateField = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** One pool: a product of the account with Named User or Shared Web lines whose term covers today. */
export const webPoolSchema = z.object({
  partNumber: z.string(),
  productName: z.string(),
  kind: z.enum(['named', 'shared']),
  /** The sum of the quantities of the pool's live lines. */
  seats: z.number().int(),
  /** Earliest start and latest end of the live lines; end null: one of them is permanent. */
  start: dateField.nullable(),
  end: dateField.nullable(),
  policy: webPoolPolicySchema,
});
export type WebPool = z.infer<typeof webPoolSchema>;

/** POST /api/web/pools */
export const listWebPoolsRequestSchema = z.strictObject({ customerNumber: customerNumberField });
export const listWebPoolsResponseSchema = successOf(z.array(webPoolSchema));

/** POST /api/web/pools/policy: replaces the pool's whole policy; the answer is the pool as it now stands. */
export const saveWebPoolPolicyRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  partNumber: z.string().trim().min(1).max(100),
  policy: webPoolPolicySchema,
});
export const saveWebPoolPolicyResponseSchema = successOf(webPoolSchema);
