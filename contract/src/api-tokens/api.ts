import { defineOperation } from '../common/operation.ts';
import {
  accountTokensRequestSchema,
  accountTokensResponseSchema,
  createTokenRequestSchema,
  createTokenResponseSchema,
  myTokensResponseSchema,
  revokeTokenRequestSchema,
  revokeTokenResponseSchema,
  tokenIdParamsSchema,
} from './schemas.ts';

/** Personal API tokens (issue 20 §3, decision 042). */
export const apiTokensApi = {
  mine: defineOperation({
    operationId: 'listMyApiTokens',
    method: 'get',
    path: '/api/tokens',
    summary: "The signed-in user's personal API tokens (never the tokens themselves)",
    description:
      "Name, creation, expiry and last use of each of the signed-in user's tokens. The secret itself is never stored (only its hash), so it is never answered again.",
    auth: 'session',
    effect: 'read',
    response: myTokensResponseSchema,
  }),
  create: defineOperation({
    operationId: 'createApiToken',
    method: 'post',
    path: '/api/tokens',
    summary: 'Creates a personal API token; the answer is the only time the token is shown',
    description:
      'Creates a token with a name and a lifetime in days (every token expires). Only from a signed-in browser session, not with another token. The answer carries the secret once: send it as `Authorization: Bearer …`.',
    auth: 'session',
    effect: 'once',
    statuses: {
      403: 'Called with an API token (tokens are created in a browser session), or a cookie session without the header `x-lp-csrf: 1`.',
    },
    body: createTokenRequestSchema,
    response: createTokenResponseSchema,
  }),
  ofAccount: defineOperation({
    operationId: 'listAccountApiTokens',
    method: 'post',
    path: '/api/tokens/account',
    summary: "Tokens that can act on an account (its contacts' tokens): its administrators and vendor staff",
    description:
      "The tokens of the account's portal contacts, for its administrators and vendor staff to review and revoke. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: accountTokensRequestSchema,
    response: accountTokensResponseSchema,
  }),
  revoke: defineOperation({
    operationId: 'revokeApiToken',
    method: 'post',
    path: '/api/tokens/{id}/revoke',
    summary:
      "Revokes a token: the owner's own, an account contact's (its administrators), any (vendor staff)",
    description:
      "Revokes a token at once: its next call answers 401. The owner revokes their own, an account's administrators the tokens of its contacts, vendor staff any.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No such token, or one the user may not revoke (answered alike).',
    },
    params: tokenIdParamsSchema,
    body: revokeTokenRequestSchema,
    response: revokeTokenResponseSchema,
  }),
} as const;
