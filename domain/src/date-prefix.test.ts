import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DatePrefixPrecision, parseDatePrefix } from './date-prefix.ts';

const range = (text: string) => {
  const parsed = parseDatePrefix(text);
  if (parsed.kind !== 'range') throw new Error(`${text} was not read as a date prefix`);
  return {
    precision: parsed.precision,
    from: parsed.range.from.toISOString(),
    to: parsed.range.to.toISOString(),
  };
};

describe('typed date prefixes (spec 001 §5)', () => {
  it('reads every form as the range it covers', () => {
    expect(range('202')).toEqual({
      precision: 'decade',
      from: '2020-01-01T00:00:00.000Z',
      to: '2029-12-31T23:59:59.999Z',
    });
    expect(range('2024')).toEqual({
      precision: 'year',
      from: '2024-01-01T00:00:00.000Z',
      to: '2024-12-31T23:59:59.999Z',
    });
    expect(range('2024-02')).toEqual({
      precision: 'month',
      from: '2024-02-01T00:00:00.000Z',
      to: '2024-02-29T23:59:59.999Z',
    });
    expect(range('2023-12-31')).toEqual({
      precision: 'day',
      from: '2023-12-31T00:00:00.000Z',
      to: '2023-12-31T23:59:59.999Z',
    });
    expect(range('2024-03-10 14')).toEqual({
      precision: 'hour',
      from: '2024-03-10T14:00:00.000Z',
      to: '2024-03-10T14:59:59.999Z',
    });
    expect(range('2024-03-10T23:59')).toEqual({
      precision: 'minute',
      from: '2024-03-10T23:59:00.000Z',
      to: '2024-03-10T23:59:59.999Z',
    });
    expect(range(' 2024-03-10 14:05:09 ')).toEqual({
      precision: 'second',
      from: '2024-03-10T14:05:09.000Z',
      to: '2024-03-10T14:05:09.999Z',
    });
  });

  it('passes unrecognised text through unchanged', () => {
    for (const text of [
      'yesterday',
      '14:05',
      '2023-02-29',
      '2024-13',
      '2024-00',
      '2024-03-10 24',
      '2024-03-10 10:60',
      '2024-03-10 10:00:61',
      '2024-3-1',
      '20',
      '099',
      '202-03',
      '2024-03-10 14:05:09.5',
      '',
    ]) {
      expect(parseDatePrefix(text)).toEqual({ kind: 'text', text });
    }
  });

  const precisions: [DatePrefixPrecision, number][] = [
    ['year', 4],
    ['month', 7],
    ['day', 10],
    ['hour', 13],
    ['minute', 16],
    ['second', 19],
  ];
  const instant = fc.date({
    min: new Date('1000-01-01T00:00:00Z'),
    max: new Date('9999-12-31T23:59:59Z'),
    noInvalidDate: true,
  });

  it('any prefix of a real instant covers that instant, starting exactly at the prefix', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...precisions), fc.boolean(), (d, [precision, length], t) => {
        const full = d
          .toISOString()
          .slice(0, 19)
          .replace('T', t ? 'T' : ' ');
        const parsed = parseDatePrefix(full.slice(0, length));
        expect(parsed.kind).toBe('range');
        if (parsed.kind !== 'range') return;
        expect(parsed.precision).toBe(precision);
        const { from, to } = parsed.range;
        expect(from.getTime()).toBeLessThanOrEqual(d.getTime());
        expect(to.getTime()).toBeGreaterThanOrEqual(Math.floor(d.getTime() / 1000) * 1000);
        // The range starts where the prefix starts and ends one millisecond before the next unit.
        expect(
          from
            .toISOString()
            .replace('T', full[10] ?? 'T')
            .slice(0, length),
        ).toBe(full.slice(0, length));
        const after = parseDatePrefix(new Date(to.getTime() + 1).toISOString().slice(0, length));
        if (after.kind === 'range') expect(after.range.from.getTime()).toBe(to.getTime() + 1);
      }),
    );
  });

  it('a longer prefix of the same instant lies inside the shorter one', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 0, max: 4 }), (d, i) => {
        const full = d.toISOString().slice(0, 19);
        const outer = parseDatePrefix(full.slice(0, precisions[i][1]));
        const inner = parseDatePrefix(full.slice(0, precisions[i + 1][1]));
        if (outer.kind !== 'range' || inner.kind !== 'range') throw new Error('not a range');
        expect(inner.range.from.getTime()).toBeGreaterThanOrEqual(outer.range.from.getTime());
        expect(inner.range.to.getTime()).toBeLessThanOrEqual(outer.range.to.getTime());
      }),
    );
  });

  it('text that is not a prefix form comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\s*[1-9]\d{2}/.test(s)),
        (s) => {
          expect(parseDatePrefix(s)).toEqual({ kind: 'text', text: s });
        },
      ),
    );
  });
});
