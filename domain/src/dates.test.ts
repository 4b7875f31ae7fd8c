import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { datePresets, dayRange, daysRemaining, formatDateTime, parseDay, presetRange } from './dates.ts';

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
