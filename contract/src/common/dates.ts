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

/** Epoch milliseconds of 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm[:ss[.fff]]' or ISO 8601 with an offset; undefined when invalid. */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= MIN_INSTANT && value <= MAX_INSTANT ? value : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const m = INSTANT.exec(value.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((p) =>
    Number(p ?? 0),
  );
  const millis = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  // setUTCFullYear, unlike Date.UTC and new Date(y, …), keeps years 1..99 as written.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  // Round trip: a day that rolled over into the next month was not a calendar day.
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11] ?? 0);
    if (oh > 14 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = date.getTime() - offsetMinutes * 60_000;
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

/** An instant as text, validated but kept as written (saved views store what the browser sent). */
export const instantTextSchema = z
  .string()
  .max(40)
  .refine(
    (s) => parseInstant(s) !== undefined,
    'expected a real date YYYY-MM-DD or ISO 8601 date-time (years 0001-9999)',
  )
  .meta({
    pattern: INSTANT.source,
    description: 'A date YYYY-MM-DD, or a date-time YYYY-MM-DD HH:mm[:ss[.fff]] with an optional offset or Z',
  });

/** An instant, answered as its canonical ISO 8601 UTC text so later Date.parse calls cannot disagree. */
export const instantSchema = instantTextSchema
  .transform((s) => new Date(parseInstant(s) as number).toISOString())
  .pipe(z.string().meta({ format: 'date-time' }));

/** An ISO 8601 date-time with its time zone (what machines send), canonical ISO UTC text. */
export const zonedInstantSchema = instantTextSchema
  .refine(
    (s) => /^[^Tt ]+[Tt ]\d{2}:\d{2}.*([Zz]|[+-]\d{2}:?\d{2})$/.test(s.trim()),
    'expected an ISO 8601 date-time with a time zone, e.g. 2026-01-31T08:00:00Z',
  )
  .transform((s) => new Date(parseInstant(s) as number).toISOString())
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
