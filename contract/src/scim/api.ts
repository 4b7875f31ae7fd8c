import { defineOperation } from '../common/operation.ts';
import {
  issueScimTokenRequestSchema,
  issueScimTokenResponseSchema,
  listScimTokensRequestSchema,
  listScimTokensResponseSchema,
  revokeScimTokenRequestSchema,
  revokeScimTokenResponseSchema,
} from './schemas.ts';

const writers =
  "The account's administrators and business operations only: view-only users and support get 403; a user who may not see the account gets 403, as for an unknown account.";

/**
 * The portal's calls for SCIM tokens (issue 24 §3). The SCIM endpoint itself (/scim/v2/{customerNumber}, RFC
 * 7644) is not in this catalogue: its answers and errors are SCIM's, not the portal's envelope (docs/scim.md).
 */
export const scimApi = {
  tokens: defineOperation({
    operationId: 'listScimTokens',
    method: 'post',
    path: '/api/scim/tokens',
    summary: "The SCIM tokens of an account's web directory (never the tokens themselves)",
    description:
      'Name, who issued it and when, last use and revocation of every SCIM token of the account, newest first. Anyone who may see the account.',
    auth: 'session',
    effect: 'read',
    body: listScimTokensRequestSchema,
    response: listScimTokensResponseSchema,
  }),
  issue: defineOperation({
    operationId: 'issueScimToken',
    method: 'post',
    path: '/api/scim/tokens/issue',
    summary: 'Issues a SCIM token for the identity provider; the answer is the only time it is shown',
    description: `A bearer token for /scim/v2/{customerNumber} of this account only (the answer's \`endpoint\`). Only its hash is stored, so it is never answered again. ${writers}`,
    auth: 'session',
    effect: 'once',
    body: issueScimTokenRequestSchema,
    response: issueScimTokenResponseSchema,
  }),
  revoke: defineOperation({
    operationId: 'revokeScimToken',
    method: 'post',
    path: '/api/scim/tokens/revoke',
    summary: 'Revokes a SCIM token at once',
    description: `The identity provider's next call with it answers 401. Revoking a revoked token answers it as it is. ${writers}`,
    auth: 'session',
    effect: 'idempotent',
    statuses: { 404: 'No SCIM token with this id in the account.' },
    body: revokeScimTokenRequestSchema,
    response: revokeScimTokenResponseSchema,
  }),
};
