import { webSessionsApi } from '@lp/contract/web-sessions/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
import {
  checkout,
  heartbeat,
  listOpenWebSessions,
  release,
  releaseWebSession,
  requireWebProduct,
} from './service.ts';
import {
  countWebTransactions,
  distinctWebTransactions,
  listWebTransactions,
  webTransactionsAsOf,
} from './transactions.ts';

/** The web-license product API (/web/v1, per-product bearer credential) and the portal's session calls. */
export function registerWebSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    webSessionsApi.checkout,
  )(async ({ request, body }) => ({
    data: await checkout(ctx, await requireWebProduct(ctx, request.headers.authorization), body),
  }));

  route(
    app,
    ctx,
    webSessionsApi.heartbeat,
  )(async ({ request, body }) => ({
    data: await heartbeat(ctx, await requireWebProduct(ctx, request.headers.authorization), body),
  }));

  route(
    app,
    ctx,
    webSessionsApi.release,
  )(async ({ request, body }) => ({
    data: await release(ctx, await requireWebProduct(ctx, request.headers.authorization), body),
  }));

  route(
    app,
    ctx,
    webSessionsApi.listOpen,
  )(async ({ principal, body }) => ({ data: await listOpenWebSessions(ctx, principal, body) }));

  route(
    app,
    ctx,
    webSessionsApi.adminRelease,
  )(async ({ principal, body }) => ({ data: await releaseWebSession(ctx, principal, body) }));

  registerQueryEndpoints(
    app,
    ctx,
    { page: webSessionsApi.page, count: webSessionsApi.count, distinct: webSessionsApi.distinct },
    {
      page: (principal, body) => listWebTransactions(ctx, principal, body),
      count: (principal, body) => countWebTransactions(ctx, principal, body),
      distinct: (principal, body) => distinctWebTransactions(ctx, principal, body),
    },
  );

  route(
    app,
    ctx,
    webSessionsApi.transactionsAsOf,
  )(async ({ principal, body }) => ({ data: await webTransactionsAsOf(ctx, principal, body) }));
}
