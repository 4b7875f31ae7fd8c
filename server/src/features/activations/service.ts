import type { ActivationRow } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import { groupHistory, type HistoryEvent } from '@lp/domain/activation-history';
import { toLeaseRow } from '@lp/domain/lease-entitlements';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccountList } from '../accounts/policy.ts';
import { type SslEntitlement, sslEntitlements } from '../entitlements/service.ts';
import {
  findAccountHost,
  type HostRow,
  listHosts,
  parseHost,
  presentHost,
  unknownHost,
} from '../license-servers/service.ts';
import { entitlementsOfFulfillments, listEvents, listLiveFulfillmentsOfAccounts } from './repository.ts';

/** The entitlement as the lease rules see it (maintenance-expired, expired, seats available). */
export const leaseRowOf = (e: SslEntitlement, now: Date) =>
  toLeaseRow(
    {
      ActivationId: e.activationId,
      ProductName: e.productName,
      LineItemQuantity: e.quantity,
      StartDate: e.startDate,
      EndDate: e.endDate,
      VersionDate: e.versionDate,
      LicenseModel: e.licenseModel,
      IsActivationPermanent: e.endDate === null ? 'true' : 'false',
      Type: e.isEvaluation ? 'Evaluation' : '',
      Activated: e.activated,
    },
    now,
  );

/** Spec 002 §3 activation row; `onHost` = seats on the host (assigned rows) or undefined (available rows). */
function presentActivation(
  e: SslEntitlement,
  account: { AccountID: string; AccountName: string },
  now: Date,
  onHost?: { id: number; count: number },
): ActivationRow {
  const row = leaseRowOf(e, now);
  return {
    activationid: e.activationId,
    ansysproduct: e.productName,
    partNumber: e.partNumber,
    ansyslicensemodel: e.licenseModel,
    isEval: e.isEvaluation,
    ansyscount: e.quantity,
    ansysactivated: onHost ? onHost.count : row.ansysactivated,
    ansysavailable: row.ansysavailable,
    ansysborrowable: row.ansysborrowable,
    startdate: e.startDate,
    enddate: e.endDate,
    versiondate: e.versionDate,
    remainingdays: row.remainingdays,
    usedDays: row.usedDays,
    usedDaysPercentage: row.usedDaysPercentage,
    remainingdayscolor: row.remainingdayscolor,
    maintenanceExpired: row.maintenanceExpired,
    fulfillments: onHost ? [{ FulfillmentID: onHost.id, FulfillCount: onHost.count }] : [],
    account,
  };
}

/**
 * Spec 002 §7 /api/fulfillments/allentitlements: the host's assigned rows of the account (live fulfillments) and
 * the account's available rows (remaining seats, not expired; spec 002 §4). A host not saved yet, or one the
 * account does not use yet (an associated account about to share it), has no assigned rows: the answer is the
 * same whether such a host exists or not. With `requireHost` (/api/fulfillments/entitlements) it is a 404.
 */
export async function hostActivations(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId?: string; serverIdType?: string },
  requireHost = false,
) {
  const access = await authorizeAccountList(ctx, principal, request.customerNumber, 'activations');
  if (!access) return { server: null, assigned: [], available: [] };
  const { customer } = access;
  const account = { AccountID: customer.customerNumber, AccountName: customer.customerName };
  const now = new Date();
  const entitlements = await sslEntitlements.ofAccount(ctx.db, request.customerNumber);
  let host: { host: HostRow; members: unknown[] } | undefined;
  if (request.serverId) {
    host = await findAccountHost(
      ctx.db,
      request.customerNumber,
      request.serverId,
      request.serverIdType ?? 'ETHERNET',
    );
    if (!host && requireHost) throw notFound(messages.unableFetchServerEntitlements(request.serverId));
  }
  const live = host
    ? await listLiveFulfillmentsOfAccounts(ctx.db, host.host.id, [request.customerNumber])
    : [];
  const byId = new Map(entitlements.map((e) => [e.id, e]));
  const assigned = live.flatMap((f) => {
    const e = byId.get(f.entitlementId);
    return e ? [presentActivation(e, account, now, { id: f.id, count: f.count })] : [];
  });
  const available = entitlements
    .map((e) => presentActivation(e, account, now))
    .filter((r) => r.ansysavailable > 0 && r.remainingdays !== 'EXPIRED');
  return {
    server: host ? presentHost(host.host, host.members.length) : null,
    assigned,
    available,
  };
}

/** Spec 002 §7 /api/fulfillments/entitlements: the account's rows activated on a host. */
export async function hostEntitlements(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; serverId?: string; serverIdType?: string },
) {
  if (!request.serverId) throw badRequest('Server id is not defined');
  return (await hostActivations(ctx, principal, request, true)).assigned;
}

/** A fulfillment as its audit entries name it. */
export const fulfillmentObject = (id: number) => ({ type: 'fulfillment', id: String(id) });

