import type { FsaContract } from '@lp/contract/fsa/schemas';
import { budgetFindings } from '@lp/domain/notices';
import { shiftDay } from '@lp/domain/spend-forecast';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  balanceSummary,
  contractForecast,
  forecastText,
  lowBalanceWarnings,
  projectedBalance,
} from './spend-insights.ts';

const today = '2026-11-24';

function contract(entitlementId: string, over: Partial<FsaContract> = {}): FsaContract {
  return {
    entitlementId,
    orderId: entitlementId,
    poNumber: null,
    startDate: '2026-07-01',
    endDate: '2027-06-30',
    currency: 'USD',
    budgetCents: 10_000_000,
    usedCents: 3_600_000,
    remainingCents: 6_400_000,
    usedPercentage: 36,
    remainingdays: 219,
    usedDays: 147,
    usedDaysPercentage: 40,
    colours: { remainingdays: 'green', usedpercentage: 'green' },
    active: true,
    busopsEmails: [],
    lastOrderedAt: null,
    hasProducts: true,
    dailySpend: [],
    ...over,
  };
}

describe('lowBalanceWarnings', () => {
  it('warns for active contracts at 80 and 95 % used, the most used first', () => {
    const warnings = lowBalanceWarnings([
      contract('FSA-OK', { usedPercentage: 79 }),
      contract('FSA-80', { usedPercentage: 80, remainingCents: 200_000_000, currency: 'EUR' }),
      contract('FSA-96', { usedPercentage: 96, remainingCents: 123_450 }),
      contract('FSA-OLD', { usedPercentage: 99, active: false }),
    ]);
    expect(warnings).toEqual([
      {
        entitlementId: 'FSA-96',
        level: 95,
        text: 'FSA-96: 96% of the budget is used (remaining 1,234.50 USD).',
      },
      {
        entitlementId: 'FSA-80',
        level: 80,
        text: 'FSA-80: 80% of the budget is used (remaining 2,000,000.00 EUR).',
      },
    ]);
  });
});

describe('forecastText', () => {
  // Decision 037, example 1 and 2.
  it('names the rate, the run-out day and whether it is before the contract end', () => {
    const past = contract('FSA-1', {
      dailySpend: [
        { day: '2026-08-27', cents: 480_000 },
        { day: '2026-10-01', cents: 300_000 },
        { day: today, cents: 300_000 },
      ],
    });
    expect(forecastText(contractForecast(past, today), past)).toBe(
      "At the last 90 days' rate of 120.00 USD a day, the balance lasts past the contract end on 2027-06-30.",
    );
    const before = contract('FSA-2', {
      remainingCents: 1_000_000,
      dailySpend: [
        { day: '2026-09-10', cents: 200_000 },
        { day: '2026-11-20', cents: 250_000 },
      ],
    });
    expect(forecastText(contractForecast(before, today), before)).toBe(
      "At the last 90 days' rate of 50.00 USD a day, the balance runs out on 2027-06-12, before the contract ends on 2027-06-30.",
    );
    expect(
      forecastText(contractForecast({ ...before, endDate: null }, today), { ...before, endDate: null }),
    ).toBe("At the last 90 days' rate of 50.00 USD a day, the balance runs out on 2027-06-12.");
  });

  it('says when there were no orders in the window or nothing is left', () => {
    const quiet = contract('FSA-Q', { dailySpend: [{ day: '2026-08-26', cents: 5 }] });
    expect(forecastText(contractForecast(quiet, today), quiet)).toBe('No orders in the last 90 days.');
    const spent = contract('FSA-S', { remainingCents: 0, dailySpend: [{ day: today, cents: 5 }] });
    expect(forecastText(contractForecast(spent, today), spent)).toBe('The budget is used up.');
  });
});

it('balanceSummary gives the chart numbers as text', () => {
  expect(balanceSummary(contract('FSA-1'), today)).toBe(
    'Budget 100,000.00 USD, used 36,000.00 USD (36%), remaining 64,000.00 USD on 2026-11-24.',
  );
});

describe('one forecast (issue 21, decision 050)', () => {
  it('the run-out notice and the Spending panel name the same day and rate for a contract', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ ago: fc.integer({ min: 0, max: 120 }), cents: fc.integer({ min: 1, max: 500_000 }) }),
          {
            maxLength: 20,
          },
        ),
        fc.integer({ min: 1, max: 6_400_000 }),
        (orders, remainingCents) => {
          const byDay = new Map<string, number>();
          for (const o of orders)
            byDay.set(shiftDay(today, -o.ago), (byDay.get(shiftDay(today, -o.ago)) ?? 0) + o.cents);
          const dailySpend = [...byDay]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([day, cents]) => ({ day, cents }));
          const c = contract('FSA-1', { remainingCents, usedCents: 10_000_000 - remainingCents, dailySpend });
          const panel = forecastText(contractForecast(c, today), c);
          const notice = budgetFindings(
            {
              type: 'fsa',
              objectId: 'FSA-1',
              name: 'FSA-1',
              budgetCents: c.budgetCents,
              usedCents: c.usedCents,
              currency: 'USD',
              endDay: c.endDate,
              spend: dailySpend,
            },
            today,
          ).find((f) => f.type === 'fsa-run-out');
          // A notice exactly when the panel says the balance runs out before the end, with its rate and day.
          const before =
            /^At the last 90 days' rate of (.+) a day, the balance runs out on (\S+), before/.exec(panel);
          expect(notice === undefined).toBe(before === null);
          if (notice && before)
            expect(notice.text).toContain(`rate of ${before[1]} a day, the balance runs out on ${before[2]}`);
        },
      ),
    );
  });
});

describe('projectedBalance', () => {
  const spend = [{ day: today, cents: 900 }]; // 10 cents a day over 90 days

  it('falls from today at the window rate to the run-out day', () => {
    const c = contract('FSA-P', { remainingCents: 25, dailySpend: spend });
    expect(projectedBalance(25, contractForecast(c, today), today, c.endDate)).toEqual([
      { day: today, remainingCents: 25 },
      { day: '2026-11-25', remainingCents: 15 },
      { day: '2026-11-26', remainingCents: 5 },
      { day: '2026-11-27', remainingCents: 0 },
    ]);
  });

  it('stops at the contract end, and is empty without a run-out day', () => {
    const c = contract('FSA-E', { remainingCents: 1_000, dailySpend: spend, endDate: '2026-11-26' });
    expect(projectedBalance(1_000, contractForecast(c, today), today, c.endDate).map((p) => p.day)).toEqual([
      today,
      '2026-11-25',
      '2026-11-26',
    ]);
    const quiet = contract('FSA-Q');
    expect(projectedBalance(1_000, contractForecast(quiet, today), today, null)).toEqual([]);
  });
});
