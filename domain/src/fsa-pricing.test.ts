import { messages } from '@lp/contract/common/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDaysUtc, formatDate, parseDay } from './dates.ts';
import {
  checkManualLine,
  duplicateLines,
  earliestStart,
  FSA_DURATIONS,
  type FsaDuration,
  type FsaPriceList,
  type FsaTerm,
  formatMoney,
  fsaDurationLabels,
  isManualProductName,
  offeredDurations,
  priceLine,
  withTypedAmount,
} from './fsa-pricing.ts';

// The fixtures of decision 035's worked examples.
const today = '2026-11-24';
const full: FsaPriceList = {
  price7Days: 10_000,
  price30Days: 35_000,
  price60Days: 65_000,
  price90Days: 90_000,
  price180Days: 170_000,
  price1Year: 300_000,
};
const only30: FsaPriceList = {
  price7Days: null,
  price30Days: 1_001,
  price60Days: null,
  price90Days: null,
  price180Days: null,
  price1Year: null,
};
const noPrices: FsaPriceList = { ...only30, price30Days: null };
const A: FsaTerm = { startDate: '2026-01-01', endDate: '2027-12-31' };
const B: FsaTerm = { startDate: '2027-06-01', endDate: '2029-05-31' };
const C: FsaTerm = { startDate: '2027-06-01', endDate: '2028-12-30' };
const D: FsaTerm = { startDate: '2027-01-01', endDate: '2027-12-31' };

const line = (contract: FsaTerm, startDate: string, duration: FsaDuration, count = 1, prices = full) =>
  priceLine({ prices, contract, today, startDate, duration, count });

describe('decision 035 worked examples: standard lines', () => {
  it.each([
    // #, contract, prices, start, duration, count, end, unit, cost
    ['1', A, full, '2026-12-01', '30', 2, '2026-12-30', 35_000, 70_000],
    ['2', A, full, '2026-11-24', '7', 1, '2026-11-30', 10_000, 10_000],
    ['3', A, full, '2027-07-05', '180', 1, '2027-12-31', 170_000, 170_000],
    ['5', A, full, '2027-01-01', '365', 1, '2027-12-31', 300_000, 300_000],
    // 364 days left: 1 Year is offered, capped at the contract end, at the year's rate: 364 ÷ 365 × 3,000.00.
    ['6', A, full, '2027-01-02', '365', 1, '2027-12-31', 299_178, 299_178],
    ['7', B, full, '2028-01-01', '365', 1, '2028-12-31', 300_000, 300_000],
    ['8', B, full, '2028-02-29', '365', 1, '2029-02-28', 300_000, 300_000],
    ['9', C, full, '2028-01-01', '365', 1, '2028-12-30', 300_000, 300_000],
    ['10', A, full, '2027-07-01', 'remainder', 3, '2027-12-31', 173_778, 521_334],
    ['11', A, full, '2027-12-28', 'remainder', 1, '2027-12-31', 5_714, 5_714],
    ['12', A, only30, '2027-11-17', 'remainder', 2, '2027-12-31', 1_502, 3_004],
    ['13', A, full, '2027-01-01', 'remainder', 1, '2027-12-31', 300_000, 300_000],
  ] as const)('example %s', (_n, contract, prices, start, duration, count, endDate, unitCents, costCents) => {
    expect(line(contract, start, duration, count, prices)).toEqual({
      ok: true,
      endDate,
      unitCents,
      costCents,
    });
  });

  it.each([
    // #, contract, start, duration, count, field, error
    ['4', A, '2027-07-06', '180', 1, 'duration', messages.fsaEndDateInvalid],
    ['14a', A, '2026-12-01', '30', 0, 'count', messages.fsaCountPositive],
    ['14b', A, '2026-12-01', '30', 1.5, 'count', messages.fsaCountPositive],
    ['15', A, '2026-11-23', '7', 1, 'startDate', messages.fsaStartDateInvalid],
    ['16', A, '2028-01-01', 'remainder', 1, 'startDate', messages.fsaStartDateInvalid],
    ['17', A, '2027-02-29', '7', 1, 'startDate', messages.fsaStartDateInvalid],
    ['18', D, '2026-12-01', '7', 1, 'startDate', messages.fsaStartDateInvalid],
  ] as const)('example %s is refused', (_n, contract, start, duration, count, field, error) => {
    expect(line(contract, start, duration, count)).toEqual({ ok: false, field, error });
  });

  it('a duration the product has no price for is refused (example 19)', () => {
    expect(line(A, '2026-12-01', '7', 1, only30)).toEqual({
      ok: false,
      field: 'duration',
      error: messages.fsaEndDateInvalid,
    });
  });
});

