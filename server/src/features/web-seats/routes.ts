import { webSeatsApi } from '@lp/contract/web-seats/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { listWebPools, saveWebPoolPolicy } from './service.ts';

export function registerWebSeatRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    webSeatsApi.pools,
  )(async ({ principal, body }) => ({
    data: await listWebPools(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    webSeatsApi.savePolicy,
  )(async ({ principal, body }) => ({
    data: await saveWebPoolPolicy(ctx, principal, body),
  }));
}
