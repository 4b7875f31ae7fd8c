import {
  adjustmentRequestSchema,
  issueCredentialRequestSchema,
  usageBatchSchema,
} from '@lp/contract/cls/schemas';
import { formatDate } from '@lp/domain/dates';
import { isBusops, mayManageServerCredentials } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { type Principal, requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { postAdjustment } from '../ledger/service.ts';
import { ingestUsage } from './ingest.ts';
import {
  issueServerCredential,
  listServerCredentials,
  revokeServerCredential,
} from './server-credentials.ts';
import { requireServer, serverPolicy } from './service.ts';

/** Ingest batches of up to 5000 events are larger than the portal's default body limit. */
const USAGE_BODY_LIMIT = 8 * 1024 * 1024;

/** Business operations and support issue and revoke license-server credentials. */
const staffOnly = (principal: Principal) => {
  if (!mayManageServerCredentials(principal.vendorRoles)) throw forbidden();
};

/**
 * The elastic license-server API (/cls/v1, bearer credential of one server) and the vendor-staff calls that
 * manage those credentials and post ledger adjustments.
 */
export function registerClsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/cls/v1/policy', async (request, reply) => {
    const server = await requireServer(ctx, request.headers.authorization);
    const { body, etag } = await serverPolicy(ctx, server);
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return body;
  });

  app.post('/cls/v1/usage', { bodyLimit: USAGE_BODY_LIMIT }, async (request) => {
    const server = await requireServer(ctx, request.headers.authorization);
    const { events } = parseInput(usageBatchSchema, request.body);
    return { status: 'SUCCESS', ...(await ingestUsage(ctx.db, server, events)) };
  });

  app.get('/api/cls/credentials', async (request) => {
    const principal = requirePrincipal(request);
    staffOnly(principal);
    const { customerNumber } = parseInput(
      z.object({ customerNumber: z.string().min(1).max(64) }),
      request.query,
    );
    // Unknown and export-blocked accounts are refused for staff too (docs/decisions/006).
    await authorizeAccount(ctx, principal, customerNumber, 'read');
    const rows = await listServerCredentials(ctx.db, customerNumber);
    return {
      status: 'SUCCESS',
      data: rows.map((r) => ({
        id: r.id,
        clsId: r.clsId,
        createdAt: r.createdAt.toISOString(),
        createdBy: r.createdBy,
        revokedAt: r.revokedAt?.toISOString() ?? null,
      })),
    };
  });

  app.post('/api/cls/credentials', async (request) => {
    const principal = requirePrincipal(request);
    staffOnly(principal);
    const input = parseInput(issueCredentialRequestSchema, request.body);
    // Support may issue although view-only on accounts: the staff role is the write permission here.
    await authorizeAccount(ctx, principal, input.customerNumber, 'read');
    const issued = await issueServerCredential(ctx.db, { ...input, createdBy: principal.email });
    return { status: 'SUCCESS', data: { ...issued, ...input } };
  });

  app.delete('/api/cls/credentials/:id', async (request) => {
    staffOnly(requirePrincipal(request));
    const { id } = parseInput(z.object({ id: z.uuid() }), request.params);
    if (!(await revokeServerCredential(ctx.db, id))) throw notFound();
    return { status: 'SUCCESS' };
  });

  app.post('/api/elastic/adjustments', async (request) => {
    const principal = requirePrincipal(request);
    if (!isBusops(principal.vendorRoles)) throw forbidden();
    const input = parseInput(adjustmentRequestSchema, request.body);
    await authorizeAccount(ctx, principal, input.customerNumber, 'edit');
    const data = await ctx.db.transaction((tx) =>
      postAdjustment(tx, { ...input, day: input.day ?? formatDate(new Date()), createdBy: principal.email }),
    );
    return { status: 'SUCCESS', data };
  });
}
