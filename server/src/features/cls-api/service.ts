import { createHash } from 'node:crypto';
import type { PolicyResponse } from '@lp/contract/cls/schemas';
import { messages } from '@lp/contract/common/errors';
import { formatDate } from '@lp/domain/dates';
import { rateTableFor } from '@lp/domain/elastic-rating';
import { isExportBlocked } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { accounts } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { getElasticServerPolicy } from '../credentials/service.ts';
import { ipRulesOf } from '../ip-rules/service.ts';
import { ledgerEntitlements } from '../ledger/service.ts';
import { elasticServersOf } from '../license-servers/service.ts';
import type { ElasticServer } from './ingest.ts';
import { loadRateTables, newestVersion } from './repository.ts';
import { authenticateServer } from './server-credentials.ts';

/**
 * The rate tables (version → product → rate) and the newest version among them, for rating usage outside an
 * ingest (the demo world's generated sessions).
 */
export async function rateTables(
  db: Db,
): Promise<{ rates: Map<string, Map<string, number>>; newest: string }> {
  const rates = await loadRateTables(db);
  return { rates, newest: newestVersion(rates.keys()) };
}

/** The license server behind a request's bearer token; its account must not be export-blocked or disabled. */
export async function requireServer(
  ctx: AppContext,
  authorization: string | undefined,
): Promise<ElasticServer> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  const server = token ? await authenticateServer(ctx.db, token) : null;
  if (!server) throw new AppError('UNAUTHENTICATED', messages.notSignedIn);
  const [account] = await ctx.db
    .select({ status: accounts.exportControlStatus, disabled: accounts.isAccessDisabled })
    .from(accounts)
    .where(eq(accounts.customerNumber, server.customerNumber));
  if (!account || isExportBlocked(account.status)) throw forbidden(messages.exportDenied);
  if (account.disabled) throw forbidden();
  return server;
}

/** What the license server enforces: PIN, allowed usernames, IP allow-list, and the products it may rate. */
export async function serverPolicy(ctx: AppContext, server: ElasticServer, now = new Date()) {
  const { customerNumber, elasticServerId } = server;
  const [{ pin, users }, ipRules, servers, entitlements, rates] = await Promise.all([
    getElasticServerPolicy(ctx, customerNumber, elasticServerId),
    ipRulesOf(ctx.db, customerNumber, elasticServerId),
    elasticServersOf(ctx.db, customerNumber),
    ledgerEntitlements(ctx.db, customerNumber),
    loadRateTables(ctx.db),
  ]);
  const version = rateTableFor(entitlements, formatDate(now), newestVersion(rates.keys()));
  const body: PolicyResponse = {
    status: 'SUCCESS',
    clsId: elasticServerId,
    alias: servers.find((s) => s.hostIdentity === elasticServerId)?.alias ?? '',
    pin,
    users,
    ipRules: ipRules.map((r) => ({ ruleName: r.rulename, ipAddress: r.ipaddress })),
    products: [...(rates.get(version)?.keys() ?? [])].sort(),
    rateTableVersion: version,
  };
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
  return { body, etag };
}
