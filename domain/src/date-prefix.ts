import { UTCDate } from '@date-fns/utc';
import { addDays } from 'date-fns/addDays';
import { addHours } from 'date-fns/addHours';
import { addMinutes } from 'date-fns/addMinutes';
import { addMonths } from 'date-fns/addMonths';
import { addSeconds } from 'date-fns/addSeconds';
import { addYears } from 'date-fns/addYears';
import type { DateRange } from './dates.ts';

/**
 * Typed date prefixes of the transactions filters (spec 001 §5): what a user types into a date filter is
 * read as a prefix of 'YYYY-MM-DD HH:mm:ss' and becomes the range of instants (UTC) that prefix covers.
 *
 *   202                  decade      2020-01-01 00:00:00.000 .. 2029-12-31 23:59:59.999
 *   2024                 year
 *   2024-03              year-month
 *   2024-03-10           day
 *   2024-03-10 14        hour        ('T' may stand for the space)
 *   2024-03-10 14:05     minute
 *   2024-03-10 14:05:09  second      (.. 14:05:09.999)
 *
 * Anything else, including impossible dates such as 2023-02-29 or 24:00, is not a prefix: it comes back as
 * text so the caller can pass it through unchanged.
 */
export type DatePrefixPrecision = 'decade' | 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

export type DatePrefix =
  | { kind: 'range'; precision: DatePrefixPrecision; range: DateRange }
  | { kind: 'text'; text: string };

const PREFIX = /^([1-9]\d{2})(\d)?(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2}))?)?)?)?)?$/;

const units: DatePrefixPrecision[] = ['year', 'month', 'day', 'hour', 'minute', 'second'];

export function parseDatePrefix(input: string): DatePrefix {
  const text = input.trim();
  const m = PREFIX.exec(text);
  if (!m) return { kind: 'text', text: input };
  const [, head, yearDigit, month, day, hour, minute, second] = m;
  if (yearDigit === undefined) {
    // Three digits alone are a decade; three digits followed by anything else are not a date.
    if (month !== undefined) return { kind: 'text', text: input };
    return rangeOf(utcInstant(Number(head) * 10, 1, 1), 'decade');
  }
  const parts = [head + yearDigit, month, day, hour, minute, second];
  const depth = parts.filter((p) => p !== undefined).length;
  // Units not typed start at their first value: January, the 1st, 00:00:00.
  const [y, mo, d, h, mi, s] = parts.map((p, i) =>
    p !== undefined ? Number(p) : i === 1 || i === 2 ? 1 : 0,
  );
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 59) return { kind: 'text', text: input };
  const from = utcInstant(y, mo, d, h, mi, s);
  // Rejects days that do not exist in that month (2023-02-29 would roll over to March).
  if (from.getUTCMonth() !== mo - 1 || from.getUTCDate() !== d) return { kind: 'text', text: input };
  return rangeOf(from, units[depth - 1]);
}

function rangeOf(from: Date, precision: DatePrefixPrecision): DatePrefix {
  const to = new Date(nextUnit[precision](new UTCDate(from.getTime())).getTime() - 1);
  return { kind: 'range', precision, range: { from, to } };
}

const utcInstant = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  new Date(new UTCDate(y, mo - 1, d, h, mi, s).getTime());

/** Start of the next unit, computed in UTC (the argument is a UTCDate, so date-fns stays in UTC). */
const nextUnit: Record<DatePrefixPrecision, (from: UTCDate) => Date> = {
  decade: (d) => addYears(d, 10),
  year: (d) => addYears(d, 1),
  month: (d) => addMonths(d, 1),
  day: (d) => addDays(d, 1),
  hour: (d) => addHours(d, 1),
  minute: (d) => addMinutes(d, 1),
  second: (d) => addSeconds(d, 1),
};
