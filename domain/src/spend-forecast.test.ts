import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  burnDown,
  type DaySpend,
  daysBetween,
  lowBalanceLevel,
  runOutForecast,
  shiftDay,
} from './spend-forecast.ts';

const today = '2026-11-24';

describe('decision 037 worked examples', () => {
  it('example 1: 10,800.00 in the window, 64,000.00 left: runs out 2028-05-11, past the end 2027-06-30', () => {
    const spend = [
      { day: '2026-08-26', cents: 999_999 }, // one day before the window: not counted
      { day: '2026-08-27', cents: 480_000 }, // the window's first day
      { day: '2026-10-01', cents: 300_000 },
      { day: today, cents: 300_000 },
    ];
    expect(
      runOutForecast({ remainingCents: 6_400_000, spend, today, windowDays: 90, endDate: '2027-06-30' }),
    ).toEqual({
      windowSpendCents: 1_080_000,
      dailyBurnCents: 12_000,
      exhausted: false,
      // ceil(6,400,000 × 90 / 1,080,000) = ceil(533.3) = 534 days after today
      runOutDay: '2028-05-11',
      beforeEnd: false,
    });
  });

  it('example 2: 4,500.00 in the window, 10,000.00 left: exactly 200 days, 2027-06-12, before the end', () => {
    const spend = [
      { day: '2026-09-10', cents: 200_000 },
      { day: '2026-11-20', cents: 250_000 },
    ];
    expect(
      runOutForecast({ remainingCents: 1_000_000, spend, today, windowDays: 90, endDate: '2027-06-30' }),
    ).toEqual({
      windowSpendCents: 450_000,
      dailyBurnCents: 5_000,
      exhausted: false,
      runOutDay: '2027-06-12',
      beforeEnd: true,
    });
  });
});

describe('runOutForecast', () => {
  const base = { spend: [{ day: today, cents: 100 }], today, windowDays: 30, endDate: null };

  it('has no run-out day without spend in the window, or when nothing is left', () => {
    const old = [{ day: shiftDay(today, -30), cents: 5_000 }];
    expect(runOutForecast({ ...base, remainingCents: 1_000, spend: old })).toMatchObject({
      windowSpendCents: 0,
      runOutDay: null,
      exhausted: false,
    });
    for (const remainingCents of [0, -5])
      expect(runOutForecast({ ...base, remainingCents })).toMatchObject({
        exhausted: true,
        runOutDay: null,
        beforeEnd: false,
      });
  });

  it('rounds the days up: one cent more than n days of burn lasts into day n + 1', () => {
    // 300 cents over 30 days = 10 a day
    const spend = [{ day: today, cents: 300 }];
    expect(runOutForecast({ ...base, spend, remainingCents: 100 }).runOutDay).toBe(shiftDay(today, 10));
    expect(runOutForecast({ ...base, spend, remainingCents: 101 }).runOutDay).toBe(shiftDay(today, 11));
    expect(runOutForecast({ ...base, spend, remainingCents: 1 }).runOutDay).toBe(shiftDay(today, 1));
  });

  it('runs out on the end day: not before the end; a day earlier is', () => {
    const spend = [{ day: today, cents: 300 }];
    const endDate = shiftDay(today, 10);
    expect(runOutForecast({ ...base, spend, remainingCents: 100, endDate }).beforeEnd).toBe(false);
    expect(runOutForecast({ ...base, spend, remainingCents: 90, endDate }).beforeEnd).toBe(true);
  });

  it('stops at the last calendar day for a trickle against a huge balance', () => {
    const f = runOutForecast({ ...base, spend: [{ day: today, cents: 1 }], remainingCents: 1e15 });
    expect(f.runOutDay).toBe('9999-12-31');
  });

  it('refuses a window shorter than a day', () => {
    expect(() => runOutForecast({ ...base, remainingCents: 1, windowDays: 0 })).toThrow(RangeError);
  });
});

