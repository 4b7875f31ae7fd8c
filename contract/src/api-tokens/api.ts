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
    auth: 'session',
    response: myTokensResponseSchema,
  }),
  create: defineOperation({
    operationId: 'createApiToken',
    method: 'post',
    path: '/api/tokens',
    summary: 'Creates a personal API token; the answer is the only time the token is shown',
    auth: 'session',
    body: createTokenRequestSchema,
    response: createTokenResponseSchema,
  }),
  ofAccount: defineOperation({
    operationId: 'listAccountApiTokens',
    method: 'post',
    path: '/api/tokens/account',
    summary: "Tokens that can act on an account (its contacts' tokens): its administrators and vendor staff",
    auth: 'session',
    body: accountTokensRequestSchema,
    response: accountTokensResponseSchema,
  }),
  revoke: defineOperation({
    operationId: 'revokeApiToken',
    method: 'post',
    path: '/api/tokens/{id}/revoke',
    summary:
      "Revokes a token: the owner's own, an account contact's (its administrators), any (vendor staff)",
    auth: 'session',
    params: tokenIdParamsSchema,
    body: revokeTokenRequestSchema,
    response: revokeTokenResponseSchema,
  }),
} as const;
