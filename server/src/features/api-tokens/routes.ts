import { apiTokensApi } from '@lp/contract/api-tokens/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { createMyToken, listAccountTokens, listMyTokens, revokeToken } from './service.ts';

export function registerApiTokenRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, apiTokensApi.mine)(async ({ principal }) => ({ data: await listMyTokens(ctx, principal) }));

  route(
    app,
    ctx,
    apiTokensApi.create,
  )(async ({ principal, body }) => ({ data: await createMyToken(ctx, principal, body) }));

  route(
    app,
    ctx,
    apiTokensApi.ofAccount,
  )(async ({ principal, body }) => ({
    data: await listAccountTokens(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    apiTokensApi.revoke,
  )(async ({ principal, params, body }) => {
    await revokeToken(ctx, principal, params.id, body?.customerNumber);
  });
}
