import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STATEMENT_PRESET, presetDays, statementDatePresets } from './dates.ts';
import {
  BALANCE_ADJUSTMENT,
  buildStatement,
  displayProducts,
  pieSlices,
  type StatementEntitlement,
  statementEmailPeriod,
  statementPdfFileName,
  statementPeriodProblem,
  UNCOVERED_ACTIVATION,
  UNCOVERED_PO,
  type UsageAggregate,
} from './statement.ts';

const period = { from: '2026-10-01', to: '2026-10-31' };
const ent = (over: Partial<StatementEntitlement> & { id: number }): StatementEntitlement => ({
  activationId: `ACT-${over.id}`,
  poNumber: `PO-${over.id}`,
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  quantity: 1000,
  currency: 'USD',
  ...over,
});

describe('statement presets', () => {
  it('lists the spec 001 statement ranges in menu order with Last month the default', () => {
    expect(statementDatePresets).toEqual([
      'Last month',
      'Last two weeks',
      'Last week',
      'This month',
      'This week',
      'Today',
      'Yesterday',
    ]);
    expect(DEFAULT_STATEMENT_PRESET).toBe('Last month');
  });

  it('turns each statement preset into whole UTC days', () => {
    const now = new Date('2026-11-22T10:30:00Z'); // a Sunday
    expect(presetDays('Last month', now)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(presetDays('Last two weeks', now)).toEqual({ from: '2026-11-09', to: '2026-11-22' });
    expect(presetDays('Last week', now)).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    expect(presetDays('This month', now)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(presetDays('This week', now)).toEqual({ from: '2026-11-22', to: '2026-11-28' });
    expect(presetDays('Today', now)).toEqual({ from: '2026-11-22', to: '2026-11-22' });
    expect(presetDays('Yesterday', now)).toEqual({ from: '2026-11-21', to: '2026-11-21' });
    expect(presetDays('Last month', new Date('2027-01-01T00:00:00Z'))).toEqual({
      from: '2026-12-01',
      to: '2026-12-31',
    });
  });
});

describe('buildStatement', () => {
  it('computes balances from usage before and within the period', () => {
    const { records, products } = buildStatement({
      period,
      entitlements: [ent({ id: 1 })],
      usage: [
        { entitlementId: 1, product: 'Mechanical', beforeCents: 10_050, withinCents: 2_525 },
        { entitlementId: 1, product: 'Fluent', beforeCents: 0, withinCents: 12_000 },
      ],
      defaultCurrency: 'USD',
    });
    expect(records).toEqual([
      {
        PONumber: 'PO-1',
        ActivationId: 'ACT-1',
        StartDate: '2026-01-01',
        EndDate: '2026-12-31',
        BalanceBeforeStart: 899.5,
        BalanceAtEnd: 754.25,
        Used: 145.25,
        Currency: 'USD',
        LineItemQuantity: 1000,
        TotalUsed: 245.75,
        Products: [
          { product: 'Fluent', total: 120, currency: 'USD' },
          { product: 'Mechanical', total: 25.25, currency: 'USD' },
        ],
      },
    ]);
    expect(products).toEqual(records[0].Products);
  });

  it('lists entitlements overlapping the period or with usage in it, and leaves the others out', () => {
    const { records } = buildStatement({
      period,
      entitlements: [
        ent({ id: 1, startDate: '2026-11-01', endDate: '2027-10-31' }), // starts after: not listed
        ent({ id: 2, startDate: '2025-01-01', endDate: '2026-09-30' }), // ended before: not listed
        ent({ id: 3, startDate: '2025-01-01', endDate: '2026-09-30' }), // ended, yet usage drawn in the period
        ent({ id: 4, startDate: '2026-10-31', endDate: null }), // starts on the last day, open end
      ],
      usage: [{ entitlementId: 3, product: 'Fluent', beforeCents: 100, withinCents: 50 }],
      defaultCurrency: 'USD',
    });
    expect(records.map((r) => r.ActivationId)).toEqual(['ACT-3', 'ACT-4']);
    expect(records[1]).toMatchObject({ EndDate: '', Used: 0, BalanceBeforeStart: 1000, BalanceAtEnd: 1000 });
  });

  it('shows the usage no entitlement covered as its own Overage row and in the product totals', () => {
    const { records, products } = buildStatement({
      period,
      entitlements: [ent({ id: 1, currency: 'EUR' })],
      usage: [
        { entitlementId: 1, product: 'Fluent', beforeCents: 0, withinCents: 1000 },
        { entitlementId: 0, product: 'Fluent', beforeCents: 300, withinCents: 500 },
      ],
      defaultCurrency: 'EUR',
    });
    expect(records[1]).toEqual({
      PONumber: UNCOVERED_PO,
      ActivationId: UNCOVERED_ACTIVATION,
      StartDate: period.from,
      EndDate: period.to,
      BalanceBeforeStart: -3,
      BalanceAtEnd: -8,
      Used: 5,
      Currency: 'EUR',
      LineItemQuantity: 0,
      TotalUsed: 8,
      Products: [{ product: 'Fluent', total: 5, currency: 'EUR' }],
    });
    expect(products).toEqual([{ product: 'Fluent', total: 15, currency: 'EUR' }]);
    // Overage before the period only: no row.
    const quiet = buildStatement({
      period,
      entitlements: [ent({ id: 1 })],
      usage: [{ entitlementId: 0, product: 'Fluent', beforeCents: 300, withinCents: 0 }],
      defaultCurrency: 'USD',
    });
    expect(quiet.records.map((r) => r.PONumber)).toEqual(['PO-1']);
  });

  it('keeps its sums consistent for any usage (property)', () => {
    const usage = fc.array(
      fc.record({
        entitlementId: fc.integer({ min: 0, max: 3 }),
        product: fc.constantFrom('A', 'B', 'C'),
        beforeCents: fc.integer({ min: -50_000, max: 500_000 }),
        withinCents: fc.integer({ min: -50_000, max: 500_000 }),
      }),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(usage, (raw) => {
        // The rollups hold one row per (entitlement, product): merge duplicates the generator made.
        const merged = new Map<string, UsageAggregate>();
        for (const u of raw) {
          const key = `${u.entitlementId}/${u.product}`;
          const m = merged.get(key);
          if (m) {
            m.beforeCents += u.beforeCents;
            m.withinCents += u.withinCents;
          } else merged.set(key, { ...u });
        }
        const { records, products } = buildStatement({
          period,
          entitlements: [ent({ id: 1 }), ent({ id: 2, quantity: 50.5 }), ent({ id: 3, currency: 'USD' })],
          usage: [...merged.values()],
          defaultCurrency: 'USD',
        });
        let recordCents = 0;
        for (const r of records) {
          expect(Math.round((r.BalanceBeforeStart - r.Used) * 100)).toBe(Math.round(r.BalanceAtEnd * 100));
          expect(Math.round((r.LineItemQuantity - r.TotalUsed) * 100)).toBe(Math.round(r.BalanceAtEnd * 100));
          const productCents = r.Products.reduce((s, p) => s + Math.round(p.total * 100), 0);
          expect(productCents).toBe(Math.round(r.Used * 100));
          recordCents += productCents;
        }
        const withinCents = [...merged.values()].reduce((s, u) => s + u.withinCents, 0);
        expect(recordCents).toBe(withinCents);
        expect(products.reduce((s, p) => s + Math.round(p.total * 100), 0)).toBe(withinCents);
      }),
    );
  });
});

describe('presentation rules', () => {
  const list = [
    { product: 'Fluent', total: 120.5, currency: 'USD' },
    { product: 'Credit', total: -40, currency: 'USD' },
    { product: 'Idle', total: 0, currency: 'USD' },
  ];

  it('relabels negative product totals "Balance Adjustment"', () => {
    expect(displayProducts(list).map((p) => p.product)).toEqual(['Fluent', BALANCE_ADJUSTMENT, 'Idle']);
    expect(displayProducts(list)[1].total).toBe(-40);
  });

  it('drops negative totals from the pie', () => {
    expect(pieSlices(list)).toEqual([{ name: 'Fluent', value: 120.5 }]);
  });

  it('names the PDF after customer and period', () => {
    expect(statementPdfFileName('1000123', period)).toBe(
      'ElasticLicensingSummaryStatement 1000123 2026-10-01 2026-10-31.pdf',
    );
  });

  it('refuses unreal days and reversed periods', () => {
    expect(statementPeriodProblem(period)).toBeNull();
    expect(statementPeriodProblem({ from: '2026-10-31', to: '2026-10-31' })).toBeNull();
    expect(statementPeriodProblem({ from: '2026-02-30', to: '2026-03-01' })).toMatch(/real days/);
    expect(statementPeriodProblem({ from: '2026-11-01', to: '2026-10-31' })).toMatch(/after/);
  });
});

describe('statement e-mail periods', () => {
  it('covers the 7 days through the given day for the weekly e-mail', () => {
    expect(statementEmailPeriod('week', new Date('2026-03-04T23:30:00Z'))).toEqual({
      from: '2026-02-26',
      to: '2026-03-04',
    });
  });

  it('covers one month through the given day, or the whole month on its last day', () => {
    expect(statementEmailPeriod('month', new Date('2026-05-15T08:00:00Z'))).toEqual({
      from: '2026-04-16',
      to: '2026-05-15',
    });
    expect(statementEmailPeriod('month', new Date('2026-04-30T08:00:00Z'))).toEqual({
      from: '2026-04-01',
      to: '2026-04-30',
    });
    expect(statementEmailPeriod('month', new Date('2024-02-29T00:00:00Z'))).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
    });
    expect(statementEmailPeriod('month', new Date('2026-03-01T00:00:00Z'))).toEqual({
      from: '2026-02-02',
      to: '2026-03-01',
    });
  });
});
