import { getEntitlementsRequestSchema } from '@lp/contract/entitlements/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { getEntitlements } from './service.ts';

/** Spec 001 §7: the elastic entitlements of the selected account. */
export function registerEntitlementRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/getEntitlements', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber } = parseInput(getEntitlementsRequestSchema, request.body);
    return { status: 'SUCCESS', data: await getEntitlements(ctx, principal, customerNumber) };
  });
}