describe('burnDown', () => {
  it('gives the balance at the end of each day, spend of a day summed', () => {
    expect(
      burnDown({
        budgetCents: 1_000,
        spend: [
          { day: '2026-11-22', cents: 100 },
          { day: '2026-11-20', cents: 50 },
          { day: '2026-11-22', cents: 25 },
        ],
        startDate: '2026-11-20',
        today,
        endDate: '2027-11-19',
      }),
    ).toEqual([
      { day: '2026-11-20', remainingCents: 950 },
      { day: '2026-11-21', remainingCents: 950 },
      { day: '2026-11-22', remainingCents: 825 },
      { day: '2026-11-23', remainingCents: 825 },
      { day: '2026-11-24', remainingCents: 825 },
    ]);
  });

  it('stops at an earlier end, starts at an earlier order, and has one point for a contract not started', () => {
    const ended = burnDown({
      budgetCents: 10,
      spend: [],
      startDate: '2026-11-01',
      today,
      endDate: '2026-11-03',
    });
    expect(ended.map((p) => p.day)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    const early = burnDown({
      budgetCents: 10,
      spend: [{ day: '2026-11-23', cents: 4 }],
      startDate: '2026-12-01',
      today,
      endDate: '2027-11-30',
    });
    expect(early).toEqual([
      { day: '2026-11-23', remainingCents: 6 },
      { day: '2026-11-24', remainingCents: 6 },
    ]);
    expect(
      burnDown({ budgetCents: 10, spend: [], startDate: '2026-12-01', today, endDate: '2027-11-30' }),
    ).toEqual([{ day: '2026-12-01', remainingCents: 10 }]);
  });
});

describe('lowBalanceLevel', () => {
  it('warns at 80 and 95 % used', () => {
    expect([0, 79, 80, 94, 95, 99, 100].map(lowBalanceLevel)).toEqual([null, null, 80, 80, 95, 95, 95]);
  });
});

describe('properties', () => {
  const dayArb = fc.integer({ min: -400, max: 0 }).map((n) => shiftDay(today, n));
  const spendArb = fc.array(fc.record({ day: dayArb, cents: fc.integer({ min: 0, max: 1e9 }) }), {
    maxLength: 30,
  });
  const total = (spend: DaySpend[]) => spend.reduce((s, x) => s + x.cents, 0);

  it('the burn-down is daily, non-increasing, and ends at budget − all spend', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e12 }),
        spendArb,
        dayArb,
        fc.option(fc.integer({ min: -400, max: 400 }).map((n) => shiftDay(today, n))),
        (budgetCents, spend, startDate, endDate) => {
          const points = burnDown({ budgetCents, spend, startDate, today, endDate });
          expect(points.at(-1)!.remainingCents).toBe(budgetCents - total(spend));
          for (let i = 1; i < points.length; i++) {
            expect(daysBetween(points[i - 1]!.day, points[i]!.day)).toBe(1);
            expect(points[i]!.remainingCents).toBeLessThanOrEqual(points[i - 1]!.remainingCents);
          }
        },
      ),
    );
  });

  it('the run-out day is after today; more burn runs out earlier or on the same day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e12 }),
        spendArb,
        fc.record({ day: dayArb, cents: fc.integer({ min: 1, max: 1e9 }) }),
        fc.integer({ min: 1, max: 120 }),
        (remainingCents, spend, extra, windowDays) => {
          const args = { remainingCents, today, windowDays, endDate: null };
          const less = runOutForecast({ ...args, spend });
          const more = runOutForecast({ ...args, spend: [...spend, extra] });
          for (const f of [less, more]) if (f.runOutDay !== null) expect(f.runOutDay > today).toBe(true);
          if (less.runOutDay !== null) expect(more.runOutDay! <= less.runOutDay).toBe(true);
        },
      ),
    );
  });

  it('the projected burn up to the run-out day covers the balance, one day less does not', () => {
    fc.assert(
      fc.property(
        // At most 120,000 days: well before the last calendar day.
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 1_000, max: 1e7 }),
        fc.integer({ min: 1, max: 120 }),
        (remainingCents, cents, windowDays) => {
          const f = runOutForecast({
            remainingCents,
            spend: [{ day: today, cents }],
            today,
            windowDays,
            endDate: null,
          });
          const days = daysBetween(today, f.runOutDay!);
          expect(days * cents).toBeGreaterThanOrEqual(remainingCents * windowDays);
          expect((days - 1) * cents).toBeLessThan(remainingCents * windowDays);
        },
      ),
    );
  });
});
