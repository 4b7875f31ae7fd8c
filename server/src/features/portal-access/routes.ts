import { portalAccessApi } from '@lp/contract/portal-access/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { getPortalAccess, setPortalAccess } from './service.ts';

export function registerPortalAccessRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    portalAccessApi.get,
  )(async ({ principal, body }) => ({
    err: null,
    data: await getPortalAccess(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    portalAccessApi.set,
  )(async ({ principal, body }) => ({
    err: null,
    data: await setPortalAccess(ctx, principal, body),
  }));
}
