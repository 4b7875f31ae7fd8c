import { clsApi } from '@lp/contract/cls/api';
import { formatDate } from '@lp/domain/dates';
import { isBusops, mayManageServerCredentials } from '@lp/domain/policy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { measureVisibility } from '../../platform/read-routing.ts';
import { route } from '../../platform/route.ts';
import { authorizeAccount, authorizeAccountOf } from '../accounts/policy.ts';
import { auditActor } from '../audit/service.ts';
import { adjustBalance } from '../ledger/service.ts';
import { type ElasticServer, type IngestResult, ingestUsage } from './ingest.ts';
import {
  findServerCredentialOwner,
  issueServerCredential,
  listServerCredentials,
  revokeServerCredential,
} from './server-credentials.ts';
import { requireServer, serverPolicy } from './service.ts';

/** Ingest batches of up to 5000 events are larger than the portal's default body limit. */
const USAGE_BODY_LIMIT = 8 * 1024 * 1024;

/** Decision 055: events accepted and refused, and how late each accepted one arrived (ingest time − its time). */
function countUsage(ctx: AppContext, events: readonly unknown[], result: IngestResult, now: Date) {
  const metrics = ctx.metrics;
  if (!metrics) return;
  metrics.usageEvents.inc({ outcome: 'accepted' }, result.accepted);
  metrics.usageEvents.inc({ outcome: 'rejected' }, result.rejected.length);
  const refused = new Set(result.rejected.map((r) => r.index));
  events.forEach((event, index) => {
    if (refused.has(index)) return;
    const time = Date.parse((event as { time: string }).time);
    metrics.usageLag.observe(Math.max(0, (now.getTime() - time) / 1000));
  });
}

/** Business operations and support (where not view-only) issue and revoke license-server credentials. */
const staffOnly = (principal: Principal) => {
  if (!mayManageServerCredentials(principal.vendorRoles)) throw forbidden();
};

/**
 * The elastic license-server API (/cls/v1, bearer credential of one server) and the vendor-staff calls that
 * manage those credentials and post ledger adjustments.
 */
export function registerClsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    clsApi.policy,
  )(async ({ request, reply }) => {
    const server = await requireServer(ctx, request.headers.authorization);
    const { body, etag } = await serverPolicy(ctx, server);
    // The policy holds the PIN: no cache may keep it (the platform's no-store); the server keeps its own copy.
    reply.header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return body;
  });

  // The credential is checked in onRequest, before up to 8 MB of body is read and parsed.
  const usageServer = new WeakMap<FastifyRequest, ElasticServer>();
  const usageOptions = {
    fastify: {
      bodyLimit: USAGE_BODY_LIMIT,
      config: { checksItemsItself: true },
      onRequest: async (request: FastifyRequest) => {
        usageServer.set(request, await requireServer(ctx, request.headers.authorization));
      },
    },
  };
  route(
    app,
    ctx,
    clsApi.usage,
    usageOptions,
  )(async ({ request, body }) => {
    const server = usageServer.get(request) as ElasticServer;
    const now = new Date();
    const result = await ingestUsage(ctx.db, server, body.events, now, ctx.config.CLS_BACKFILL_DAYS);
    countUsage(ctx, body.events, result, now);
    if (result.accepted > 0) await measureVisibility(ctx, now.getTime());
    return result;
  });

  const staff = { guard: staffOnly };
  route(
    app,
    ctx,
    clsApi.listCredentials,
    staff,
  )(async ({ principal, query }) => {
    // Unknown and export-blocked accounts are refused for staff too (docs/decisions/006).
    await authorizeAccount(ctx, principal, query.customerNumber, 'read');
    const rows = await listServerCredentials(ctx.db, query.customerNumber);
    return {
      data: rows.map((r) => ({
        id: r.id,
        clsId: r.elasticServerId,
        createdAt: r.createdAt.toISOString(),
        createdBy: r.createdBy,
        revokedAt: r.revokedAt?.toISOString() ?? null,
      })),
    };
  });

  route(
    app,
    ctx,
    clsApi.issueCredential,
    staff,
  )(async ({ principal, body }) => {
    // The staff role admits the caller; issuing is still an account write, so view-only is refused (decision 022).
    await authorizeAccount(ctx, principal, body.customerNumber, 'edit');
    const issued = await issueServerCredential(
      ctx.db,
      { customerNumber: body.customerNumber, elasticServerId: body.clsId, createdBy: principal.email },
      auditActor(principal),
    );
    return { data: { ...issued, ...body } };
  });

  route(
    app,
    ctx,
    clsApi.revokeCredential,
    staff,
  )(async ({ principal, params }) => {
    // The credential's account passes the same gate as issuing one, as an account write (export-controlled accounts are refused).
    const owner = await findServerCredentialOwner(ctx.db, params.id);
    await authorizeAccountOf(ctx, principal, owner, 'edit', notFound());
    if (!(await revokeServerCredential(ctx.db, params.id, auditActor(principal)))) throw notFound();
  });

  const busops = {
    guard: (principal: Principal) => {
      if (!isBusops(principal.vendorRoles)) throw forbidden();
    },
  };
  route(
    app,
    ctx,
    clsApi.adjust,
    busops,
  )(async ({ principal, body }) => {
    await authorizeAccount(ctx, principal, body.customerNumber, 'edit');
    const data = await adjustBalance(ctx.db, auditActor(principal), {
      ...body,
      day: body.day ?? formatDate(new Date()),
      createdBy: principal.email,
    });
    return { data };
  });
}
