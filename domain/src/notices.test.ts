import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodOf } from './entitlements.ts';
import {
  ALL_NOTICES,
  budgetFindings,
  EXPIRY_THRESHOLDS,
  endingFinding,
  expiryThreshold,
  RUN_OUT_THRESHOLD,
  wanted,
} from './notices.ts';
import { shiftDay } from './spend-forecast.ts';

const TODAY = '2026-11-25';

describe('expiryThreshold', () => {
  it.each([
    [-1, null],
    [0, null],
    [1, 7],
    [7, 7],
    [8, 30],
    [30, 30],
    [31, 90],
    [90, 90],
    [91, null],
  ])('%i days left → %s', (days, threshold) => {
    expect(expiryThreshold(days)).toBe(threshold);
  });

  it('is the smallest threshold at or above the days left', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 90 }), (days) => {
        const t = expiryThreshold(days) as number;
        expect(t).toBeGreaterThanOrEqual(days);
        expect(EXPIRY_THRESHOLDS.filter((x) => x >= days && x < t)).toEqual([]);
      }),
    );
  });
});

describe('endingFinding', () => {
  it('names the lease, its end and the days left', () => {
    expect(
      endingFinding(
        { type: 'lease-ending', objectId: 'A-1', product: 'Solver', endDay: shiftDay(TODAY, 29) },
        TODAY,
      ),
    ).toEqual({
      type: 'lease-ending',
      objectId: 'A-1',
      threshold: 30,
      text: 'Lease Solver (A-1) ends on 2026-12-24: 30 days left.',
    });
    expect(
      endingFinding({ type: 'maintenance-ending', objectId: 'P-1', product: 'CFD', endDay: TODAY }, TODAY)
        ?.text,
    ).toBe('Maintenance of CFD (P-1) ends on 2026-11-25: 1 day left.');
    expect(
      endingFinding(
        { type: 'evaluation-ending', objectId: 'E-1', product: 'HF', endDay: shiftDay(TODAY, 90) },
        TODAY,
      ),
    ).toBeNull();
    expect(
      endingFinding(
        { type: 'evaluation-ending', objectId: 'E-1', product: 'HF', endDay: shiftDay(TODAY, -1) },
        TODAY,
      ),
    ).toBeNull();
  });

  it('counts the days left as every grid does (the last day counts)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 89 }), (offset) => {
        const endDay = shiftDay(TODAY, offset);
        const finding = endingFinding({ type: 'lease-ending', objectId: 'A', product: 'P', endDay }, TODAY);
        const grid = periodOf(shiftDay(TODAY, -10), endDay, new Date(`${TODAY}T12:00:00Z`));
        expect(finding?.text).toBe(
          `Lease P (A) ends on ${endDay}: ${grid?.remainingDays} ${offset === 0 ? 'day' : 'days'} left.`,
        );
      }),
    );
  });
});

describe('budgetFindings', () => {
  const budget = {
    type: 'fsa' as const,
    objectId: 'FSA-1',
    name: 'FSA-1',
    budgetCents: 100_000,
    currency: 'USD',
    endDay: '2027-06-30',
  };

  it('warns at 80 and 95 % used, with the remaining balance', () => {
    expect(budgetFindings({ ...budget, usedCents: 79_000, spend: [] }, TODAY)).toEqual([]);
    expect(budgetFindings({ ...budget, usedCents: 80_000, spend: [] }, TODAY)).toEqual([
      {
        type: 'fsa-usage',
        objectId: 'FSA-1',
        threshold: 80,
        text: 'FSA-1: 80% of the budget is used (remaining 200.00 USD).',
      },
    ]);
    expect(
      budgetFindings({ ...budget, type: 'elastic', usedCents: 96_000, spend: [] }, TODAY)[0],
    ).toMatchObject({
      type: 'elastic-usage',
      threshold: 95,
    });
  });

  it("forecasts the run-out at the FSA page's 90-day rate, only when it comes before the end", () => {
    // 30 days × 1 000 cents = 30 000 in the 90-day window → 333.33 a day; 40 000 left → 120 days → 2027-03-25.
    const spend = Array.from({ length: 30 }, (_, i) => ({ day: shiftDay(TODAY, -i), cents: 1_000 }));
    const findings = budgetFindings({ ...budget, usedCents: 60_000, spend }, TODAY);
    expect(findings).toEqual([
      {
        type: 'fsa-run-out',
        objectId: 'FSA-1',
        threshold: RUN_OUT_THRESHOLD,
        text: "FSA-1: at the last 90 days' rate of 3.33 USD a day, the balance runs out on 2027-03-25, before the term ends on 2027-06-30.",
      },
    ]);
    // Spend older than 90 days does not count; a term ending first means no run-out finding.
    const old = spend.map((s) => ({ ...s, day: shiftDay(s.day, -90) }));
    expect(budgetFindings({ ...budget, usedCents: 60_000, spend: old }, TODAY)).toEqual([]);
    expect(budgetFindings({ ...budget, usedCents: 60_000, spend, endDay: '2027-03-24' }, TODAY)).toEqual([]);
  });
});

describe('wanted', () => {
  it("follows the user's thresholds and the account's switched-off types", () => {
    const lease30 = { type: 'lease-ending' as const, threshold: 30 };
    expect(wanted(lease30, ALL_NOTICES)).toBe(true);
    expect(wanted(lease30, { ...ALL_NOTICES, expiryDays: [90, 7] })).toBe(false);
    expect(wanted(lease30, ALL_NOTICES, ['lease-ending'])).toBe(false);
    expect(wanted({ type: 'fsa-usage', threshold: 95 }, { ...ALL_NOTICES, usagePercents: [80] })).toBe(false);
    expect(wanted({ type: 'fsa-run-out', threshold: 0 }, { ...ALL_NOTICES, runOut: false })).toBe(false);
    expect(wanted({ type: 'elastic-run-out', threshold: 0 }, ALL_NOTICES, ['fsa-run-out'])).toBe(true);
  });
});
