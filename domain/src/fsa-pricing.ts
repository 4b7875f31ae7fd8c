import { messages } from '@lp/contract/common/errors';
import { formatCount } from './amounts.ts';
import { addDaysUtc, daysRemaining, formatDate, parseDay } from './dates.ts';

/**
 * Flexible Spending Account pricing and order-line checks (spec 002 §5 "FSA order lines", §9; decision 035).
 * Pure: the order form and the server price a line with the same code, so the server can check what the
 * browser shows. Money is integer cents; the one rounding per line is the unit cost, half-up.
 */

export const FSA_DURATIONS = ['7', '30', '60', '90', '180', '365', 'remainder'] as const;
export type FsaDuration = (typeof FSA_DURATIONS)[number];

export const fsaDurationLabels: Record<FsaDuration, string> = {
  '7': '7 Days',
  '30': '30 Days',
  '60': '60 Days',
  '90': '90 Days',
  '180': '180 Days',
  '365': '1 Year',
  remainder: 'Remainder',
};

/** Prices in integer minor units (cents); null = not offered. */
export interface FsaPriceList {
  price7Days: number | null;
  price30Days: number | null;
  price60Days: number | null;
  price90Days: number | null;
  price180Days: number | null;
  price1Year: number | null;
}

/** The contract's term, 'YYYY-MM-DD', both days inclusive. */
export interface FsaTerm {
  startDate: string;
  endDate: string;
}

export type LinePrice =
  | { ok: true; endDate: string; unitCents: number; costCents: number }
  | { ok: false; field: 'count' | 'startDate' | 'duration' | 'endDate'; error: string };

type Period = Exclude<FsaDuration, 'remainder'>;

/** Shortest first; '365' is 365 days long for fitting and proration (decision 035 d). */
const periods: readonly { duration: Period; days: number; price: keyof FsaPriceList }[] = [
  { duration: '7', days: 7, price: 'price7Days' },
  { duration: '30', days: 30, price: 'price30Days' },
  { duration: '60', days: 60, price: 'price60Days' },
  { duration: '90', days: 90, price: 'price90Days' },
  { duration: '180', days: 180, price: 'price180Days' },
  { duration: '365', days: 365, price: 'price1Year' },
];

/** The earliest start a line may have: the later of today and the contract start. */
export function earliestStart(contract: FsaTerm, today: string): string {
  return today > contract.startDate ? today : contract.startDate;
}

/** Days from `startDate` to the contract end, both counted (the days-remaining rule of dates.ts); 0 if invalid. */
function remainingDays(contract: FsaTerm, startDate: string): number {
  const start = parseDay(startDate);
  return (start && daysRemaining(contract.endDate, start)) || 0;
}

const pricedPeriods = (prices: FsaPriceList) => periods.filter((p) => prices[p.price] !== null);

/**
 * Durations offered for a line starting on startDate: priced periods that fit, 1 Year whenever priced (capped at
 * the contract end, spec 002 §9; decision 035), then 'remainder' if anything is priced.
 */
export function offeredDurations(prices: FsaPriceList, contract: FsaTerm, startDate: string): FsaDuration[] {
  const remaining = remainingDays(contract, startDate);
  const priced = pricedPeriods(prices);
  if (remaining === 0 || priced.length === 0) return [];
  return [
    ...priced.filter((p) => p.days <= remaining || p.duration === '365').map((p) => p.duration),
    'remainder',
  ];
}

/** The calendar year from `start`: the day before its anniversary (a 29 February start ends on 28 February). */
function yearEnd(start: Date): Date {
  const end = new Date(0);
  end.setUTCFullYear(start.getUTCFullYear() + 1, start.getUTCMonth(), start.getUTCDate() - 1);
  return end;
}

/** round(numerator / denominator), half-up, exact for any size (both positive). */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

const isPositiveCount = (count: number) => Number.isSafeInteger(count) && count > 0;

/** A real calendar day within the contract and not before today. */
function isOrderableDay(day: string, contract: FsaTerm, today: string): boolean {
  return parseDay(day) !== null && day >= earliestStart(contract, today) && day <= contract.endDate;
}

function costOf(unitCents: number, count: number): number {
  const cost = unitCents * count;
  if (!Number.isSafeInteger(cost))
    throw new RangeError(`line cost ${unitCents} × ${count} cents is too large`);
  return cost;
}

