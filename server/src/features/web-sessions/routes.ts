import { webSessionsApi } from '@lp/contract/web-sessions/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import {
  checkout,
  heartbeat,
  listOpenWebSessions,
  release,
  releaseWebSession,
  requireWebProduct,
} from './service.ts';

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
}
