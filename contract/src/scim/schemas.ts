import { z } from 'zod';
import { tokenNameField } from '../api-tokens/schemas.ts';
import { instantText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * Bearer tokens of an account's SCIM endpoint (issue 24 §3, decision 071): issued and revoked by the account's
 * administrators in the portal; the identity provider (Entra ID, Okta, Keycloak) sends one to
 * /scim/v2/{customerNumber}. Only the token's hash is stored.
 */

export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: instantText,
  createdBy: z.string(),
  lastUsedAt: instantText.nullable(),
  revokedAt: instantText.nullable(),
});
export type ScimTokenRow = z.infer<typeof scimTokenSchema>;

/** POST /api/scim/tokens */
export const listScimTokensRequestSchema = z.strictObject({ customerNumber: customerNumberField });
export const listScimTokensResponseSchema = successOf(z.array(scimTokenSchema));

/** POST /api/scim/tokens/issue */
export const issueScimTokenRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  name: tokenNameField,
});
export const issueScimTokenResponseSchema = successOf(
  scimTokenSchema.extend({
    /** Shown once: only its hash is stored */
    token: z.string(),
    /** The SCIM base URL to give the identity provider (relative to the portal's address) */
    endpoint: z.string(),
  }),
);

/** POST /api/scim/tokens/revoke */
export const revokeScimTokenRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  id: z.uuid({ error: 'Must be the id of a SCIM token.' }),
});
export const revokeScimTokenResponseSchema = successOf(scimTokenSchema);
