import { ELASTIC_PART, rateTableVersions } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import { addEntitlement, slug, type WorldContext } from './context.ts';
import type { ServerRow } from './types.ts';

/**
 * Elastic (Elastic-AEU) entitlements of one account with its elastic license server; for a 'full' plan also
 * the usage plan (periods, target used fractions, session account) that seed.ts turns into usage sessions.
 */
export function addElastic(ctx: WorldContext, { cn, plan }: AccountScope): void {
  const { rng, day, hostId, poNumber } = ctx;
  const { periods, targets, sessionAccounts } = ctx.rows;
  if (plan.elastic === 'none') return;
  const elasticServerId = hostId('ETHERNET');
  const elasticServer: ServerRow = {
    id: ctx.rows.licenseServers.length + 1,
    kind: 'elastic',
    hostIdentity: elasticServerId,
    hostIds: elasticServerId,
    hostIdTypes: 'ETHERNET',
    name: 'Elastic License Server',
    serverNames: 'Elastic License Server',
    alias: `${plan.name.split(' ').slice(0, 2).map(slug).join('-')}-cls`,
    state: 'Active',
    createdAt: ctx.at(-400, 9 * 3600),
  };
  ctx.rows.licenseServers.push(elasticServer);
  ctx.rows.licenseServerAccounts.push({
    serverId: elasticServer.id,
    customerNumber: cn,
    addedAt: elasticServer.createdAt,
  });
  const elastic = (start: number, end: number, version: string, quantity: number) =>
    addEntitlement(ctx, {
      customerNumber: cn,
      kind: 'ELASTIC',
      licenseModel: 'Elastic-AEU',
      licenseType: 'server',
      partNumber: ELASTIC_PART,
      quantity,
      startDate: day(start),
      endDate: day(end),
      poNumber: poNumber(start),
      rateTableVersion: version,
      currency: plan.currency,
    });
  if (plan.elastic === 'full') {
    // Two back-to-back periods cover the 13 months of usage history without gaps or overlaps.
    const oldStart = -rng.int(400, 460);
    const oldEnd = -rng.int(100, 200);
    const curEnd = oldEnd + 365;
    const old = elastic(oldStart, oldEnd, rng.pick(rateTableVersions.slice(0, 2)), 0);
    const cur = elastic(oldEnd + 1, curEnd, rng.pick(rateTableVersions.slice(2)), 0);
    periods.push(
      {
        customerNumber: cn,
        entitlementId: old.id,
        fromDaysAgo: -oldStart,
        toDaysAgo: -oldEnd,
        currency: plan.currency,
      },
      {
        customerNumber: cn,
        entitlementId: cur.id,
        fromDaysAgo: -(oldEnd + 1),
        toDaysAgo: -curEnd,
        currency: plan.currency,
      },
    );
    targets.push(
      { entitlementId: old.id, usedFraction: rng.pick([0.78, 0.93, 1]) },
      { entitlementId: cur.id, usedFraction: plan.elasticFraction },
    );
    if (plan.futureElastic) elastic(curEnd + 1, curEnd + 365, rateTableVersions[3], rng.int(20, 100) * 1000);
    sessionAccounts.push({
      customerNumber: cn,
      weight: Math.max(plan.weight, 1),
      elasticServerId,
      hostPrefix: slug(plan.name.split(' ')[0]),
      cloud: plan.cloud,
      userOffset: rng.int(0, 39),
      ipPrefix: rng.pick(['203.0.113', '198.51.100', '192.0.2']),
      ipBase: rng.int(10, 240),
    });
  } else if (plan.elastic === 'expired') {
    const start = -rng.int(800, 900);
    elastic(start, start + 364, rateTableVersions[0], rng.int(10, 60) * 1000);
  } else {
    const start = rng.int(5, 40);
    elastic(start, start + 364, rateTableVersions[3], rng.int(20, 100) * 1000);
  }
}
