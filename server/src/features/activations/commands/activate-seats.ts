import type { CreateRequest } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import type { AppContext } from '../../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../../platform/errors.ts';
import type { Principal } from '../../../platform/principal.ts';
import { sslEntitlements } from '../../entitlements/service.ts';
import { hostForCreate, lockAccountHost, lockHostOf, withHostWrite } from '../../license-servers/service.ts';
import { addToFulfillment, findFulfillment, insertEvent } from '../repository.ts';
import { fulfillmentObject, leaseRowOf } from '../service.ts';

/** The create's fields the server reads: the operation key covers these (decision 063). */
const fieldsOf = (r: CreateRequest) => ({
  customerNumber: r.customerNumber,
  serverName: r.serverName,
  serverId: r.serverId,
  serverIdType: r.serverIdType,
  portNumber: r.portNumber,
  ansysborrowable: r.ansysborrowable,
  type: r.type,
  prevServer: r.prevServer,
  activations: r.activations.map((a) => ({ id: a.id, count: a.count, customer: a.customer })),
});

/**
 * Spec 002 §7 /api/fulfillments/create: activates seats on a host in one host unit of work (the host is added when
 * new, after the spec 002 §5 checks of `hostForCreate`). Every seat is taken by one conditional update of the
 * entitlement's activated count, so parallel batches never overdraw; any refused line rolls the whole batch back.
 * With an operationKey a retried batch changes nothing. Audited: the host's changes, one entry per fulfillment
 * ('fulfillments.created', or 'fulfillments.rehosted' naming the source host) with its activation id, host and
 * seats, and the host activated.
 */
export async function activateSeats(ctx: AppContext, principal: Principal, request: CreateRequest) {
  const now = new Date();
  const { result, replayed } = await withHostWrite(ctx, principal, {
    operation: 'create',
    customerNumber: request.customerNumber,
    key: request.operationKey,
    fields: fieldsOf(request),
    lock: (tx) => lockHostOf(tx, request.serverId, request.serverIdType),
    run: async ({ tx, editors, audit, settle }, found) => {
      for (const a of request.activations)
        if (a.customer && a.customer !== request.customerNumber)
          throw badRequest('Every activation of a batch must belong to its customerNumber.');
      const { host, inserted, changes } = await hostForCreate(tx, editors, principal, request, found);
      audit.push(...changes);
      const prev = request.prevServer
        ? (
            await lockAccountHost(
              tx,
              request.customerNumber,
              request.prevServer.serverId,
              request.prevServer.serverIdType,
            )
          ).host
        : undefined;
      let total = 0;
      const seats = new Map<number, { activationId: string; before: number; after: number }>();
      for (const a of request.activations) {
        const e = await sslEntitlements.lock(tx, request.customerNumber, a.id);
        if (!e) throw notFound(messages.unknownActivation(a.id));
        const row = leaseRowOf(e, now);
        if (row.maintenanceExpired) throw badRequest(`${messages.maintenanceExpired} ${e.productName}`);
        if (row.remainingdays === 'EXPIRED') throw badRequest(messages.entitlementExpired(a.id));
        // The one seat rule (decision 031): a Shared Web or Named User line has no seat to activate on a host.
        if (row.ansysavailable < a.count || !(await sslEntitlements.changeActivated(tx, e.id, a.count)))
          throw new AppError('CONFLICT', messages.activatedOverAvailable);
        const parent = prev ? await findFulfillment(tx, prev.id, e.id) : undefined;
        const { id: fulfillmentId, count } = await addToFulfillment(tx, {
          serverId: host.id,
          entitlementId: e.id,
          customerNumber: request.customerNumber,
          count: a.count,
          parentId: parent?.id ?? null,
        });
        await insertEvent(tx, {
          fulfillmentId,
          serverId: host.id,
          customerNumber: request.customerNumber,
          time: now,
          modifiedBy: principal.email,
          action: 'ACTIVATE',
          count: a.count,
          lifecycleAction: request.type === 'rehost' ? 'rehost' : 'new',
          parentFulfillmentId: parent?.id ?? null,
        });
        total += a.count;
        // One entry per fulfillment, even when the batch names its entitlement twice.
        const before = seats.get(fulfillmentId)?.before ?? count - a.count;
        seats.set(fulfillmentId, { activationId: e.activationId, before, after: count });
      }
      // A host added by this batch is recorded as added (its passing Unknown state is not a change).
      settle(host, 'Active', request.customerNumber, inserted);
      const rehost = request.type === 'rehost';
      for (const [id, f] of seats) {
        const before = {
          ...(f.before > 0 ? { count: f.before } : {}),
          ...(rehost && prev ? { host: prev.hostIdentity } : {}),
        };
        audit.push({
          customerNumber: request.customerNumber,
          action: rehost ? 'fulfillments.rehosted' : 'fulfillments.created',
          object: fulfillmentObject(id),
          before: Object.keys(before).length > 0 ? before : null,
          after: { activationId: f.activationId, host: host.hostIdentity, count: f.after },
        });
      }
      return { count: total };
    },
  });
  return { count: result.count, replayed };
}
