import {
  fetchUsageRequestSchema,
  usageCountRequestSchema,
  usageDistinctRequestSchema,
} from '@lp/contract/transactions/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { LargeRequestGate } from '../../platform/large-request-gate.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { pageEnvelopeStream } from '../../platform/query/page-stream.ts';
import { parseInput } from '../../platform/validate.ts';
import { countUsage, distinctUsage, LARGE_USAGE_PAGE, listUsage, streamUsage } from './service.ts';

/** Usage transactions of an account (spec 001 §2.3, §7): page, count and distinct values. */
export function registerTransactionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const largePages = new LargeRequestGate({
    perUser: ctx.config.LARGE_PAGES_PER_USER,
    perNode: ctx.config.LARGE_PAGES_PER_NODE,
    waitMs: ctx.config.LARGE_PAGE_WAIT_MS,
  });
  app.post('/api/fetchUsage', async (request, reply) => {
    const principal = requirePrincipal(request);
    const body = parseInput(fetchUsageRequestSchema, request.body);
    if ((body.limit ?? 0) <= LARGE_USAGE_PAGE) {
      const page = await listUsage(ctx, principal, body);
      return { status: 'SUCCESS', data: page.rows, token: page.token };
    }
    // Large pages (the CSV export) wait their turn, then stream from a cursor (decision 021).
    const release = await largePages.enter(principal.userId);
    const stream = await pageEnvelopeStream(streamUsage(ctx, principal, body), release);
    return reply.type('application/json; charset=utf-8').send(stream);
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
