import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { instantSchema, instantTextSchema, parseInstant, zonedInstantSchema } from './dates.ts';

/**
 * The parser and schemas as first written (a Date object per call, two parses per instant): the oracle for the
 * faster ones, which must agree on every value, every refusal and every first message.
 */
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(?:([Zz])|([+-])(\d{2}):?(\d{2})?)?$/;
function referenceParse(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= -62_135_596_800_000 && value <= 253_402_300_799_999
      ? value
      : undefined;
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
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) return undefined;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11] ?? 0);
    if (oh > 14 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = date.getTime() - offsetMinutes * 60_000;
  return ms >= -62_135_596_800_000 && ms <= 253_402_300_799_999 ? ms : undefined;
}
const referenceText = instantTextSchema;
const referenceInstant = referenceText
  .transform((s) => new Date(parseInstant(s) as number).toISOString())
  .pipe(z.string());
const referenceZoned = referenceText
  .refine(
    (s) => /^[^Tt ]+[Tt ]\d{2}:\d{2}.*([Zz]|[+-]\d{2}:?\d{2})$/.test(s.trim()),
    'expected an ISO 8601 date-time with a time zone, e.g. 2026-01-31T08:00:00Z',
  )
  .transform((s) => new Date(parseInstant(s) as number).toISOString())
  .pipe(z.string());

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Date-like texts around every edge: years 0..10000, month 0..13, day 0..32, leap days, offsets, spaces. */
const dateLike = fc
  .record({
    year: fc.oneof(
      fc.integer({ min: 0, max: 120 }),
      fc.integer({ min: 1895, max: 2105 }),
      fc.integer({ min: 9990, max: 10_000 }),
    ),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    time: fc.option(
      fc.record({
        sep: fc.constantFrom('T', 't', ' '),
        hour: fc.integer({ min: 0, max: 25 }),
        minute: fc.integer({ min: 0, max: 60 }),
        second: fc.option(fc.integer({ min: 0, max: 60 })),
        fraction: fc.option(fc.stringMatching(/^\d{1,10}$/)),
      }),
    ),
    zone: fc.constantFrom('', 'Z', 'z', '+00:00', '-01:30', '+0530', '-14', '+15:00', '+01:60', ' Z'),
    space: fc.constantFrom('', ' ', '\t'),
  })
  .map(({ year, month, day, time, zone, space }) => {
    let text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    if (time) {
      text += `${time.sep}${pad(time.hour, 2)}:${pad(time.minute, 2)}`;
      if (time.second !== null) {
        text += `:${pad(time.second, 2)}`;
        if (time.fraction !== null) text += `.${time.fraction}`;
      }
    }
    return `${space}${text}${zone}${space}`;
  });
const anyInput = fc.oneof(
  { weight: 6, arbitrary: dateLike },
  { weight: 1, arbitrary: fc.string({ maxLength: 45 }) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
);

const outcome = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? { value: r.data } : { message: r.error.issues[0].message };
};

describe('parseInstant', () => {
  it('agrees with the first Date-object parser on every date-like text, string and number', () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, fc.integer(), fc.double()), (value) => {
        expect(parseInstant(value)).toBe(referenceParse(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps years 1..99 as written, refuses year 0 and days that do not exist', () => {
    expect(parseInstant('0001-01-01T00:00:00Z')).toBe(-62_135_596_800_000);
    expect(new Date(parseInstant('0099-12-31') as number).toISOString()).toBe('0099-12-31T00:00:00.000Z');
    expect(parseInstant('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseInstant('1900-02-29')).toBeUndefined();
    expect(parseInstant('2000-02-29')).toBe(Date.UTC(2000, 1, 29));
    expect(parseInstant('0000-01-01')).toBeUndefined();
    expect(parseInstant('2026-04-31')).toBeUndefined();
  });
});

describe('instant schemas', () => {
  it('answer the same canonical text and the same first message as checking and parsing twice', () => {
    fc.assert(
      fc.property(fc.oneof(anyInput, fc.constant(42), fc.constant(null)), (value) => {
        expect(outcome(zonedInstantSchema, value)).toEqual(outcome(referenceZoned, value));
        expect(outcome(instantSchema, value)).toEqual(outcome(referenceInstant, value));
      }),
      { numRuns: 3000 },
    );
  });
});
