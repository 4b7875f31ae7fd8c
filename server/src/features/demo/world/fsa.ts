import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import { products as catalogue, FSA_CONTRACT_PART } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import { addEntitlement, type WorldContext } from './context.ts';
import type { EntitlementRow } from './types.ts';

/** Who gets the order confirmations of every demo contract (issue 12 §4); no random draw, so nothing else moves. */
const BUSOPS_EMAILS = 'fsa-desk@vendor.example, busops@demo.example';

/** Demo prices are whole currency units; the schema keeps cents. */
const cents = (units: number | null | undefined) => (units == null ? null : units * 100);

/**
 * Flexible Spending Account contracts of one account, their price tables and the leases ordered against
 * them (the order lines, returned). The first designed account gets every variant (a manual line, an old
 * contract) and the second a contract that starts in the future.
 */
export function addFsa(ctx: WorldContext, { cn, plan, index }: AccountScope): EntitlementRow[] {
  const { rng, day, at, workTime, poNumber } = ctx;
  const fsaLines: EntitlementRow[] = [];
  if (!plan.fsa) return fsaLines;
  const orderable = rng.shuffle(catalogue.filter((x) => x.annualPrice)).slice(0, rng.int(8, 11));
  const fx = plan.currency === 'EUR' ? 0.92 : 1;
  const contract = (start: number, end: number, orders: number, fraction: number, manual: boolean) => {
    const po = poNumber(start);
    const c = addEntitlement(ctx, {
      customerNumber: cn,
      kind: 'FSA',
      licenseModel: 'FSA',
      licenseType: 'server',
      partNumber: FSA_CONTRACT_PART,
      quantity: 1,
      startDate: day(start),
      endDate: day(end),
      poNumber: po,
      currency: plan.currency,
      priceCents: 0,
      busopsEmails: BUSOPS_EMAILS,
    });
    const prices = new Map<string, Map<number, number | null>>();
    for (const product of orderable) {
      const a = Math.round(product.annualPrice! * fx);
      const table = new Map<number, number | null>([
        [7, rng.chance(0.3) ? null : Math.round(a * 0.035)],
        [30, Math.round(a * 0.11)],
        [60, Math.round(a * 0.2)],
        [90, Math.round(a * 0.28)],
        [180, rng.chance(0.1) ? null : Math.round(a * 0.52)],
        [365, a],
      ]);
      prices.set(product.partNumber, table);
      ctx.rows.fsaPrices.push({
        contractId: c.id,
        partNumber: product.partNumber,
        price7DaysCents: cents(table.get(7)),
        price30DaysCents: cents(table.get(30)),
        price60DaysCents: cents(table.get(60)),
        price90DaysCents: cents(table.get(90)),
        price180DaysCents: cents(table.get(180)),
        price1YearCents: cents(table.get(365)),
      });
    }
    let used = 0;
    const elapsed = Math.max(Math.min(-start, end - start), 0);
    for (let i = 0; i < orders && elapsed > 0; i++) {
      const product = rng.pick(orderable);
      const table = prices.get(product.partNumber)!;
      const period = rng.pick([...table].filter(([, v]) => v !== null).map(([k]) => k));
      const orderDay = start + rng.int(0, elapsed - 1);
      const lineStart = Math.min(orderDay + rng.int(0, 14), end - 1);
      const count = rng.weighted([
        [1, 5],
        [2, 3],
        [rng.int(3, 6), 1],
      ] as const);
      const cost = count * table.get(period)!;
      used += cost;
      fsaLines.push(
        addEntitlement(ctx, {
          customerNumber: cn,
          kind: 'SSL',
          licenseModel: 'Lease',
          licenseType: 'server',
          partNumber: product.partNumber,
          quantity: count,
          startDate: day(lineStart),
          endDate: day(Math.min(lineStart + period - 1, end)),
          poNumber: po,
          currency: plan.currency,
          priceCents: cost * 100,
          fsaContractId: c.id,
          orderedAt: at(orderDay, workTime()),
          orderedBy: rng.pick([...plan.contacts.map(([e]) => e), 'busops@demo.example']),
        }),
      );
    }
    if (manual && elapsed > 0) {
      const orderDay = start + rng.int(0, elapsed - 1);
      const cost = rng.int(3, 12) * 1250;
      used += cost;
      fsaLines.push(
        addEntitlement(ctx, {
          customerNumber: cn,
          kind: 'SSL',
          licenseModel: 'Lease',
          licenseType: 'shared',
          partNumber: FSA_MANUAL_DRAWDOWN_PART,
          productName: 'Fluids Solver - Shared Web',
          quantity: rng.int(5, 20),
          startDate: day(orderDay),
          endDate: day(Math.min(orderDay + 364, end)),
          poNumber: po,
          currency: plan.currency,
          priceCents: cost * 100,
          fsaContractId: c.id,
          orderedAt: at(orderDay, workTime()),
          orderedBy: 'busops@demo.example',
        }),
      );
    }
    // The budget is chosen so that the contract shows the planned used percentage.
    c.priceCents = (fraction >= 1 ? used : Math.max(Math.ceil(used / fraction / 1000) * 1000, 50_000)) * 100;
    return c;
  };
  const start = -rng.int(60, 300);
  contract(start, start + 729, rng.int(5, 12), plan.fsaFraction, index === 0 || rng.chance(0.4));
  if (index === 0 || rng.chance(0.5)) {
    const old = -rng.int(800, 900);
    contract(old, old + 364, rng.int(2, 4), rng.pick([0.9, 1]), false);
  }
  if (index === 1 || rng.chance(0.2)) {
    const next = rng.int(10, 40);
    contract(next, next + 364, 0, 1, false).priceCents = rng.int(5, 30) * 1_000_000;
  }
  return fsaLines;
}