describe('decision 035 worked examples: offered durations and earliest start', () => {
  it.each([
    ['O1', full, A, '2027-12-01', ['7', '30', '365', 'remainder']],
    ['O2', full, A, '2027-01-01', ['7', '30', '60', '90', '180', '365', 'remainder']],
    ['O3', full, A, '2027-12-28', ['365', 'remainder']],
    ['O4', noPrices, A, '2026-12-01', []],
    ['O5', full, A, '2028-01-01', []],
    ['O6', full, C, '2028-01-01', ['7', '30', '60', '90', '180', '365', 'remainder']],
  ] as const)('%s', (_n, prices, contract, start, expected) => {
    expect(offeredDurations(prices, contract, start)).toEqual(expected);
  });

  it('E1, E2: the later of today and the contract start', () => {
    expect(earliestStart(A, today)).toBe('2026-11-24');
    expect(earliestStart(D, today)).toBe('2027-01-01');
  });

  it('labels the durations as the order form shows them', () => {
    expect(FSA_DURATIONS.map((d) => fsaDurationLabels[d])).toEqual([
      '7 Days',
      '30 Days',
      '60 Days',
      '90 Days',
      '180 Days',
      '1 Year',
      'Remainder',
    ]);
  });
});

describe('decision 035 worked examples: manual entries', () => {
  const manual = (startDate: string, endDate: string, count = 3, unitCents = 123_450) =>
    checkManualLine({ contract: A, today, startDate, endDate, count, unitCents });

  it('M1: cost is count × unit cost', () => {
    const result = manual('2026-12-01', '2027-05-31');
    expect(result).toEqual({ ok: true, endDate: '2027-05-31', unitCents: 123_450, costCents: 370_350 });
    expect(result.ok && formatMoney(result.costCents)).toBe('3,703.50');
  });

  it.each([
    ['M2', '2026-12-01', '2026-12-01', 3, 'endDate', messages.fsaEndNotAfterStart],
    ['M3', '2026-12-01', '2026-11-30', 3, 'endDate', messages.fsaEndNotAfterStart],
    ['M4', '2026-12-01', '2028-01-31', 3, 'endDate', messages.fsaEndDateInvalid],
    ['M5', '2026-11-23', '2026-12-31', 3, 'startDate', messages.fsaStartDateInvalid],
    ['M6', '2026-12-01', '2026-12-31', 0, 'count', messages.fsaCountPositive],
    ['M7', '2026-12-01', '2027-02-30', 3, 'endDate', messages.fsaEndDateInvalid],
  ] as const)('%s is refused', (_n, start, end, count, field, error) => {
    expect(manual(start, end, count)).toEqual({ ok: false, field, error });
  });

  it('recognises the manual product names of spec 002 §9', () => {
    expect(isManualProductName('Fluent - Shared Web')).toBe(true);
    expect(isManualProductName('Mechanical Pro - Named User')).toBe(true);
    expect(isManualProductName('Fluent Shared Web')).toBe(false);
    expect(isManualProductName('Mechanical Pro')).toBe(false);
  });
});

describe('decision 035 worked examples: duplicates and amounts', () => {
  const a = { partNumber: 'P1', count: 2, startDate: '2026-12-01', duration: '30', endDate: '2026-12-30' };
  it('D1: only the later repeat of the same product, count, start, duration and end is a duplicate', () => {
    expect(duplicateLines([a, { ...a, partNumber: 'P2' }, a, { ...a, endDate: '2026-12-29' }, a])).toEqual([
      2, 4,
    ]);
  });

  it.each([
    [123_450, '1,234.50'],
    [5, '0.05'],
    [0, '0.00'],
    [123_456_789, '1,234,567.89'],
    [521_334, '5,213.34'],
    [-1_500, '-15.00'],
  ])('%d cents is %s', (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });
});

// Properties over generated contracts, prices, dates and counts.
const base = parseDay('2026-01-01') as Date;
const day = (offset: number) => formatDate(addDaysUtc(base, offset));
const daysBetween = (from: string, to: string) =>
  Math.round(((parseDay(to) as Date).getTime() - (parseDay(from) as Date).getTime()) / 86_400_000);
