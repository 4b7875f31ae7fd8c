import {
  adjustmentRequestSchema,
  issueCredentialRequestSchema,
  usageBatchSchema,
} from '@lp/contract/cls/schemas';
import { formatDate } from '@lp/domain/dates';
import { isBusops, mayManageServerCredentials } from '@lp/domain/policy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { type Principal, requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { authorizeAccount, authorizeAccountOf } from '../accounts/policy.ts';
import { postAdjustment } from '../ledger/service.ts';
import { type ElasticServer, ingestUsage } from './ingest.ts';
import {
  findServerCredentialOwner,
  issueServerCredential,
  listServerCredentials,
  revokeServerCredential,
} from './server-credentials.ts';
import { requireServer, serverPolicy } from './service.ts';

/** Ingest batches of up to 5000 events are larger than the portal's default body limit. */
const USAGE_BODY_LIMIT = 8 * 1024 * 1024;

/** Business operations and support (where not view-only) issue and revoke license-server credentials. */
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

  // The credential is checked in onRequest, before up to 8 MB of body is read and parsed.
  const usageServer = new WeakMap<FastifyRequest, ElasticServer>();
  app.post(
    '/cls/v1/usage',
    {
      bodyLimit: USAGE_BODY_LIMIT,
      config: { checksItemsItself: true },
      onRequest: async (request) => {
        usageServer.set(request, await requireServer(ctx, request.headers.authorization));
      },
    },
    async (request) => {
      const server = usageServer.get(request) as ElasticServer;
      const { events } = parseInput(usageBatchSchema, request.body);
      return {
        status: 'SUCCESS',
        ...(await ingestUsage(ctx.db, server, events, new Date(), ctx.config.CLS_BACKFILL_DAYS)),
      };
    },
  );

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
    // The staff role admits the caller; issuing is still an account write, so view-only is refused (decision 022).
    await authorizeAccount(ctx, principal, input.customerNumber, 'edit');
    const issued = await issueServerCredential(ctx.db, { ...input, createdBy: principal.email });
    return { status: 'SUCCESS', data: { ...issued, ...input } };
  });

  app.delete('/api/cls/credentials/:id', async (request) => {
    const principal = requirePrincipal(request);
    staffOnly(principal);
    const { id } = parseInput(z.object({ id: z.uuid() }), request.params);
    // The credential's account passes the same gate as issuing one, as an account write (export-controlled accounts are refused).
    const owner = await findServerCredentialOwner(ctx.db, id);
    await authorizeAccountOf(ctx, principal, owner, 'edit', notFound());
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
