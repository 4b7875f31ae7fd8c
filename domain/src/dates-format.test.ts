import { UTCDate } from '@date-fns/utc';
import { format } from 'date-fns/format';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATE_FORMAT, DATE_TIME_FORMAT, formatDate, formatDateTime } from './dates.ts';

describe('formatDateTime / formatDate', () => {
  it('agree with date-fns in UTC for any instant, given as Date, number or ISO text', () => {
    fc.assert(
      fc.property(fc.integer({ min: -30610224000000, max: 253402300799999 }), (ms) => {
        const expectedTime = format(new UTCDate(ms), DATE_TIME_FORMAT);
        expect(formatDateTime(ms)).toBe(expectedTime);
        expect(formatDateTime(new Date(ms))).toBe(expectedTime);
        expect(formatDateTime(new Date(ms).toISOString())).toBe(expectedTime);
        expect(formatDate(ms)).toBe(format(new UTCDate(ms), DATE_FORMAT));
      }),
    );
  });
  it('use UTC whatever the offset of the text', () => {
    expect(formatDateTime('2026-03-01T01:30:00+02:00')).toBe('2026-02-28 23:30:00');
    expect(formatDate('2026-03-01T01:30:00+02:00')).toBe('2026-02-28');
  });
  it('refuse an invalid date as before', () => {
    expect(() => formatDateTime('not a date')).toThrow(RangeError);
  });
});
