import type { FsaContract, FsaProduct } from '@lp/contract/fsa/schemas';
import type { OrderContext, OrderProduct } from './order-lines.ts';

/**
 * Which FSA contracts the Order Products tab offers and which it picks first (spec 002 §4 "FSA entitlements and
 * order page"): contracts ending today or later; the default is the one ordered against most recently, else the
 * first of those offered.
 */

/** A contract the form can order against: one with an end date, and that date today or later. */
export type OrderableContract = FsaContract & { endDate: string };

export function offeredContracts(contracts: FsaContract[], today: string): OrderableContract[] {
  return contracts.filter((c): c is OrderableContract => c.endDate !== null && c.endDate >= today);
}

/** Spec 002 §2: the contract id plus '(ends on yyyy-mm-dd)'; the option filter matches either. */
export const contractLabel = (c: OrderableContract) => `${c.entitlementId} (ends on ${c.endDate})`;

/** The contract chosen with the Order button wins when it is offered; otherwise the spec's default. */
export function defaultContractId(offered: OrderableContract[], chosen: string | null): string | null {
  if (chosen && offered.some((c) => c.entitlementId === chosen)) return chosen;
  const ordered = offered
    .filter((c) => c.lastOrderedAt !== null)
    .sort((a, b) => (b.lastOrderedAt as string).localeCompare(a.lastOrderedAt as string));
  return (ordered[0] ?? offered[0])?.entitlementId ?? null;
}

/** The order form's context for a contract and its products. */
export function orderContext(
  contract: OrderableContract,
  products: FsaProduct[],
  today: string,
  busops: boolean,
): OrderContext {
  return {
    contract: {
      entitlementId: contract.entitlementId,
      startDate: contract.startDate,
      endDate: contract.endDate,
      currency: contract.currency,
      remainingCents: contract.remainingCents,
    },
    products: products.map(
      (p): OrderProduct => ({
        partNumber: p.partNumber,
        name: p.name,
        manual: p.manual,
        prices: {
          price7Days: p.price7Days,
          price30Days: p.price30Days,
          price60Days: p.price60Days,
          price90Days: p.price90Days,
          price180Days: p.price180Days,
          price1Year: p.price1Year,
        },
      }),
    ),
    today,
    busops,
  };
}
