import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import {
  DEPLOYED_STATE,
  type ProgressColour,
  periodOf,
  remainingDaysColour,
  usedColour,
  usedPercentage,
} from './entitlements.ts';

/**
 * Spec 001 §4 "Entitlement classification": which elastic entitlements are active, their balances and the
 * colours of the /elastic tables, on the shared rules of ./entitlements.ts. Pure, so the server's tests and
 * the browser compute the same rows.
 */

export const ELASTIC_LICENSE_MODEL = 'Elastic-AEU';

/** Spec 001 §3 "Entitlement view row". */
export interface EntitlementViewRow {
  activationId: string;
  product: string;
  count: number;
  poNumber: string;
  /** 'YYYY-MM-DD' */
  startDate: string;
  /** 'YYYY-MM-DD' */
  endDate: string;
  /** Days left counting the last day; 0 once expired. */
  remainingDays: number;
  /** NOT STARTED, EXPIRED or '{n} days'. */
  remainingDaysLabel: string;
  remainingDaysColour: ProgressColour;
  /** Days since the start day (negative before it). */
  usedDays: number;
  /** Elapsed share of the validity period, 0..100. */
  usedDaysPercentage: number;
  /** The entitlement's quantity in units. */
  total: number;
  used: number;
  remaining: number;
  currency: string;
  usedPercentage: number;
  usedColour: ProgressColour;
  rateTableVersion: string;
  /** The part of the rate-table version before the first dot. */
  rateTableLabel: string;
  active: boolean;
}

export interface ClassifiedEntitlements {
  active: EntitlementViewRow[];
  inactive: EntitlementViewRow[];
}

/** Only Elastic-AEU records in state Deployed are shown. */
export const countsAsElastic = (r: Pick<ElasticEntitlementRecord, 'LicenseModel' | 'EntitlementState'>) =>
  r.LicenseModel === ELASTIC_LICENSE_MODEL && r.EntitlementState === DEPLOYED_STATE;

/** Rounds to one decimal without binary-fraction surprises (0.05 → 0.1). */
const round1 = (x: number) => Math.round(Number((x * 10).toFixed(6))) / 10;

/** Remaining amount: rounded to 0.1, floored at 0, capped at the total quantity. */
export function remainingAmount(total: number, used: number): number {
  return Math.min(total, Math.max(0, round1(total - used)));
}

/** The rate-table label: the part of the version before the first dot ('2024.1.0' → '2024'). */
export const rateTableLabel = (version: string) => version.split('.')[0];

/**
 * One record as a view row; null when its dates are not real days (it cannot be placed in time).
 * `now` decides which day is today (UTC).
 */
export function toViewRow(
  record: ElasticEntitlementRecord,
  now: Date = new Date(),
): EntitlementViewRow | null {
  const { StartDate: startDate, EndDate: endDate } = record;
  const period = endDate === null ? null : periodOf(startDate, endDate, now);
  if (!period || endDate === null) return null;
  const { usedDays, remainingDays, notStarted, expired, usedDaysPercentage } = period;
  const total = record.LineItemQuantity;
  const used = record.Used;
  const percentage = usedPercentage(total, used);
  return {
    activationId: record.ActivationId,
    product: record.CustomAttributes.Product,
    count: record.CustomAttributes.Count,
    poNumber: record.PONumber,
    startDate,
    endDate,
    remainingDays,
    remainingDaysLabel: period.label,
    remainingDaysColour: remainingDaysColour(remainingDays),
    usedDays,
    usedDaysPercentage,
    total,
    used,
    remaining: remainingAmount(total, used),
    currency: record.Currency,
    usedPercentage: percentage,
    usedColour: usedColour(percentage),
    rateTableVersion: record.CustomAttributes.RateTableVersion,
    rateTableLabel: rateTableLabel(record.CustomAttributes.RateTableVersion),
    active: !notStarted && !expired && percentage !== 100,
  };
}

/** Spec 001 §4: the Active and Inactive lists, each sorted by end date descending (ties by activation id). */
export function classifyEntitlements(
  records: readonly ElasticEntitlementRecord[],
  now: Date = new Date(),
): ClassifiedEntitlements {
  const rows = records
    .filter(countsAsElastic)
    .map((r) => toViewRow(r, now))
    .filter((r): r is EntitlementViewRow => r !== null)
    .sort((a, b) => b.endDate.localeCompare(a.endDate) || a.activationId.localeCompare(b.activationId));
  return { active: rows.filter((r) => r.active), inactive: rows.filter((r) => !r.active) };
}

/**
 * An account's currency (an account buys in one currency): that of its elastic entitlement that ends last
 * (one without an end date counts last), USD when none names one. The ledger prices uncovered usage with it and
 * the statement shows it; one rule so both agree.
 */
export function accountCurrency(
  list: readonly { currency: string | null; endDate: string | null }[],
): string {
  let best: { currency: string; endDate: string | null } | undefined;
  for (const e of list) {
    if (!e.currency) continue;
    const later = !best || (e.endDate !== null && (best.endDate === null || e.endDate >= best.endDate));
    if (later) best = { currency: e.currency, endDate: e.endDate };
  }
  return best?.currency ?? 'USD';
}
