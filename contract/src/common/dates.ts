import { z } from 'zod';

/**
 * The one date parser (decision 020). Strict: real calendar dates only (2026-02-30 is refused, never rolled
 * over to March), years 0001..9999 (what both JS ISO strings and PostgreSQL timestamps represent without
 * surprises; year 0 is valid ISO 8601 but not a PostgreSQL date), and the year is read as written (no 19xx
 * mapping of years 1..99). Every schema that takes a date, the query engine's date filters, the domain's
 * day parser and the database's timestamp reader use it.
 */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;

export const MIN_INSTANT = -62_135_596_800_000; // 0001-01-01T00:00:00Z
export const MAX_INSTANT = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
/** 400 Gregorian years (146 097 days) in milliseconds. */
const YEARS_400_MS = 146_097 * 86_400_000;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const daysIn = (year: number, month: number) =>
  month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : DAYS_IN_MONTH[month - 1];

/** Epoch milliseconds of 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm[:ss[.fff]]' or ISO 8601 with an offset; undefined when invalid. */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= MIN_INSTANT && value <= MAX_INSTANT ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const m = INSTANT.exec(value.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (year < 1 || month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  // A real calendar day: 2026-02-30 is refused, never rolled over into March.
  if (day < 1 || day > daysIn(year, month)) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11] ?? 0);
    if (oh > 14 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Date.UTC reads years 0..99 as 1900..1999; shifting by 400 years (whose calendar repeats exactly) keeps them as
  // written without a Date object per call.
  const utc =
    year < 100
      ? Date.UTC(year + 400, month - 1, day, hour, minute, second, millis) - YEARS_400_MS
      : Date.UTC(year, month - 1, day, hour, minute, second, millis);
  const ms = utc - offsetMinutes * 60_000;
  return ms >= MIN_INSTANT && ms <= MAX_INSTANT ? ms : undefined;
}

/** A real calendar day 'YYYY-MM-DD' (UTC midnight), or null. */
export function parseCalendarDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = parseInstant(`${text}T00:00:00Z`);
  return ms === undefined ? null : new Date(ms);
}

/** 'YYYY-MM-DD', a real calendar day. */
export const calendarDaySchema = z
  .string()
  .refine((s) => parseCalendarDay(s) !== null, 'expected a real calendar date YYYY-MM-DD (years 0001-9999)')
  .meta({ format: 'date' });

const INSTANT_MESSAGE = 'expected a real date YYYY-MM-DD or ISO 8601 date-time (years 0001-9999)';
const ZONED = /^[^Tt ]+[Tt ]\d{2}:\d{2}.*([Zz]|[+-]\d{2}:?\d{2})$/;
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ZONED_MESSAGE = 'expected an ISO 8601 date-time with a time zone, e.g. 2026-01-31T08:00:00Z';
const INSTANT_META = {
  pattern: INSTANT.source,
  description: 'A date YYYY-MM-DD, or a date-time YYYY-MM-DD HH:mm[:ss[.fff]] with an optional offset or Z',
};

/** An instant as text, validated but kept as written (saved views store what the browser sent). */
export const instantTextSchema = z
  .string()
  .max(40)
  .refine((s) => parseInstant(s) !== undefined, INSTANT_MESSAGE)
  .meta(INSTANT_META);

/**
 * The canonical ISO 8601 UTC text of an instant, parsed once for both the check and the value: license servers
 * send two instants per usage event, thousands of events a second (bench/elastic.ts).
 */
const toCanonicalInstant = (zoned: boolean) => (s: string, ctx: z.RefinementCtx<string>) => {
  const ms = parseInstant(s);
  const message = ms === undefined ? INSTANT_MESSAGE : zoned && !ZONED.test(s.trim()) ? ZONED_MESSAGE : null;
  if (message !== null) {
    ctx.issues.push({ code: 'custom', message, input: s });
    return z.NEVER;
  }
  // A valid instant already written as toISOString writes it is its own canonical text (what machines send).
  return CANONICAL.test(s) ? s : new Date(ms as number).toISOString();
};

/** An instant, answered as its canonical ISO 8601 UTC text so later Date.parse calls cannot disagree. */
export const instantSchema = z
  .string()
  .max(40)
  .meta(INSTANT_META)
  .transform(toCanonicalInstant(false))
  .pipe(z.string().meta({ format: 'date-time' }));

/** An ISO 8601 date-time with its time zone (what machines send), canonical ISO UTC text. */
export const zonedInstantSchema = z
  .string()
  .max(40)
  .meta(INSTANT_META)
  .transform(toCanonicalInstant(true))
  .pipe(z.string().meta({ format: 'date-time' }));

/*
 * Dates in answers, as the server formats them. Metadata only (the document says what they are): an answer is
 * what the server produced, so these neither validate nor change it.
 */
const DAY = '\\d{4}-\\d{2}-\\d{2}';
const DISPLAY_DATE_TIME = `${DAY} \\d{2}:\\d{2}:\\d{2}`;

/** 'YYYY-MM-DD'. */
export const dayText = z.string().meta({ format: 'date' });

/** 'YYYY-MM-DD', or '' where the answer has no day to give (each use says when). */
export const dayOrEmptyText = z.string().meta({
  pattern: `^(${DAY})?$`,
  description: "A date YYYY-MM-DD, or '' when there is none",
});

/** ISO 8601 UTC, as `Date.toISOString()` writes it (2026-05-01T13:00:02.123Z). */
export const instantText = z.string().meta({ format: 'date-time' });

/** The spec's display date-time, 'YYYY-MM-DD HH:mm:ss' in UTC (spec 000 §3): no 'T', no zone. */
export const displayDateTimeText = z.string().meta({
  pattern: `^${DISPLAY_DATE_TIME}$`,
  description: 'A UTC date-time as the portal shows it, YYYY-MM-DD HH:mm:ss (no T, no zone)',
});

/** The display date-time, or '' where the answer has no instant to give. */
export const displayDateTimeOrEmptyText = z.string().meta({
  pattern: `^(${DISPLAY_DATE_TIME})?$`,
  description:
    "A UTC date-time as the portal shows it, YYYY-MM-DD HH:mm:ss (no T, no zone), or '' when there is none",
});
