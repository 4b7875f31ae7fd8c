import type { FsaContract } from '@lp/contract/fsa/schemas';
import { formatMoney } from '@lp/domain/fsa-pricing';
import {
  type BurnDownPoint,
  daysBetween,
  FORECAST_WINDOW_DAYS,
  type LowBalanceLevel,
  lowBalanceLevel,
  type RunOutForecast,
  runOutForecast,
  shiftDay,
} from '@lp/domain/spend-forecast';

/** The texts of the Entitlements tab's spending insights (issue 12 §4, decision 037). */

const amount = (cents: number, currency: string) => `${formatMoney(cents)} ${currency}`.trim();

export interface LowBalanceWarning {
  entitlementId: string;
  level: LowBalanceLevel;
  text: string;
}

/** One warning per active contract at or over 80 % used, the most used first. */
export function lowBalanceWarnings(contracts: readonly FsaContract[]): LowBalanceWarning[] {
  return contracts
    .filter((c) => c.active && lowBalanceLevel(c.usedPercentage) !== null)
    .sort((a, b) => b.usedPercentage - a.usedPercentage)
    .map((c) => ({
      entitlementId: c.entitlementId,
      level: lowBalanceLevel(c.usedPercentage)!,
      text: `${c.entitlementId}: ${c.usedPercentage}% of the budget is used (remaining ${amount(c.remainingCents, c.currency)}).`,
    }));
}

/** The contract's forecast at the page's window. */
export const contractForecast = (c: FsaContract, today: string) =>
  runOutForecast({
    remainingCents: c.remainingCents,
    spend: c.dailySpend,
    today,
    windowDays: FORECAST_WINDOW_DAYS,
    endDate: c.endDate,
  });

/** The forecast as one sentence. */
export function forecastText(f: RunOutForecast, c: Pick<FsaContract, 'currency' | 'endDate'>): string {
  if (f.exhausted) return 'The budget is used up.';
  if (f.runOutDay === null) return `No orders in the last ${FORECAST_WINDOW_DAYS} days.`;
  const rate = `At the last ${FORECAST_WINDOW_DAYS} days' rate of ${amount(f.dailyBurnCents, c.currency)} a day`;
  if (c.endDate === null) return `${rate}, the balance runs out on ${f.runOutDay}.`;
  if (f.beforeEnd)
    return `${rate}, the balance runs out on ${f.runOutDay}, before the contract ends on ${c.endDate}.`;
  return `${rate}, the balance lasts past the contract end on ${c.endDate}.`;
}

/** The chart's numbers as text. */
export const balanceSummary = (c: FsaContract, today: string) =>
  `Budget ${amount(c.budgetCents, c.currency)}, used ${amount(c.usedCents, c.currency)} (${c.usedPercentage}%), remaining ${amount(c.remainingCents, c.currency)} on ${today}.`;

/** How far the chart draws a forecast at most: three years of daily points. */
const MAX_PROJECTION_DAYS = 1_096;

/**
 * The forecast as chart points: the balance from today falling at the window's exact rate, to the run-out day or
 * the contract end, whichever comes first (capped at three years); none without a run-out day.
 */
export function projectedBalance(
  remainingCents: number,
  f: RunOutForecast,
  today: string,
  endDate: string | null,
): BurnDownPoint[] {
  if (f.runOutDay === null) return [];
  const until = endDate !== null && endDate < f.runOutDay ? endDate : f.runOutDay;
  const days = Math.min(daysBetween(today, until), MAX_PROJECTION_DAYS);
  return Array.from({ length: Math.max(days, 0) + 1 }, (_, k) => ({
    day: shiftDay(today, k),
    remainingCents: Math.max(0, remainingCents - Math.round((f.windowSpendCents * k) / FORECAST_WINDOW_DAYS)),
  }));
}
