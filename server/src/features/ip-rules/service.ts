import type { ElasticServer, IpRuleDto } from '@lp/contract/ip-rules/schemas';
import { checkIpRules, firstIpRuleProblem } from '@lp/domain/ip-rules';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { auditActor, recordAudit } from '../audit/service.ts';
import { elasticServersOf } from '../license-servers/service.ts';
import { listIpRules, replaceIpRules } from './repository.ts';

export const unknownServer = 'No activated elastic license server with this id for this account.';

export async function activatedElasticServers(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
): Promise<ElasticServer[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  const rows = await elasticServersOf(ctx.db, customerNumber);
  return rows.map((r) => ({ DeviceID: r.hostIdentity, Alias: r.alias ?? '' }));
}

/** Whether elasticServerId is an activated elastic license server of the account. */
export async function isActiveElasticServer(
  db: Db,
  customerNumber: string,
  elasticServerId: string,
): Promise<boolean> {
  const servers = await elasticServersOf(db, customerNumber);
  return servers.some((s) => s.hostIdentity === elasticServerId);
}

/** An elasticServerId names a server only within its account: another account's server id is as unknown as a made-up one. */
export async function requireElasticServer(db: Db, customerNumber: string, elasticServerId: string) {
  if (!(await isActiveElasticServer(db, customerNumber, elasticServerId))) throw notFound(unknownServer);
}

/** A server's allow-list in order, without an authorization check (the license server's own policy call). */
export async function ipRulesOf(
  db: Db,
  customerNumber: string,
  elasticServerId: string,
): Promise<IpRuleDto[]> {
  return listIpRules(db, customerNumber, elasticServerId);
}

export async function getIpRules(
  ctx: AppContext,
  principal: Principal,
  customerNumber: string,
  elasticServerId: string,
): Promise<IpRuleDto[]> {
  await authorizeAccount(ctx, principal, customerNumber, 'read');
  await requireElasticServer(ctx.db, customerNumber, elasticServerId);
  return listIpRules(ctx.db, customerNumber, elasticServerId);
}

/** Replaces the server's allow-list in one transaction with the validated, normalised rules (audited when it changes). */
export async function setIpRules(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; elasticServerId: string; whitelist: IpRuleDto[] },
): Promise<IpRuleDto[]> {
  const { customerNumber, elasticServerId } = request;
  await authorizeAccount(ctx, principal, customerNumber, 'edit');
  await requireElasticServer(ctx.db, customerNumber, elasticServerId);
  const check = checkIpRules(request.whitelist);
  const problem = firstIpRuleProblem(check);
  if (problem) throw badRequest(problem);
  await ctx.db.transaction(async (tx) => {
    const before = await listIpRules(tx, customerNumber, elasticServerId);
    await replaceIpRules(tx, customerNumber, elasticServerId, check.normalised);
    await recordAudit(tx, auditActor(principal), [
      {
        customerNumber,
        action: 'ip-rules.changed',
        object: { type: 'ip-rules', id: elasticServerId },
        before: { rules: before },
        after: { rules: check.normalised },
      },
    ]);
  });
  return check.normalised;
}