/** A standard line: validates count, start date and duration, and returns the end date and cost. */
export function priceLine(args: {
  prices: FsaPriceList;
  contract: FsaTerm;
  today: string;
  startDate: string;
  duration: FsaDuration;
  count: number;
}): LinePrice {
  const { prices, contract, today, startDate, duration, count } = args;
  if (!isPositiveCount(count)) return { ok: false, field: 'count', error: messages.fsaCountPositive };
  if (!isOrderableDay(startDate, contract, today))
    return { ok: false, field: 'startDate', error: messages.fsaStartDateInvalid };
  // A duration the form would not offer (unpriced, or its end passes the contract end) has no valid end date.
  if (!offeredDurations(prices, contract, startDate).includes(duration))
    return { ok: false, field: 'duration', error: messages.fsaEndDateInvalid };
  const start = parseDay(startDate) as Date;
  const remaining = remainingDays(contract, startDate);
  const priced = pricedPeriods(prices);

  if (duration === 'remainder') {
    // Decision 035 a: the longest priced period that fits prorates, else the shortest priced one.
    const base = priced.filter((p) => p.days <= remaining).at(-1) ?? (priced[0] as (typeof priced)[number]);
    const price = prices[base.price] as number;
    const unitCents = Number(divideHalfUp(BigInt(remaining) * BigInt(price), BigInt(base.days)));
    return { ok: true, endDate: contract.endDate, unitCents, costCents: costOf(unitCents, count) };
  }

  const period = priced.find((p) => p.duration === duration) as (typeof priced)[number];
  const price = prices[period.price] as number;
  if (duration === '365') {
    // Capped at the contract end; fewer than 365 days left pay the year's rate for the days they get.
    const end = Math.min(yearEnd(start).getTime(), (parseDay(contract.endDate) as Date).getTime());
    const unitCents =
      remaining >= period.days ? price : Number(divideHalfUp(BigInt(remaining) * BigInt(price), 365n));
    return { ok: true, endDate: formatDate(end), unitCents, costCents: costOf(unitCents, count) };
  }
  const end = addDaysUtc(start, period.days - 1);
  return { ok: true, endDate: formatDate(end), unitCents: price, costCents: costOf(price, count) };
}

/**
 * The amount of a line whose price business operations typed: either a unit cost (cost = count × unit) or the
 * line's cost itself (decision 050: the cost typed is the cost ordered, exactly; the unit cost shown is cost ÷ count
 * rounded half-up to the cent, for reading only, so a cost that does not divide by the count loses no cent).
 */
export type TypedAmount = { unitCents: number } | { costCents: number };

function amountOf(typed: TypedAmount, count: number): { unitCents: number; costCents: number } {
  if ('costCents' in typed) {
    if (!Number.isSafeInteger(typed.costCents) || typed.costCents < 0)
      throw new RangeError(`cost must be a whole, non-negative number of cents, not ${typed.costCents}`);
    const unitCents = Number(divideHalfUp(BigInt(typed.costCents), BigInt(count)));
    return { unitCents, costCents: typed.costCents };
  }
  if (!Number.isSafeInteger(typed.unitCents) || typed.unitCents < 0)
    throw new RangeError(`unit cost must be a whole number of cents, not ${typed.unitCents}`);
  return { unitCents: typed.unitCents, costCents: costOf(typed.unitCents, count) };
}

/**
 * A manual-entry line (business operations only): count, dates within the contract, and its amount: count × the
 * unit cost typed, or the cost typed.
 */
export function checkManualLine(
  args: {
    contract: FsaTerm;
    today: string;
    startDate: string;
    endDate: string;
    count: number;
  } & TypedAmount,
): LinePrice {
  const { contract, today, startDate, endDate, count } = args;
  if ('unitCents' in args && (!Number.isSafeInteger(args.unitCents) || args.unitCents < 0))
    throw new RangeError(`unit cost must be a whole number of cents, not ${args.unitCents}`);
  if (!isPositiveCount(count)) return { ok: false, field: 'count', error: messages.fsaCountPositive };
  if (!isOrderableDay(startDate, contract, today))
    return { ok: false, field: 'startDate', error: messages.fsaStartDateInvalid };
  if (!isOrderableDay(endDate, contract, today))
    return { ok: false, field: 'endDate', error: messages.fsaEndDateInvalid };
  if (endDate <= startDate) return { ok: false, field: 'endDate', error: messages.fsaEndNotAfterStart };
  return { ok: true, endDate, ...amountOf(args, count) };
}

/** A priced line with the amount business operations typed instead of the price list's. */
export function withTypedAmount(price: LinePrice, typed: TypedAmount, count: number): LinePrice {
  return price.ok ? { ...price, ...amountOf(typed, count) } : price;
}

/** Indexes of lines repeating an earlier line's product, count, start date, duration and end date. */
export function duplicateLines(
  lines: { partNumber: string; count: number; startDate: string; duration: string; endDate: string }[],
): number[] {
  const seen = new Set<string>();
  const duplicates: number[] = [];
  lines.forEach((l, i) => {
    const key = JSON.stringify([l.partNumber, l.count, l.startDate, l.duration, l.endDate]);
    if (seen.has(key)) duplicates.push(i);
    else seen.add(key);
  });
  return duplicates;
}

/** Products whose name contains '- Shared Web' or '- Named User' are ordered as manual entries (spec 002 §9). */
export function isManualProductName(name: string): boolean {
  return name.includes('- Shared Web') || name.includes('- Named User');
}

/** Cents as the spec shows amounts: 2 decimals and thousands separators ('1,234.50'), exact for any safe integer. */
export function formatMoney(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not a whole number of cents: ${cents}`);
  const abs = Math.abs(cents);
  const text = `${formatCount((abs - (abs % 100)) / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}
