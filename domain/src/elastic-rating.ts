/**
 * Elastic rating and draw-down: the one place that prices a usage session and decides which entitlement pays.
 * Amounts are integer hundredths of a unit ("cents") so that every sum in the ledger is exact.
 */

/** Finished sessions are charged at least this many hours (spec 001 §9). */
export const MIN_FINISHED_HOURS = 0.01;

const HOUR_MS = 3_600_000;

/** Rounds to 2 decimals without binary-fraction surprises (1.005 → 1.01). */
const round2 = (x: number) => Math.round(Number((x * 100).toFixed(6))) / 100;

/**
 * Hours of a session: (end − start) rounded to 0.01 with the 0.01 floor when it has ended; an active session
 * accrues up to the latest time it was seen, without the floor.
 */
export function sessionHours(startMs: number, endMs: number | null, lastSeenMs: number): number {
  if (endMs !== null) return Math.max(MIN_FINISHED_HOURS, round2(Math.max(0, endMs - startMs) / HOUR_MS));
  return round2(Math.max(0, lastSeenMs - startMs) / HOUR_MS);
}

/** Charge in hundredths of a unit: rate (units per count per hour) × count × hours, rounded to 0.01 unit. */
export function chargeCents(rate: number, count: number, hours: number): number {
  return Math.round(Number((rate * count * hours * 100).toFixed(6)));
}

export const centsToUnits = (cents: number) => cents / 100;
export const unitsToCents = (units: number) => Math.round(Number((units * 100).toFixed(6)));

/** An elastic entitlement as the ledger sees it. */
export interface Drawable {
  id: number;
  licenseModel: string;
  state: string;
  /** 'YYYY-MM-DD' */
  startDate: string;
  /** 'YYYY-MM-DD' (elastic entitlements always end) */
  endDate: string | null;
  quantityCents: number;
  usedCents: number;
  rateTableVersion: string | null;
}

const isElastic = (e: Drawable) => e.licenseModel === 'Elastic-AEU' && e.state === 'Deployed';

/** Entitlements that may pay for usage on `day`, in draw order: earliest expiry first, then earliest start, then id. */
export function drawOrder<T extends Drawable>(entitlements: readonly T[], day: string): T[] {
  return entitlements
    .filter((e) => isElastic(e) && e.startDate <= day && (e.endDate === null || day <= e.endDate))
    .sort(
      (a, b) =>
        (a.endDate ?? '9999').localeCompare(b.endDate ?? '9999') ||
        a.startDate.localeCompare(b.startDate) ||
        a.id - b.id,
    );
}

export interface Allocation {
  draws: { entitlementId: number; cents: number }[];
  overageCents: number;
}

/**
 * Splits a (non-negative) charge over the entitlements valid on `day`: each pays at most its remaining balance
 * (never below zero), the rest moves to the next one, and what none covers is overage (never dropped).
 * Updates `usedCents` of the given entitlements, so successive calls see the new balances.
 */
export function allocate(entitlements: Drawable[], day: string, cents: number): Allocation {
  const draws: Allocation['draws'] = [];
  let left = cents;
  for (const e of drawOrder(entitlements, day)) {
    if (left <= 0) break;
    const take = Math.min(left, Math.max(0, e.quantityCents - e.usedCents));
    if (take <= 0) continue;
    e.usedCents += take;
    left -= take;
    draws.push({ entitlementId: e.id, cents: take });
  }
  return { draws, overageCents: left };
}

/**
 * The rate table a session is priced with: that of the entitlement that would pay first on its start day, else of
 * the latest-ending elastic entitlement of the account, else the newest known version.
 */
export function rateTableFor(entitlements: readonly Drawable[], day: string, newestVersion: string): string {
  const first = drawOrder(entitlements, day).find((e) => e.rateTableVersion);
  if (first?.rateTableVersion) return first.rateTableVersion;
  const latest = entitlements
    .filter((e) => isElastic(e) && e.rateTableVersion)
    .sort((a, b) => (b.endDate ?? '9999').localeCompare(a.endDate ?? '9999'))[0];
  return latest?.rateTableVersion ?? newestVersion;
}
