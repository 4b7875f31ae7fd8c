import {
  fetchUsageRequestSchema,
  usageCountRequestSchema,
  usageDistinctRequestSchema,
} from '@lp/contract/transactions/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { countUsage, distinctUsage, listUsage } from './service.ts';

/** Usage transactions of an account (spec 001 §2.3, §7): page, count and distinct values. */
export function registerTransactionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/fetchUsage', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(fetchUsageRequestSchema, request.body);
    const page = await listUsage(ctx, principal, body);
    return { status: 'SUCCESS', data: page.rows, token: page.token };
  });

  app.post('/api/fetchUsage/count', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(usageCountRequestSchema, request.body);
    return { status: 'SUCCESS', data: await countUsage(ctx, principal, body) };
  });

  app.post('/api/fetchUsage/distinct', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(usageDistinctRequestSchema, request.body);
    return { status: 'SUCCESS', data: await distinctUsage(ctx, principal, body) };
  });
}