const price = fc.option(fc.integer({ min: 0, max: 50_000_000 }), { nil: null });
const pricesArb = fc.record({
  price7Days: price,
  price30Days: price,
  price60Days: price,
  price90Days: price,
  price180Days: price,
  price1Year: price,
});
const scene = fc
  .record({
    prices: pricesArb,
    contractStart: fc.integer({ min: 0, max: 1500 }),
    length: fc.integer({ min: 1, max: 1200 }),
    today: fc.integer({ min: 0, max: 1500 }),
    start: fc.integer({ min: -30, max: 2800 }),
    duration: fc.constantFrom(...FSA_DURATIONS),
    count: fc.integer({ min: 1, max: 1000 }),
  })
  .map((s) => ({
    prices: s.prices,
    contract: { startDate: day(s.contractStart), endDate: day(s.contractStart + s.length - 1) },
    today: day(s.today),
    startDate: day(s.start),
    duration: s.duration,
    count: s.count,
  }));
const periodDays = { '7': 7, '30': 30, '60': 60, '90': 90, '180': 180, '365': 365 } as const;
const priceField = {
  '7': 'price7Days',
  '30': 'price30Days',
  '60': 'price60Days',
  '90': 'price90Days',
  '180': 'price180Days',
  '365': 'price1Year',
} as const;

describe('pricing properties', () => {
  it('a priced line has a non-negative cost of count × unit and ends within the contract, after its start', () => {
    fc.assert(
      fc.property(scene, (s) => {
        const r = priceLine(s);
        if (!r.ok) return;
        expect(r.costCents).toBeGreaterThanOrEqual(0);
        expect(r.costCents).toBe(r.unitCents * s.count);
        expect(r.endDate >= s.startDate && r.endDate <= s.contract.endDate).toBe(true);
      }),
    );
  });

  it('a line is priced exactly when its start is orderable and its duration offered', () => {
    fc.assert(
      fc.property(scene, (s) => {
        const orderable =
          s.startDate >= earliestStart(s.contract, s.today) && s.startDate <= s.contract.endDate;
        const offered = offeredDurations(s.prices, s.contract, s.startDate).includes(s.duration);
        expect(priceLine(s).ok).toBe(orderable && offered);
      }),
    );
  });

  it('cost never falls as the count grows', () => {
    fc.assert(
      fc.property(scene, (s) => {
        const one = priceLine(s);
        const more = priceLine({ ...s, count: s.count + 1 });
        if (one.ok && more.ok) expect(more.costCents).toBeGreaterThanOrEqual(one.costCents);
      }),
    );
  });

  it('every offered period of a start within the contract lasts its days (a year 365 or 366, capped at the contract end, never dearer than a year)', () => {
    fc.assert(
      fc.property(scene, (s) => {
        if (s.startDate < s.contract.startDate) return;
        for (const d of offeredDurations(s.prices, s.contract, s.startDate)) {
          const r = priceLine({ ...s, today: s.startDate, duration: d });
          expect(r.ok).toBe(true);
          if (!r.ok) continue;
          const days = daysBetween(s.startDate, r.endDate) + 1;
          if (d === 'remainder') expect(r.endDate).toBe(s.contract.endDate);
          else if (d === '365') {
            const capped = r.endDate === s.contract.endDate;
            expect(days === 365 || days === 366 || (capped && days < 365)).toBe(true);
            expect(r.unitCents <= (s.prices.price1Year as number)).toBe(true);
          } else expect(days).toBe(periodDays[d]);
        }
      }),
    );
  });

  it('remainder is the remaining days ÷ base period × base price rounded half-up, and at most whole base periods', () => {
    fc.assert(
      fc.property(scene, (s) => {
        const r = priceLine({ ...s, today: s.startDate, duration: 'remainder' });
        if (!r.ok) return;
        const remaining = daysBetween(s.startDate, s.contract.endDate) + 1;
        const priced = (['7', '30', '60', '90', '180', '365'] as const).filter(
          (p) => s.prices[priceField[p]] !== null,
        );
        const fitting = priced.filter((p) => periodDays[p] <= remaining);
        const b = fitting.at(-1) ?? (priced[0] as (typeof priced)[number]);
        const length = BigInt(periodDays[b]);
        const basePrice = BigInt(s.prices[priceField[b]] as number);
        const exact = BigInt(remaining) * basePrice; // unit × length, before rounding
        // Half-up: unit − exact ÷ length lies in (−½, ½], a tie rounds up (213 × 465,265.65 ÷ 90 = …870.5 → 871).
        const twiceError = 2n * (BigInt(r.unitCents) * length - exact);
        expect(twiceError > -length && twiceError <= length).toBe(true);
        const wholePeriods = (BigInt(remaining) + length - 1n) / length;
        expect(BigInt(r.costCents) <= basePrice * BigInt(s.count) * wholePeriods).toBe(true);
      }),
      // The tie a random run found: 213 days on a 90-day price of 465,265.65.
      {
        examples: [
          [
            {
              prices: { ...noPrices, price90Days: 46_526_565 },
              contract: { startDate: '2029-01-26', endDate: '2031-04-15' },
              today: '2026-01-01',
              startDate: '2030-09-15',
              duration: '7' as const,
              count: 1,
            },
          ],
        ],
      },
    );
  });

  it('a manual line that passes costs count × unit and lies within the contract, end after start', () => {
    fc.assert(
      fc.property(
        scene,
        fc.integer({ min: -30, max: 2800 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (s, end, unitCents) => {
          const r = checkManualLine({ ...s, endDate: day(end), unitCents });
          if (!r.ok) return;
          expect(r.costCents).toBe(s.count * unitCents);
          expect(s.startDate >= earliestStart(s.contract, s.today)).toBe(true);
          expect(s.startDate < r.endDate && r.endDate <= s.contract.endDate).toBe(true);
        },
      ),
    );
  });
});

describe('decision 050: the cost typed is the cost ordered', () => {
  it('1,000.00 for 3 costs exactly 1,000.00 (unit shown 333.33); 200,000.00 stays 200,000.00', () => {
    const typed = (count: number, costCents: number) =>
      checkManualLine({
        contract: A,
        today,
        startDate: '2026-12-01',
        endDate: '2027-05-31',
        count,
        costCents,
      });
    expect(typed(3, 100_000)).toEqual({
      ok: true,
      endDate: '2027-05-31',
      unitCents: 33_333,
      costCents: 100_000,
    });
    expect(typed(3, 20_000_000)).toMatchObject({ costCents: 20_000_000 });
    expect(typed(0, 100_000)).toMatchObject({ ok: false, error: messages.fsaCountPositive });
  });

  it('never loses or invents a cent: the line cost is the typed cost, the unit within half a cent of cost ÷ count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1e12 }),
        (count, costCents) => {
          const r = checkManualLine({
            contract: A,
            today,
            startDate: '2026-12-01',
            endDate: '2027-05-31',
            count,
            costCents,
          });
          const std = withTypedAmount(
            priceLine({ prices: full, contract: A, today, startDate: '2026-12-01', duration: '30', count }),
            { costCents },
            count,
          );
          for (const line of [r, std]) {
            if (!line.ok) throw new Error('priced');
            expect(line.costCents).toBe(costCents);
            expect(Math.abs(2 * (line.unitCents * count - costCents)) <= count).toBe(true);
          }
        },
      ),
    );
  });
});