/**
 * Spec 002 §2 history page: the account's history on each requested host it uses (others are left out), grouped
 * by spec 002 §4 (decision 032). One read of the account's hosts and one of the events, whatever the host count.
 */
export async function hostsHistory(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; hostIds: { hostId: string; hostIdType: string }[] },
) {
  const accountHosts = new Map(
    (await listHosts(ctx, principal, request.customerNumber)).map((h) => [h.hostIdentifier, h]),
  );
  const hosts = request.hostIds.flatMap((h) => {
    const found = accountHosts.get(parseHost(h.hostId, h.hostIdType).key);
    return found ? [found] : [];
  });
  const events = await listEvents(
    ctx.db,
    hosts.map((h) => h.id),
    request.customerNumber,
  );
  const entitlementOf = new Map(
    (await entitlementsOfFulfillments(ctx.db, [...new Set(events.map((e) => e.fulfillmentId))])).map((f) => [
      f.id,
      f.entitlementId,
    ]),
  );
  const entitlements = new Map(
    (await sslEntitlements.byIds(ctx.db, [...new Set(entitlementOf.values())])).map((e) => [e.id, e]),
  );
  const byHost = new Map<number, HistoryEvent[]>(hosts.map((h) => [h.id, []]));
  for (const e of events) {
    const ent = entitlements.get(entitlementOf.get(e.fulfillmentId) ?? 0);
    byHost.get(e.serverId)?.push({
      time: e.time,
      modifiedBy: e.modifiedBy,
      count: e.count,
      customerNumber: request.customerNumber,
      activationId: ent?.activationId ?? '',
      product: ent?.productName ?? '',
      startDate: ent?.startDate ?? '',
      endDate: ent?.endDate ?? null,
      versionDate: ent?.versionDate ?? null,
    });
  }
  return hosts.map((h) => ({
    hostId: h.serverId,
    hostIdType: h.serverIdType,
    rows: groupHistory(byHost.get(h.id) ?? []),
  }));
}

/**
 * What a license file lists (spec 002 §5, for the license-files feature; no authorization check): the live
 * fulfillments of the given accounts on a host, each with its entitlement.
 */
export async function liveLinesOf(db: Db, serverId: number, customerNumbers: string[]) {
  const live = await listLiveFulfillmentsOfAccounts(db, serverId, customerNumbers);
  const entitlements = new Map(
    (await sslEntitlements.byIds(db, [...new Set(live.map((f) => f.entitlementId))])).map((e) => [e.id, e]),
  );
  return live.flatMap((f) => {
    const entitlement = entitlements.get(f.entitlementId);
    return entitlement
      ? [{ fulfillmentId: f.id, customerNumber: f.customerNumber, count: f.count, entitlement }]
      : [];
  });
}

/** One line of a license file to be: an entitlement and the seats the host would hold of it. */
export interface PlannedLine {
  customerNumber: string;
  count: number;
  entitlement: SslEntitlement;
}

/**
 * The license-change preview's lines (decision 032; no authorization check: the caller has passed the account
 * gate): the customer's live lines on the host, and the lines after these returns and creates, counted as the
 * save would (a create adds to the entitlement's fulfillment on the host). `serverId` null: a host the account
 * does not use yet, which has no lines. A return that is not the customer's live fulfillment on the host answers
 * 404 like an unknown host; an activation id that is not the customer's like a create would.
 */
export async function plannedLinesOf(
  db: Db,
  serverId: number | null,
  customerNumber: string,
  change: { returns: { id: number; count: number }[]; creates: { id: string; count: number }[] },
): Promise<{ before: PlannedLine[]; after: PlannedLine[] }> {
  const before = serverId === null ? [] : await liveLinesOf(db, serverId, [customerNumber]);
  const counts = new Map(before.map((l) => [l.entitlement.id, l.count]));
  const byEntitlement = new Map(before.map((l) => [l.entitlement.id, l.entitlement]));
  for (const r of change.returns) {
    const line = before.find((l) => l.fulfillmentId === r.id);
    if (!line) throw notFound(unknownHost);
    const left = (counts.get(line.entitlement.id) ?? 0) + r.count;
    if (left < 0) throw new AppError('CONFLICT', messages.returnOverActivated);
    counts.set(line.entitlement.id, left);
  }
  if (change.creates.length > 0) {
    const own = new Map(
      (await sslEntitlements.ofAccount(db, customerNumber)).map((e) => [e.activationId, e]),
    );
    for (const c of change.creates) {
      const e = own.get(c.id);
      if (!e) throw notFound(messages.unknownActivation(c.id));
      byEntitlement.set(e.id, e);
      counts.set(e.id, (counts.get(e.id) ?? 0) + c.count);
    }
  }
  const after = [...byEntitlement.values()].flatMap((entitlement) => {
    const count = counts.get(entitlement.id) ?? 0;
    return count > 0 ? [{ customerNumber, count, entitlement }] : [];
  });
  return {
    before: before.map(({ customerNumber: cn, count, entitlement }) => ({
      customerNumber: cn,
      count,
      entitlement,
    })),
    after,
  };
}
