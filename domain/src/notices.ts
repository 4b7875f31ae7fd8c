import { type NoticeTypeName, noticeTypeSchema } from '@lp/contract/notices/schemas';
import { daysRemaining, parseDay } from './dates.ts';
import { usedPercentage } from './entitlements.ts';
import { formatMoney } from './fsa-pricing.ts';
import {
  type DaySpend,
  FORECAST_WINDOW_DAYS,
  LOW_BALANCE_LEVELS,
  lowBalanceLevel,
  runOutForecast,
} from './spend-forecast.ts';

/**
 * Proactive notices (issue 13 §2, decision 041): which expiry, usage and run-out findings an account has on a
 * day, and which of them a user asked to receive. Pure; the daily job gathers the facts, records each finding once
 * per threshold and sends the digests.
 */

/** The notice types are the contract's (one list, in its order: the choices dialog and the digests follow it). */
export const NOTICE_TYPES = noticeTypeSchema.options;
export type NoticeType = NoticeTypeName;

/** Days before an end date that notify, widest first */
export const EXPIRY_THRESHOLDS = [90, 30, 7] as const;
export type ExpiryThreshold = (typeof EXPIRY_THRESHOLDS)[number];
/** Used percentages that notify (the FSA page's warning levels) */
export const USAGE_THRESHOLDS = LOW_BALANCE_LEVELS;
/**
 * Run-out notices use the FSA page's forecast window (decision 050): one forecast, so a notice and the Spending
 * panel name the same run-out day for a contract on the day the notice is found.
 */
export const RUN_OUT_WINDOW_DAYS = FORECAST_WINDOW_DAYS;
/** A run-out finding has one threshold: the forecast says the budget ends before the term does */
export const RUN_OUT_THRESHOLD = 0;

export interface Finding {
  type: NoticeType;
  /** The entitlement's activation id (or the contract's) */
  objectId: string;
  /** Days (expiry), percent (usage) or RUN_OUT_THRESHOLD */
  threshold: number;
  /** One line for the digest and the panel */
  text: string;
}

/** Something that ends: a lease, a perpetual's maintenance, an evaluation license. */
export interface Ending {
  type: 'lease-ending' | 'maintenance-ending' | 'evaluation-ending';
  objectId: string;
  product: string;
  endDay: string;
}

/** The tightest threshold the days left fall within (1..90 days left, the last day counted), else null. */
export function expiryThreshold(daysLeft: number): ExpiryThreshold | null {
  if (daysLeft < 1) return null;
  return EXPIRY_THRESHOLDS.findLast((t) => daysLeft <= t) ?? null;
}

const dayWord = (n: number) => (n === 1 ? 'day' : 'days');

export function endingFinding(item: Ending, today: string): Finding | null {
  // The grids' rule (dates.ts daysRemaining): the last day counts, so a lease ending today has 1 day left.
  const left = daysRemaining(item.endDay, parseDay(today) ?? undefined) ?? 0;
  const threshold = expiryThreshold(left);
  if (threshold === null) return null;
  const what = {
    'lease-ending': `Lease ${item.product} (${item.objectId})`,
    'maintenance-ending': `Maintenance of ${item.product} (${item.objectId})`,
    'evaluation-ending': `Evaluation license ${item.product} (${item.objectId})`,
  }[item.type];
  return {
    type: item.type,
    objectId: item.objectId,
    threshold,
    text: `${what} ends on ${item.endDay}: ${left} ${dayWord(left)} left.`,
  };
}

/** An elastic entitlement or an FSA contract: a budget drawn over a term. */
export interface Budget {
  type: 'elastic' | 'fsa';
  objectId: string;
  name: string;
  budgetCents: number;
  usedCents: number;
  currency: string;
  endDay: string | null;
  /** What was drawn per UTC day (at least the last RUN_OUT_WINDOW_DAYS days) */
  spend: readonly DaySpend[];
}

/** The usage threshold reached (80 or 95) and the run-out forecast before the end, for one budget. */
export function budgetFindings(item: Budget, today: string): Finding[] {
  const findings: Finding[] = [];
  const used = usedPercentage(item.budgetCents, item.usedCents);
  const remainingCents = item.budgetCents - item.usedCents;
  const money = (cents: number) => `${formatMoney(cents)} ${item.currency}`;
  const level = lowBalanceLevel(used);
  if (level !== null)
    findings.push({
      type: `${item.type}-usage`,
      objectId: item.objectId,
      threshold: level,
      text: `${item.name}: ${used}% of the budget is used (remaining ${money(remainingCents)}).`,
    });
  if (item.endDay !== null && item.endDay >= today) {
    const forecast = runOutForecast({
      remainingCents,
      spend: item.spend,
      today,
      windowDays: RUN_OUT_WINDOW_DAYS,
      endDate: item.endDay,
    });
    if (forecast.beforeEnd && forecast.runOutDay)
      findings.push({
        type: `${item.type}-run-out`,
        objectId: item.objectId,
        threshold: RUN_OUT_THRESHOLD,
        text: `${item.name}: at the last ${RUN_OUT_WINDOW_DAYS} days' rate of ${money(forecast.dailyBurnCents)} a day, the balance runs out on ${forecast.runOutDay}, before the term ends on ${item.endDay}.`,
      });
  }
  return findings;
}

/** What a user receives for an account (saved like table preferences); everything by default. */
export interface NoticeChoices {
  expiryDays: readonly ExpiryThreshold[];
  usagePercents: readonly number[];
  runOut: boolean;
}
export const ALL_NOTICES: NoticeChoices = {
  expiryDays: EXPIRY_THRESHOLDS,
  usagePercents: USAGE_THRESHOLDS,
  runOut: true,
};

const isExpiry = (t: NoticeType) => t.endsWith('-ending');
const isUsage = (t: NoticeType) => t.endsWith('-usage');

/** Whether a finding reaches a user: the account has the type on, and the user chose its threshold. */
export function wanted(
  finding: Pick<Finding, 'type' | 'threshold'>,
  choices: NoticeChoices,
  disabledTypes: readonly NoticeType[] = [],
): boolean {
  if (disabledTypes.includes(finding.type)) return false;
  // The weekly reclaim list has no threshold to choose: administrators receive it unless the account turned it off.
  if (finding.type === 'web-seats-inactive') return true;
  if (isExpiry(finding.type)) return (choices.expiryDays as readonly number[]).includes(finding.threshold);
  if (isUsage(finding.type)) return choices.usagePercents.includes(finding.threshold);
  return choices.runOut;
}
