import { z } from 'zod';
import { instantText } from '../common/dates.ts';
import { okResponseSchema, successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/** Personal API tokens (issue 20 §3, decision 042): the owner's own list, and the tokens that can act on an account. */

/** Printable text only: a token's name shows in lists and the audit log. */
export const tokenNameField = z
  .string()
  .trim()
  .min(1, 'Enter a name for the token.')
  .max(100, 'The name can be at most 100 characters.')
  .regex(/^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u, 'The name may not contain control or invisible characters.');

export const tokenStates = ['active', 'expired', 'revoked'] as const;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: instantText,
  expiresAt: instantText.nullable(),
  lastUsedAt: instantText.nullable(),
  revokedAt: instantText.nullable(),
  state: z.enum(tokenStates),
});
export type ApiTokenRow = z.infer<typeof apiTokenSchema>;

/** A token as an account's administrators see it: whose it is too. */
export const accountApiTokenSchema = apiTokenSchema.extend({ ownerEmail: z.string(), ownerName: z.string() });
export type AccountApiTokenRow = z.infer<typeof accountApiTokenSchema>;

export const myTokensResponseSchema = successOf(
  z.object({
    tokens: z.array(apiTokenSchema),
    /** The lifetime a new token gets when none is chosen, and the longest allowed (days) */
    defaultDays: z.number().int(),
    maxDays: z.number().int(),
  }),
);

export const createTokenRequestSchema = z.strictObject({
  name: tokenNameField,
  /** Days until it expires; the server's default when absent */
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});

export const createTokenResponseSchema = successOf(
  apiTokenSchema.extend({
    /** Shown once: only its hash is stored */
    token: z.string(),
  }),
);

export const accountTokensRequestSchema = z.strictObject({ customerNumber: customerNumberField });
export const accountTokensResponseSchema = successOf(z.object({ tokens: z.array(accountApiTokenSchema) }));

export const tokenIdParamsSchema = z.strictObject({ id: z.uuid() });
/** Revoking a token of someone else names the account it is revoked for (account administrators) */
export const revokeTokenRequestSchema = z
  .strictObject({ customerNumber: customerNumberField.optional() })
  .optional();
export const revokeTokenResponseSchema = okResponseSchema;
