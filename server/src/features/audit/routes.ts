import { auditApi } from '@lp/contract/audit/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
import { checkpointStatus } from './checkpoint-service.ts';
import { countAudit, distinctAudit, listAudit } from './read-service.ts';

/** The Audit Log (issue 13 §1): page, count and distinct values, of an account or across accounts; the checkpoints' status (decision 044). */
export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerQueryEndpoints(app, ctx, auditApi, {
    page: (principal, body) => listAudit(ctx, principal, body),
    count: (principal, body) => countAudit(ctx, principal, body),
    distinct: (principal, body) => distinctAudit(ctx, principal, body),
  });
  route(
    app,
    ctx,
    auditApi.checkpointStatus,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await checkpointStatus(ctx, principal, body),
  }));
}
