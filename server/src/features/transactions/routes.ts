import { transactionsApi } from '@lp/contract/transactions/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { LargeRequestGate } from '../../platform/large-request-gate.ts';
import { pageEnvelopeStream } from '../../platform/query/page-stream.ts';
import { registerQueryEndpoints } from '../../platform/route.ts';
import { countUsage, distinctUsage, LARGE_USAGE_PAGE, listUsage, streamUsage } from './service.ts';

/** The wire's serverId names the elastic license server whose sessions are asked for (all of them when absent). */
const scoped = <B extends { serverId?: string | null }>({ serverId, ...rest }: B) => ({
  ...rest,
  elasticServerId: serverId,
});

/** Usage transactions of an account (spec 001 §2.3, §7): page, count and distinct values. */
export function registerTransactionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const largePages = new LargeRequestGate({
    perUser: ctx.config.LARGE_PAGES_PER_USER,
    perNode: ctx.config.LARGE_PAGES_PER_NODE,
    waitMs: ctx.config.LARGE_PAGE_WAIT_MS,
  });
  registerQueryEndpoints(app, ctx, transactionsApi, {
    page: async (principal, body) => {
      if ((body.limit ?? 0) <= LARGE_USAGE_PAGE) return listUsage(ctx, principal, scoped(body));
      // Large pages (the CSV export) wait their turn, then stream from a cursor (decision 021).
      const release = await largePages.enter(principal.userId);
      return pageEnvelopeStream(streamUsage(ctx, principal, scoped(body)), release);
    },
    count: (principal, body) => countUsage(ctx, principal, scoped(body)),
    distinct: (principal, body) => distinctUsage(ctx, principal, scoped(body)),
  });
}
