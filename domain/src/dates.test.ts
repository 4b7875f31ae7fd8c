import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  datePresets,
  dayRange,
  daysRemaining,
  formatDateTime,
  formatInstant,
  nextRangeClick,
  parseDay,
  presetRange,
  type RangeSelection,
  transactionDatePresets,
  wholeDays,
} from './dates.ts';

const now = new Date('2026-11-22T10:30:00Z');

describe('dates', () => {
  it('formats timestamps in UTC with the spec format', () => {
    expect(formatDateTime(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02 03:04:05');
  });

  it('counts days remaining inclusive of the last day', () => {
    expect(daysRemaining('2026-11-22', now)).toBe(1);
    expect(daysRemaining('2026-11-23', now)).toBe(2);
    expect(daysRemaining('2026-11-21', now)).toBe(0);
    expect(daysRemaining(null, now)).toBeNull();
  });

  it('accepts only real calendar dates', () => {
    expect(parseDay('2024-02-29')).not.toBeNull();
    expect(parseDay('2023-02-29')).toBeNull();
    expect(parseDay('2024-13-01')).toBeNull();
    expect(parseDay('24-01-01')).toBeNull();
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (d) => {
          const text = d.toISOString().slice(0, 10);
          expect(parseDay(text)?.toISOString().slice(0, 10)).toBe(text);
        },
      ),
    );
  });

  it('gives well-ordered ranges for every preset', () => {
    for (const p of datePresets) {
      const r = presetRange(p, now);
      expect(r.from.getTime()).toBeLessThanOrEqual(r.to.getTime());
    }
    expect(presetRange('Last month', now)).toEqual({
      from: new Date('2026-10-01T00:00:00.000Z'),
      to: new Date('2026-10-31T23:59:59.999Z'),
    });
    expect(presetRange('Max', now).from.toISOString()).toBe('2018-01-01T00:00:00.000Z');
  });

  it('turns a day into a whole-day range', () => {
    expect(dayRange('2026-03-01')).toEqual({
      from: new Date('2026-03-01T00:00:00.000Z'),
      to: new Date('2026-03-01T23:59:59.999Z'),
    });
    expect(dayRange('2026-3-1')).toBeNull();
  });
});

describe('usage transaction periods (spec 001 §2.3, §4)', () => {
  const at = new Date('2026-03-15T10:30:00Z');
  const period = (p: (typeof transactionDatePresets)[number]) => {
    const r = wholeDays(presetRange(p, at));
    return [formatInstant(r.from), formatInstant(r.to)];
  };

  it('offers the spec menu in order, every preset from 00:00:00.000 to 23:59:59.999', () => {
    expect(transactionDatePresets).toEqual([
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
    ]);
    expect(period('1 Day')).toEqual(['2026-03-14 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('5 Days')).toEqual(['2026-03-10 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('1 Month')).toEqual(['2026-02-15 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('3 Months')).toEqual(['2025-12-15 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('6 Months')).toEqual(['2025-09-15 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('YTD')).toEqual(['2026-01-01 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('1 Year')).toEqual(['2025-03-15 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('Max')).toEqual(['2018-01-01 00:00:00.000', '2026-03-15 23:59:59.999']);
    expect(period('Last month')).toEqual(['2026-02-01 00:00:00.000', '2026-02-28 23:59:59.999']);
    expect(period('Last quarter')).toEqual(['2025-10-01 00:00:00.000', '2025-12-31 23:59:59.999']);
    expect(period('Last year')).toEqual(['2025-01-01 00:00:00.000', '2025-12-31 23:59:59.999']);
  });

  it('whole days contain the range they widen', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.constantFrom(...transactionDatePresets),
        (now, p) => {
          const raw = presetRange(p, now);
          const r = wholeDays(raw);
          expect(r.from.getTime()).toBeLessThanOrEqual(raw.from.getTime());
          expect(r.to.getTime()).toBeGreaterThanOrEqual(raw.to.getTime());
          expect(formatInstant(r.from).endsWith(' 00:00:00.000')).toBe(true);
          expect(formatInstant(r.to).endsWith(' 23:59:59.999')).toBe(true);
        },
      ),
    );
  });

  it('custom calendar: first click sets from, a later day sets to, any other click restarts', () => {
    const none: RangeSelection = { from: null, to: null };
    const first = nextRangeClick(none, '2026-03-10');
    expect(first).toEqual({ from: '2026-03-10', to: null });
    expect(nextRangeClick(first, '2026-04-02')).toEqual({ from: '2026-03-10', to: '2026-04-02' });
    expect(nextRangeClick(first, '2026-03-01')).toEqual({ from: '2026-03-01', to: null });
    expect(nextRangeClick(first, '2026-03-10')).toEqual({ from: '2026-03-10', to: null });
    expect(nextRangeClick({ from: '2026-03-10', to: '2026-03-12' }, '2026-03-20')).toEqual({
      from: '2026-03-20',
      to: null,
    });
    fc.assert(
      fc.property(
        fc.array(fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })),
        (clicks) => {
          let s = none;
          for (const c of clicks) s = nextRangeClick(s, c.toISOString().slice(0, 10));
          // Whatever was clicked, a complete selection is always ordered.
          if (s.to !== null) expect(s.from !== null && s.from < s.to).toBe(true);
        },
      ),
    );
  });
});
