import type { LicenseModelGroup, licenseModelGroups } from '@lp/domain/entitlements';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import { type CatalogueProduct, sslProducts } from '../catalogue.ts';
import type { Rng } from '../prng.ts';
import type { AccountScope } from './accounts.ts';
import { addEntitlement, type WorldContext } from './context.ts';
import type { EntitlementRow } from './types.ts';

/** A license model named in spec 002 §9's model groups (domain `licenseModelGroups`). */
export type LicenseModel = (typeof licenseModelGroups)[LicenseModelGroup][number];

/**
 * The license model of a lease or perpetual line, from its product (spec 002 §9): a '(Node)' product is Node
 * Locked, a shared product Shared Web (some ConcurrentProduct), a named one Named User, and a plain floating
 * product Network, a fair share of it Network Borrow (borrowable: the model contains 'Borrow').
 */
export function licenseModelOf(rng: Rng, product: CatalogueProduct, borrow = false): LicenseModel {
  if (product.name.includes('(Node)')) return 'Node Locked';
  if (product.licenseType === 'shared') return rng.chance(0.3) ? 'ConcurrentProduct' : 'Shared Web';
  if (product.licenseType === 'named') return 'Named User';
  return borrow || rng.chance(0.3) ? 'Network Borrow' : 'Network';
}

/**
 * Leases and perpetuals (SSL) of one account. An account with enough of them gets one of every state first
 * (active, expiring in 30 days, not started, evaluation, ...) and one line of every license-model group (its
 * first line Network Borrow, then Shared Web, Named User and Node Locked as the plan allows), so each filter
 * and badge has something to show.
 */
export function addLeases(ctx: WorldContext, { cn, plan }: AccountScope): EntitlementRow[] {
  const { rng, day } = ctx;
  const allowed = sslProducts.filter(
    (x) =>
      (x.licenseType === 'server' && x.partNumber !== FSA_MANUAL_DRAWDOWN_PART) ||
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
  // Accounts with a line of every state get a line of every model group too.
  const designed = plan.ssl >= forced.length;
  const ssl: EntitlementRow[] = [];
  for (let k = 0; k < plan.ssl; k++) {
    let product: CatalogueProduct;
    if (k === 1 && plan.shared) product = rng.pick(allowed.filter((x) => x.licenseType === 'shared'));
    else if (k === 2 && plan.named) product = rng.pick(allowed.filter((x) => x.licenseType === 'named'));
    else if (k === 3 && designed) product = rng.pick(allowed.filter((x) => x.name.includes('(Node)')));
    else product = rng.pick(allowed);
    const scenario =
      designed && k < forced.length
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
        licenseModel: licenseModelOf(rng, product, designed && k === 0),
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
