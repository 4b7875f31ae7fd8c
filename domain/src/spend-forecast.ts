import { addDaysUtc, formatDate, parseDay } from './dates.ts';

/**
 * Spend of a budget over time (decision 037): the burn-down series, the run-out forecast and the low-balance
 * levels. Pure and shared: the FSA page shows them per contract, a daily notices job and elastic reuse them with
 * their own windows. Days are 'YYYY-MM-DD' UTC; money is integer cents.
 */

/** What was spent on one UTC day. */
export interface DaySpend {
  day: string;
  cents: number;
}

/** One point of the burn-down: the balance at the end of `day`. */
export interface BurnDownPoint {
  day: string;
  remainingCents: number;
}

/** The default forecast window of the FSA page (issue 12 §4: "the last 90 days of ordering"). */
export const FORECAST_WINDOW_DAYS = 90;

/** Used-percentage levels that warn: the page's orange and red thresholds (spec 002 §9). */
export const LOW_BALANCE_LEVELS = [80, 95] as const;
export type LowBalanceLevel = (typeof LOW_BALANCE_LEVELS)[number];

const MS_PER_DAY = 86_400_000;
/** The last day a date can name (contract/src/common/dates.ts) */
const LAST_DAY = '9999-12-31';

function dayMs(day: string): number {
  const d = parseDay(day);
  if (!d) throw new RangeError(`not a calendar day: ${day}`);
  return d.getTime();
}

const minDay = (a: string, b: string | undefined) => (b !== undefined && b < a ? b : a);
const maxDay = (a: string, b: string | undefined) => (b !== undefined && b > a ? b : a);

/** The day `days` after `day` (before it when negative). */
export const shiftDay = (day: string, days: number) => formatDate(addDaysUtc(new Date(dayMs(day)), days));

/** Calendar days from `from` to `to` (0 on the same day, negative when `to` is earlier). */
export const daysBetween = (from: string, to: string) => Math.round((dayMs(to) - dayMs(from)) / MS_PER_DAY);

/**
 * The remaining balance at the end of every day from the contract start (or the first spend, if earlier) to
 * today, or to the contract end when that is earlier (or to the last spend, if later), so the last point is
 * always budget − all spend. Spend on the same day may come in several entries and in any order.
 */
export function burnDown(args: {
  budgetCents: number;
  spend: readonly DaySpend[];
  startDate: string;
  today: string;
  endDate: string | null;
}): BurnDownPoint[] {
  const byDay = new Map<string, number>();
  for (const s of args.spend) byDay.set(s.day, (byDay.get(s.day) ?? 0) + s.cents);
  const days = [...byDay.keys()].sort();
  const first = minDay(args.startDate, days[0]);
  const until = args.endDate !== null && args.endDate < args.today ? args.endDate : args.today;
  const last = maxDay(first, maxDay(until, days.at(-1)));
  const points: BurnDownPoint[] = [];
  let remaining = args.budgetCents;
  const firstMs = dayMs(first);
  for (let i = 0, n = daysBetween(first, last); i <= n; i++) {
    // UTC days are all 24 h long: plain millisecond steps, no calendar library per point.
    const day = formatDate(firstMs + i * MS_PER_DAY);
    remaining -= byDay.get(day) ?? 0;
    points.push({ day, remainingCents: remaining });
  }
  return points;
}

export interface RunOutForecast {
  /** Spend in the window (today and the `windowDays − 1` days before it) */
  windowSpendCents: number;
  /** windowSpendCents / windowDays, rounded to whole cents: what the text shows (the day uses the exact rate) */
  dailyBurnCents: number;
  /** Nothing left: remaining ≤ 0 */
  exhausted: boolean;
  /** The first day by whose end the projected spend reaches the remaining balance; null if exhausted or no spend */
  runOutDay: string | null;
  /** The run-out day is before the contract end date (false without an end date or a run-out day) */
  beforeEnd: boolean;
}

/**
 * Run-out forecast at the average daily burn of the last `windowDays` days, today included (a window always
 * `windowDays` long, also for a younger contract). Spending is projected from tomorrow: the run-out day is
 * today + ceil(remaining × windowDays / windowSpend) days, computed exactly in integers, so it is never before
 * tomorrow and a balance that lasts exactly n days of burn runs out on day n; never later than 9999-12-31.
 */
export function runOutForecast(args: {
  remainingCents: number;
  spend: readonly DaySpend[];
  today: string;
  windowDays: number;
  endDate: string | null;
}): RunOutForecast {
  const { remainingCents, today, windowDays, endDate } = args;
  if (!Number.isSafeInteger(windowDays) || windowDays < 1) throw new RangeError(`bad window: ${windowDays}`);
  const from = shiftDay(today, 1 - windowDays);
  const windowSpendCents = args.spend
    .filter((s) => s.day >= from && s.day <= today)
    .reduce((sum, s) => sum + s.cents, 0);
  const dailyBurnCents = Math.round(windowSpendCents / windowDays);
  const exhausted = remainingCents <= 0;
  if (exhausted || windowSpendCents <= 0)
    return { windowSpendCents, dailyBurnCents, exhausted, runOutDay: null, beforeEnd: false };
  // BigInt: remaining × window can pass 2^53 for large budgets.
  const num = BigInt(remainingCents) * BigInt(windowDays);
  const den = BigInt(windowSpendCents);
  const days = (num + den - 1n) / den;
  // A trickle against a huge balance would pass the last calendar day: the forecast stops there.
  const runOutDay = days > BigInt(daysBetween(today, LAST_DAY)) ? LAST_DAY : shiftDay(today, Number(days));
  return {
    windowSpendCents,
    dailyBurnCents,
    exhausted,
    runOutDay,
    beforeEnd: endDate !== null && runOutDay < endDate,
  };
}

/** The warning level a used percentage has reached: null below 80, else the highest level reached. */
export function lowBalanceLevel(usedPercentage: number): LowBalanceLevel | null {
  return LOW_BALANCE_LEVELS.findLast((level) => usedPercentage >= level) ?? null;
}