describe('duplicate and amount properties', () => {
  const lineArb = fc.record({
    partNumber: fc.constantFrom('P1', 'P2'),
    count: fc.integer({ min: 1, max: 2 }),
    startDate: fc.constantFrom('2026-12-01', '2026-12-02'),
    duration: fc.constantFrom('7', 'remainder'),
    endDate: fc.constantFrom('2026-12-07', '2027-12-31'),
  });
  const keyOf = (l: Parameters<typeof duplicateLines>[0][number]) =>
    JSON.stringify([l.partNumber, l.count, l.startDate, l.duration, l.endDate]);

  it('each duplicate repeats an earlier line, the rest are distinct, and the count does not depend on order', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 20 }), (lines) => {
        const dups = duplicateLines(lines);
        const kept = lines.filter((_, i) => !dups.includes(i)).map(keyOf);
        expect(new Set(kept).size).toBe(kept.length);
        for (const i of dups)
          expect(lines.slice(0, i).map(keyOf)).toContain(keyOf(lines[i] as (typeof lines)[0]));
        expect(duplicateLines([...lines].reverse())).toHaveLength(dups.length);
      }),
    );
  });

  it('formatMoney is exact: two decimals, thousands groups, reading back to the same cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        const text = formatMoney(cents);
        expect(text).toMatch(/^-?\d{1,3}(,\d{3})*\.\d{2}$/);
        expect(BigInt(text.replace(/[,.]/g, ''))).toBe(BigInt(cents));
      }),
    );
  });
});
