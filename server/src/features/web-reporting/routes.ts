import { webReportingApi } from '@lp/contract/web-reporting/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { webDenials, webReclaim, webUsageHeatmap, webUtilisation } from './service.ts';

/** /web-reporting's reports (decision 071). */
export function registerWebReportingRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    webReportingApi.utilisation,
  )(async ({ principal, body }) => ({ data: await webUtilisation(ctx, principal, body) }));
  route(
    app,
    ctx,
    webReportingApi.heatmap,
  )(async ({ principal, body }) => ({ data: await webUsageHeatmap(ctx, principal, body) }));
  route(
    app,
    ctx,
    webReportingApi.denials,
  )(async ({ principal, body }) => ({ data: await webDenials(ctx, principal, body) }));
  route(
    app,
    ctx,
    webReportingApi.reclaim,
  )(async ({ principal, body }) => ({ data: await webReclaim(ctx, principal, body) }));
}
