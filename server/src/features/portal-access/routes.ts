import {
  getPortalAccessRequestSchema,
  setPortalAccessRequestSchema,
} from '@lp/contract/portal-access/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { getPortalAccess, setPortalAccess } from './service.ts';

/** Spec 000 §7: portal-access contacts of an account (the authorization data of customer users). */
export function registerPortalAccessRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/getportalaccess', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber } = parseInput(getPortalAccessRequestSchema, request.body);
    return { status: 'SUCCESS', err: null, data: await getPortalAccess(ctx, principal, customerNumber) };
  });

  app.post('/api/setportalaccess', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(setPortalAccessRequestSchema, request.body);
    return { status: 'SUCCESS', err: null, data: await setPortalAccess(ctx, principal, body) };
  });
}
