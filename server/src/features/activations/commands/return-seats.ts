import type { returnRequestSchema } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import type { z } from 'zod';
import type { AppContext } from '../../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../../platform/errors.ts';
import type { Principal } from '../../../platform/principal.ts';
import { sslEntitlements } from '../../entitlements/service.ts';
import { lockHostsAndTarget, refuseRehostTarget, withHostWrite } from '../../license-servers/service.ts';
import {
  hostHasLiveFulfillments,
  hostsOfFulfillments,
  insertEvent,
  lockFulfillment,
  setFulfillmentCount,
} from '../repository.ts';
import { fulfillmentObject, leaseRowOf } from '../service.ts';

type ReturnRequest = z.output<typeof returnRequestSchema>;

/** The return's fields the server reads: the operation key covers these (decision 063). */
const fieldsOf = (r: ReturnRequest) => ({
  customerNumber: r.customerNumber,
  lifecycle: r.lifecycle,
  rehostTarget: r.rehostTarget,
  activations: r.activations.map((a) => ({ id: a.id, count: a.count, customer: a.customer })),
});

/**
 * Spec 002 §7 /api/fulfillments/return: returns seats (negative counts) of the account's fulfillments in one host
 * unit of work; a host left with nothing activated becomes Inactive. A rehost's target is refused first, as its
 * create would refuse it, so a refused target leaves the source as it was (decision 047). Idempotent with an
 * operationKey. Audited: one 'fulfillments.returned' entry per fulfillment (its seats before and after), and each
 * host deactivated.
 */
export async function returnSeats(ctx: AppContext, principal: Principal, request: ReturnRequest) {
  const now = new Date();
  const { result, replayed } = await withHostWrite(ctx, principal, {
    operation: 'return',
    customerNumber: request.customerNumber,
    key: request.operationKey,
    fields: fieldsOf(request),
    lock: async (tx) =>
      lockHostsAndTarget(
        tx,
        await hostsOfFulfillments(
          tx,
          request.activations.map((a) => a.id),
        ),
        request.rehostTarget,
      ),
    run: async ({ tx, editors, audit, settle }, locked) => {
      if (request.rehostTarget)
        await refuseRehostTarget(tx, editors, request.customerNumber, request.rehostTarget, locked.target);
      const hosts = new Set<number>();
      const seats = new Map<number, { before: number; after: number }>();
      let total = 0;
      for (const a of request.activations) {
        const f = await lockFulfillment(tx, a.id);
        if (!f || f.customerNumber !== request.customerNumber || f.count <= 0)
          throw notFound(messages.unknownFulfillment(a.id));
        const [e] = await sslEntitlements.byIds(tx, [f.entitlementId]);
        if (leaseRowOf(e, now).maintenanceExpired)
          throw badRequest(`${messages.maintenanceExpired} ${e.productName}`);
        const n = -a.count;
        if (n > f.count || !(await sslEntitlements.changeActivated(tx, e.id, -n)))
          throw new AppError('CONFLICT', messages.returnOverActivated);
        await setFulfillmentCount(tx, f.id, f.count - n);
        await insertEvent(tx, {
          fulfillmentId: f.id,
          serverId: f.serverId,
          customerNumber: request.customerNumber,
          time: now,
          modifiedBy: principal.email,
          action: 'RETURN',
          count: -n,
          lifecycleAction: request.lifecycle ?? 'return',
        });
        hosts.add(f.serverId);
        total += n;
        seats.set(f.id, { before: seats.get(f.id)?.before ?? f.count, after: f.count - n });
      }
      for (const [id, { before, after }] of seats)
        audit.push({
          customerNumber: request.customerNumber,
          action: 'fulfillments.returned',
          object: fulfillmentObject(id),
          before: { count: before },
          after: { count: after },
        });
      for (const host of locked.hosts)
        if (hosts.has(host.id) && !(await hostHasLiveFulfillments(tx, host.id)))
          settle(host, 'Inactive', request.customerNumber);
      return { count: total };
    },
  });
  return { count: result.count, replayed };
}
