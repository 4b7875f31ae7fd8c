import { type CatalogueProduct, FSA_MANUAL_PART, sslProducts } from '../catalogue.ts';
import type { AccountScope } from './accounts.ts';
import { addEntitlement, type WorldContext } from './context.ts';
import type { EntitlementRow } from './types.ts';

/**
 * Leases and perpetuals (SSL) of one account. An account with enough of them gets one of every state first
 * (active, expiring in 30 days, not started, evaluation, ...), so each filter and badge has something to show.
 */
export function addLeases(ctx: WorldContext, { cn, plan }: AccountScope): EntitlementRow[] {
  const { rng, day } = ctx;
  const allowed = sslProducts.filter(
    (x) =>
      (x.licenseType === 'server' && x.partNumber !== FSA_MANUAL_PART) ||
      (x.licenseType === 'shared' && plan.shared) ||
      (x.licenseType === 'named' && plan.named),
  );
  const forced = [
    'active',
    'perpetual',
    'expired',
    'active-30',
    'not-started',
    'evaluation',
    'perpetual-maintenance-expired',
    'active-90',
    'evaluation-expired',
  ];
  const ssl: EntitlementRow[] = [];
  for (let k = 0; k < plan.ssl; k++) {
    let product: CatalogueProduct;
    if (k === 1 && plan.shared) product = rng.pick(allowed.filter((x) => x.licenseType === 'shared'));
    else if (k === 2 && plan.named) product = rng.pick(allowed.filter((x) => x.licenseType === 'named'));
    else product = rng.pick(allowed);
    const scenario =
      plan.ssl >= forced.length && k < forced.length
        ? forced[k]
        : rng.weighted([
            ['active', 45],
            ['perpetual', 15],
            ['expired', 14],
            ['active-30', 5],
            ['active-90', 6],
            ['not-started', 5],
            ['evaluation', 4],
            ['evaluation-expired', 3],
            ['perpetual-maintenance-expired', 3],
          ] as const);
    const duration = rng.pick([365, 730, 1095]);
    let start: number;
    let end: number | null;
    let versionDate: string | null = null;
    switch (scenario) {
      case 'active':
        end = rng.int(91, 700);
        start = Math.min(end - duration + 1, -rng.int(1, 60));
        break;
      case 'active-30':
        end = rng.int(1, 30);
        start = end - 364;
        break;
      case 'active-90':
        end = rng.int(31, 90);
        start = end - 364;
        break;
      case 'expired':
        end = -rng.int(1, 500);
        start = end - duration + 1;
        break;
      case 'not-started':
        start = rng.int(1, 60);
        end = start + 364;
        break;
      case 'evaluation':
        start = -rng.int(1, 20);
        end = start + 29;
        break;
      case 'evaluation-expired':
        start = -rng.int(40, 200);
        end = start + 29;
        break;
      default:
        start = -rng.int(100, 2000);
        end = null;
        versionDate = day(scenario === 'perpetual' ? rng.int(30, 365) : -rng.int(10, 400));
    }
    const quantity = product.hpc
      ? rng.pick([8, 16, 32, 64, 128])
      : product.licenseType === 'server'
        ? rng.weighted([
            [1, 4],
            [2, 3],
            [rng.int(3, 10), 3],
            [rng.int(11, 40), 1],
          ] as const)
        : rng.int(5, 50);
    ssl.push(
      addEntitlement(ctx, {
        customerNumber: cn,
        kind: 'SSL',
        licenseModel: end === null ? 'Perpetual' : 'Lease',
        licenseType: product.licenseType,
        partNumber: product.partNumber,
        quantity,
        startDate: day(start),
        endDate: end === null ? null : day(end),
        versionDate,
        isEvaluation: scenario.startsWith('evaluation'),
      }),
    );
  }
  return ssl;
}
