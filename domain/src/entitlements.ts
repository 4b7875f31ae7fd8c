import { daysRemaining, daysSince, parseDay } from './dates.ts';

/**
 * What every kind of entitlement shares (spec 001 §4, spec 002 §4 and §9): kinds, states, license-model
 * groups, the remaining-days and used-percentage rules and their colours. Elastic, lease and FSA rows are
 * built on these, so the rules are written once.
 */

export const entitlementKinds = ['SSL', 'ELASTIC', 'FSA'] as const;
export type EntitlementKind = (typeof entitlementKinds)[number];

export const DEPLOYED_STATE = 'Deployed';

/** Who a license server's history names when the system acts rather than a user (spec 002 §4). */
export const AUTOMATED_ACTION = 'Automated Action';

/** The vendor's "Flexible Spending Account Manual Drawdown" product: never in lease or available lists. */
export const FSA_MANUAL_DRAWDOWN_PART = 'FSA0030216';

export const NOT_STARTED = 'NOT STARTED';
export const EXPIRED = 'EXPIRED';
export const PERMANENT = 'PERMANENT';

export type ProgressColour = 'green' | 'orange' | 'red';

/**
 * Used percentage: 0 for a zero total; else rounded, but 1 when any is used and it rounds to 0, 99 when it
 * rounds to 100 while below the total; never below 0 or above 100.
 */
export function usedPercentage(total: number, used: number): number {
  if (total <= 0) return 0;
  const rounded = Math.round((used / total) * 100);
  if (rounded === 0 && used > 0) return 1;
  if (rounded >= 100 && used < total) return 99;
  return Math.min(100, Math.max(0, rounded));
}

/** Used percentage below 80 green, 80 to 94 orange, 95 and above red. */
export function usedColour(percentage: number): ProgressColour {
  if (percentage >= 95) return 'red';
  if (percentage >= 80) return 'orange';
  return 'green';
}

/** Remaining days: 30 or fewer red (so is expired), 90 or fewer orange, otherwise green. */
export function remainingDaysColour(days: number): ProgressColour {
  if (days <= 30) return 'red';
  if (days <= 90) return 'orange';
  return 'green';
}

/** Where a dated entitlement stands on the day of `now` (UTC). */
export interface Period {
  /** Days since the start day: 0 on it, negative before. */
  usedDays: number;
  /** Days left counting the last day; 0 once ended. */
  remainingDays: number;
  notStarted: boolean;
  expired: boolean;
  /** Elapsed share of the period by the 1/99 rule; 0 before the start, 100 once ended. */
  usedDaysPercentage: number;
  /** NOT STARTED, EXPIRED or '{n} day(s)'. */
  label: string;
}

/** The period of a start and end day; null when either is not a real day. */
export function periodOf(startDay: string, endDay: string, now: Date = new Date()): Period | null {
  const start = parseDay(startDay);
  if (!start || !parseDay(endDay)) return null;
  const usedDays = daysSince(startDay, now) ?? 0;
  const remainingDays = daysRemaining(endDay, now) ?? 0;
  // The period counts both its first and its last day.
  const totalDays = daysRemaining(endDay, start) ?? 0;
  const notStarted = usedDays < 0;
  const expired = !notStarted && remainingDays <= 0;
  const usedDaysPercentage = notStarted
    ? 0
    : expired || totalDays <= 0
      ? 100
      : usedPercentage(totalDays, Math.min(usedDays, totalDays));
  const label = notStarted
    ? NOT_STARTED
    : expired
      ? EXPIRED
      : `${remainingDays} ${remainingDays === 1 ? 'day' : 'days'}`;
  return { usedDays, remainingDays, notStarted, expired, usedDaysPercentage, label };
}

/**
 * Spec 002 §9 license-model groups. Network gathers the floating models; a product name containing '(Node)'
 * is Node Locked whatever its model says.
 */
export const licenseModelGroups = {
  Network: [
    'Network',
    'Network Borrow',
    'Lease',
    'Perpetual',
    'Paid Up',
    'Annual',
    'Subscription',
    'Network Lease',
    'Network Perpetual',
    'Network Borrow Lease',
    'Network Borrow Perpetual',
  ],
  'Shared Web': ['Shared Web', 'ConcurrentProduct'],
  FSA: ['FSA'],
  'Node Locked': ['Node Locked', 'Node Locked Lease', 'Node Locked Perpetual'],
  'Named User': ['Named User'],
} as const satisfies Record<string, readonly string[]>;
export type LicenseModelGroup = keyof typeof licenseModelGroups;

export function licenseModelGroupOf(model: string, productName = ''): LicenseModelGroup | null {
  if (productName.includes('(Node)')) return 'Node Locked';
  for (const [group, models] of Object.entries(licenseModelGroups) as [
    LicenseModelGroup,
    readonly string[],
  ][]) {
    if (models.includes(model)) return group;
  }
  return null;
}

/**
 * Spec 002 §7 "a license model filter text maps to the model names of any matching group": the models of
 * every group whose name contains the text (case-insensitive), plus the models that contain it themselves.
 */
export function modelsMatchingGroupText(text: string): string[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [];
  const out = new Set<string>();
  for (const [group, models] of Object.entries(licenseModelGroups)) {
    if (group.toLowerCase().includes(needle)) for (const m of models) out.add(m);
    for (const m of models) if (m.toLowerCase().includes(needle)) out.add(m);
  }
  return [...out];
}

/** Spec 002 §9: the count is shown as activated only for Shared Web and Named User models. */
export function countShownAsActivated(model: string, productName = ''): boolean {
  const group = licenseModelGroupOf(model, productName);
  return group === 'Shared Web' || group === 'Named User';
}

/** Spec 002 §3: borrowable when the license model contains 'Borrow'. */
export const isBorrowable = (model: string) => model.includes('Borrow');
