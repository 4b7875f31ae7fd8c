import { entitlementsApi } from '@lp/contract/entitlements/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { getEntitlements } from './service.ts';

export function registerEntitlementRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    entitlementsApi.elastic,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await getEntitlements(ctx, principal, body.customerNumber),
  }));
}
