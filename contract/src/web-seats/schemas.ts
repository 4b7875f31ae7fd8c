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

/** A group's terms on a shared pool as the pool lists them. */
export const webGroupTermsSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  guaranteed: z.number().int(),
  cap: z.number().int().nullable(),
});

/** A pool with its use: what listWebPools answers for each. */
export const webPoolUseSchema = webPoolSchema.extend({
  /** Named seats held (named pools; 0 for shared ones). */
  assigned: z.number().int(),
  /** Open leases now. */
  inUse: z.number().int(),
  /** The most leases open at once over the last 30 days. */
  peak30Days: z.number().int(),
  /** Named seats transferred in the rolling 30 days, the allowance, and the page's sentence. */
  transfers: z.object({ used: z.number().int(), allowance: z.number().int(), text: z.string() }),
  /** Shared pools: the groups' terms (empty for named pools). */
  groupTerms: z.array(webGroupTermsSchema),
});
export type WebPoolUse = z.infer<typeof webPoolUseSchema>;

/** POST /api/web/pools */
export const listWebPoolsRequestSchema = z.strictObject({ customerNumber: customerNumberField });
export const listWebPoolsResponseSchema = successOf(z.array(webPoolUseSchema));

/** POST /api/web/pools/policy: replaces the pool's whole policy; the answer is the pool as it now stands. */
export const saveWebPoolPolicyRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  partNumber: z.string().trim().min(1).max(100),
  policy: webPoolPolicySchema,
});
export const saveWebPoolPolicyResponseSchema = successOf(webPoolSchema);

/* Assignments (decision 071): named seats, groups given a named pool, groups' terms on a shared pool. */

const partNumberField = z.string().trim().min(1).max(100);
const idField = z.uuid({ error: 'Must be an id of the directory.' });
const idsField = z
  .array(idField)
  .min(1, 'Name at least one person.')
  .max(1000, 'At most 1000 people at once.')
  .refine((ids) => new Set(ids).size === ids.length, 'A person is named twice.');
/** true: answers what the change would do and writes nothing. */
const previewField = z.boolean().optional();

/** What an assignment change does (preview) or did: the sentence and the counts of people. */
export const webSeatChangeSchema = z.object({
  /** true: nothing was written */
  preview: z.boolean(),
  /** e.g. "removes 3 users from Fluids Premium"; "changes nothing" when it changes nothing */
  text: z.string(),
  /** People given a seat */
  assigned: z.number().int(),
  /** People whose seat went */
  unassigned: z.number().int(),
  /** Assigning: people who held a seat through a group and now hold it directly. */
  madeDirect: z.number().int(),
  /** Unassigning: people who keep a seat because a group gives them one. */
  keptThroughGroup: z.number().int(),
  /** Transfers counted by this change (transferWebSeat: 1). */
  transfers: z.number().int(),
});
export type WebSeatChange = z.infer<typeof webSeatChangeSchema>;
export const webSeatChangeResponseSchema = successOf(webSeatChangeSchema);

/** POST /api/web/seats/assign and /unassign: direct named seats of people of the account's directory. */
export const webSeatsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  partNumber: partNumberField,
  userIds: idsField,
  preview: previewField,
});

/** POST /api/web/seats/transfer: one person's direct seat given to another (counted against the allowance). */
export const transferWebSeatRequestSchema = z
  .strictObject({
    customerNumber: customerNumberField,
    partNumber: partNumberField,
    fromUserId: idField,
    toUserId: idField,
    preview: previewField,
  })
  .refine((b) => b.fromUserId !== b.toUserId, {
    message: 'A seat is transferred to someone else.',
    path: ['toUserId'],
  });

/** POST /api/web/groups/pools: replaces the named pools given to a group. */
export const setWebGroupPoolsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  groupId: idField,
  partNumbers: z
    .array(partNumberField)
    .max(200)
    .refine((parts) => new Set(parts).size === parts.length, 'A pool is named twice.'),
  preview: previewField,
});

/** POST /api/web/pools/terms: replaces a shared pool's group terms (the numbers are judged by groupTermsProblem). */
export const saveWebGroupTermsRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  partNumber: partNumberField,
  terms: z
    .array(
      z.strictObject({
        groupId: idField,
        guaranteed: z.number({ error: 'The guaranteed seats must be a number.' }),
        cap: z.number({ error: 'The cap must be a number or null.' }).nullable(),
      }),
    )
    .max(500)
    .refine((terms) => new Set(terms.map((t) => t.groupId)).size === terms.length, 'A group is named twice.'),
  preview: previewField,
});
