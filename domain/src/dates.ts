import { UTCDate } from '@date-fns/utc';
import { parseCalendarDay } from '@lp/contract/common/dates';
// One path per function: the package root loads all of date-fns (1.9 s of each process's start, decision 069).
import { addDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { endOfDay } from 'date-fns/endOfDay';
import { endOfMonth } from 'date-fns/endOfMonth';
import { endOfQuarter } from 'date-fns/endOfQuarter';
import { endOfWeek } from 'date-fns/endOfWeek';
import { endOfYear } from 'date-fns/endOfYear';
import { format } from 'date-fns/format';
import { startOfDay } from 'date-fns/startOfDay';
import { startOfMonth } from 'date-fns/startOfMonth';
import { startOfQuarter } from 'date-fns/startOfQuarter';
import { startOfWeek } from 'date-fns/startOfWeek';
import { startOfYear } from 'date-fns/startOfYear';
import { subDays } from 'date-fns/subDays';
import { subMonths } from 'date-fns/subMonths';
import { subQuarters } from 'date-fns/subQuarters';
import { subWeeks } from 'date-fns/subWeeks';
import { subYears } from 'date-fns/subYears';

/**
 * The one date module (spec 000 §3, §9): formats, days remaining and range presets. Every computation is in
 * UTC so the server and every browser agree whatever their time zone.
 */
export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';
export const DATE_FORMAT = 'yyyy-MM-dd';
export const TIME_FORMAT = 'HH:mm:ss';
export const MONTH_YEAR_FORMAT = 'MMM yyyy';

const utc = (d: Date | string | number) => new UTCDate(typeof d === 'string' ? Date.parse(d) : d);

// The two hot formats (every transaction row, every ingested event) come straight from the ISO text: date-fns
// `format` costs ~5 µs a call, which dominated the 30 000-row export (docs/benchmarks.md, Elastic).
const isoOf = (d: Date | string | number) =>
  new Date(typeof d === 'string' ? Date.parse(d) : d).toISOString();
/** 'YYYY-MM-DD HH:mm:ss' in UTC (DATE_TIME_FORMAT). */
export const formatDateTime = (d: Date | string | number) => {
  const iso = isoOf(d);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
};
/** 'YYYY-MM-DD' in UTC (DATE_FORMAT). */
export const formatDate = (d: Date | string | number) => isoOf(d).slice(0, 10);
export const formatMonthYear = (d: Date | string | number) => format(utc(d), MONTH_YEAR_FORMAT);

/** Parses a real calendar date 'YYYY-MM-DD' (rejects 2024-02-30); null when invalid. The one parser: decision 020. */
export const parseDay = parseCalendarDay;

/** Days remaining until `endDay` counted inclusive of the last day (ends today = 1, ended yesterday = 0). */
export function daysRemaining(endDay: string | null, now: Date = new Date()): number | null {
  if (endDay === null) return null;
  const end = parseDay(endDay);
  if (!end) return null;
  return Math.max(0, differenceInCalendarDays(utc(end), utc(now)) + 1);
}

/** Calendar days from `startDay` to the day of `now`: 0 on that day, negative before it; null when invalid. */
export function daysSince(startDay: string, now: Date = new Date()): number | null {
  const start = parseDay(startDay);
  return start ? differenceInCalendarDays(utc(now), utc(start)) : null;
}

export const datePresets = [
  '1 Day',
  '5 Days',
  '1 Month',
  '3 Months',
  '6 Months',
  'YTD',
  '1 Year',
  '2 Years',
  '5 Years',
  'Max',
  'Last month',
  'This month',
  'Last week',
  'This week',
  'Last quarter',
  'This quarter',
  'Last year',
  'This year',
  'Today',
  'Yesterday',
  'Last two weeks',
] as const;
export type DatePreset = (typeof datePresets)[number];

export interface DateRange {
  from: Date;
  to: Date;
}

const MAX_START = new UTCDate(2018, 0, 1);

/** The [from, to] instant range of a preset, relative to `now` (to is the end of the covered period). */
export function presetRange(preset: DatePreset, now: Date = new Date()): DateRange {
  const n = utc(now);
  const range = (from: Date, to: Date): DateRange => ({
    from: new Date(from.getTime()),
    to: new Date(to.getTime()),
  });
  switch (preset) {
    case '1 Day':
      return range(subDays(n, 1), n);
    case '5 Days':
      return range(subDays(n, 5), n);
    case '1 Month':
      return range(subMonths(n, 1), n);
    case '3 Months':
      return range(subMonths(n, 3), n);
    case '6 Months':
      return range(subMonths(n, 6), n);
    case 'YTD':
      return range(startOfYear(n), n);
    case '1 Year':
      return range(subYears(n, 1), n);
    case '2 Years':
      return range(subYears(n, 2), n);
    case '5 Years':
      return range(subYears(n, 5), n);
    case 'Max':
      return range(MAX_START, n);
    case 'Last month': {
      const m = subMonths(n, 1);
      return range(startOfMonth(m), endOfMonth(m));
    }
    case 'This month':
      return range(startOfMonth(n), endOfMonth(n));
    case 'Last week': {
      const w = subWeeks(n, 1);
      return range(startOfWeek(w), endOfWeek(w));
    }
    case 'This week':
      return range(startOfWeek(n), endOfWeek(n));
    case 'Last quarter': {
      const q = subQuarters(n, 1);
      return range(startOfQuarter(q), endOfQuarter(q));
    }
    case 'This quarter':
      return range(startOfQuarter(n), endOfQuarter(n));
    case 'Last year': {
      const y = subYears(n, 1);
      return range(startOfYear(y), endOfYear(y));
    }
    case 'This year':
      return range(startOfYear(n), endOfYear(n));
    case 'Today':
      return range(startOfDay(n), endOfDay(n));
    case 'Yesterday': {
      const y = subDays(n, 1);
      return range(startOfDay(y), endOfDay(y));
    }
    case 'Last two weeks':
      return range(startOfDay(subDays(n, 13)), endOfDay(n));
  }
}

/** Spec 001 §4: a period runs from 00:00:00.000 of its first day to 23:59:59.999 of its last day (UTC). */
export function wholeDays(range: DateRange): DateRange {
  return {
    from: new Date(startOfDay(utc(range.from)).getTime()),
    to: new Date(endOfDay(utc(range.to)).getTime()),
  };
}

/** Whole-day range for a 'YYYY-MM-DD' text (start of day to end of day, UTC). */
export function dayRange(day: string): DateRange | null {
  const d = parseDay(day);
  return d ? wholeDays({ from: d, to: d }) : null;
}

export const addDaysUtc = (d: Date, days: number) => new Date(addDays(utc(d), days).getTime());

/** 'YYYY-MM-DD HH:mm:ss.SSS' in UTC: a range end that keeps its last millisecond. */
export const formatInstant = (d: Date | string | number) => format(utc(d), 'yyyy-MM-dd HH:mm:ss.SSS');

/** Spec 001 §2.3 / §9: the usage transactions' named ranges in menu order (1 Day is the default; Custom is separate). */
export const transactionDatePresets = [
  '1 Day',
  '5 Days',
  '1 Month',
  '3 Months',
  '6 Months',
  'YTD',
  '1 Year',
  'Max',
  'Last month',
  'Last quarter',
  'Last year',
] as const satisfies readonly DatePreset[];
export type TransactionDatePreset = (typeof transactionDatePresets)[number];
export const DEFAULT_TRANSACTION_PRESET: TransactionDatePreset = '1 Day';

/** Days 'YYYY-MM-DD' picked in a custom range calendar; to is null until the range is complete. */
export interface RangeSelection {
  from: string | null;
  to: string | null;
}

/**
 * Spec 001 §4, custom calendar: the first click sets from; a later day sets to; any other click (the same
 * or an earlier day, or any click once both are set) restarts the selection at the clicked day.
 */
export function nextRangeClick(current: RangeSelection, day: string): RangeSelection {
  if (current.from !== null && current.to === null && day > current.from)
    return { from: current.from, to: day };
  return { from: day, to: null };
}

/** Spec 001 §2.2 / §9: the statement's named ranges in menu order (Last month is the default; Custom is separate). */
export const statementDatePresets = [
  'Last month',
  'Last two weeks',
  'Last week',
  'This month',
  'This week',
  'Today',
  'Yesterday',
] as const satisfies readonly DatePreset[];
export type StatementDatePreset = (typeof statementDatePresets)[number];
export const DEFAULT_STATEMENT_PRESET: StatementDatePreset = 'Last month';

export interface DayRange {
  from: string;
  to: string;
}

/** A preset as whole days 'YYYY-MM-DD' (the statement works on days: 00:00:00 to 23:59:59 UTC). */
export function presetDays(preset: DatePreset, now: Date = new Date()): DayRange {
  const r = presetRange(preset, now);
  return { from: formatDate(r.from), to: formatDate(r.to) };
}
