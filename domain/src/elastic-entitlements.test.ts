import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accountCurrency,
  classifyEntitlements,
  rateTableLabel,
  remainingAmount,
  toViewRow,
} from './elastic-entitlements.ts';
import { EXPIRED, NOT_STARTED, remainingDaysColour, usedColour, usedPercentage } from './entitlements.ts';

const now = new Date('2026-06-15T18:00:00Z');

const record = (over: Partial<ElasticEntitlementRecord> = {}): ElasticEntitlementRecord => ({
  ActivationId: 'ACT-1',
  LicenseModel: 'Elastic-AEU',
  EntitlementState: 'Deployed',
  StartDate: '2026-01-01',
  EndDate: '2026-12-31',
  Currency: 'USD',
  Used: 250,
  LineItemQuantity: 1000,
  PONumber: 'PO-2026-12345',
  CustomAttributes: { Product: 'Elastic Units (AEU)', Count: 1000, RateTableVersion: '2025.2.1' },
  ...over,
});

describe('used percentage (spec 001 §4)', () => {
  it('is 0 for a zero total, rounded otherwise', () => {
    expect(usedPercentage(0, 5)).toBe(0);
    expect(usedPercentage(1000, 0)).toBe(0);
    expect(usedPercentage(1000, 254)).toBe(25);
    expect(usedPercentage(1000, 255)).toBe(26);
  });

  it('shows 1 for tiny usage and 99 for usage just below the total', () => {
    expect(usedPercentage(1000, 0.01)).toBe(1);
    expect(usedPercentage(1000, 4.9)).toBe(1);
    expect(usedPercentage(1000, 999.9)).toBe(99);
    expect(usedPercentage(1000, 1000)).toBe(100);
  });

  it('never exceeds 100 or goes below 0', () => {
    expect(usedPercentage(1000, 5000)).toBe(100);
    expect(usedPercentage(1000, -20)).toBe(0);
  });

  it('holds its rules for any total and usage', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.double({ min: -1e7, max: 1e8, noNaN: true }),
        (total, used) => {
          const p = usedPercentage(total, used);
          expect(Number.isInteger(p)).toBe(true);
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(100);
          if (total === 0) expect(p).toBe(0);
          if (total > 0 && used > 0) expect(p).toBeGreaterThanOrEqual(1);
          if (total > 0 && used < total) expect(p).toBeLessThan(100);
          if (total > 0 && used >= total) expect(p).toBe(100);
        },
      ),
    );
  });
});

describe('remaining amount', () => {
  it('rounds to 0.1, floors at 0 and caps at the total', () => {
    expect(remainingAmount(1000, 250.04)).toBe(750);
    expect(remainingAmount(1000, 250.06)).toBe(749.9);
    expect(remainingAmount(1000, 1200)).toBe(0);
    expect(remainingAmount(1000, -50)).toBe(1000);
    expect(remainingAmount(10.05, 0)).toBe(10.05);
  });

  it('stays within [0, total] with one decimal at most (below the cap)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: -1_000_000, max: 20_000_000 }),
        (totalTenths, usedCents) => {
          const total = totalTenths / 10;
          const r = remainingAmount(total, usedCents / 100);
          expect(r).toBeGreaterThanOrEqual(0);
          expect(r).toBeLessThanOrEqual(total);
          expect(Math.abs(r * 10 - Math.round(r * 10))).toBeLessThan(1e-6);
        },
      ),
    );
  });
});

describe('colours', () => {
  it('uses 80 and 95 for the used percentage', () => {
    expect([0, 79, 80, 94, 95, 100].map(usedColour)).toEqual([
      'green',
      'green',
      'orange',
      'orange',
      'red',
      'red',
    ]);
  });

  it('uses 30 and 90 for the remaining days', () => {
    expect([0, 30, 31, 90, 91, 400].map(remainingDaysColour)).toEqual([
      'red',
      'red',
      'orange',
      'orange',
      'green',
      'green',
    ]);
  });
});

describe('rate table label', () => {
  it('is the part before the first dot', () => {
    expect(rateTableLabel('2024.1.0')).toBe('2024');
    expect(rateTableLabel('2025')).toBe('2025');
    expect(rateTableLabel('')).toBe('');
  });
});

describe('view row', () => {
  it('computes balances, days and colours of a running entitlement', () => {
    expect(toViewRow(record(), now)).toEqual({
      activationId: 'ACT-1',
      product: 'Elastic Units (AEU)',
      count: 1000,
      poNumber: 'PO-2026-12345',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      remainingDays: 200,
      remainingDaysLabel: '200 days',
      remainingDaysColour: 'green',
      usedDays: 165,
      usedDaysPercentage: 45,
      total: 1000,
      used: 250,
      remaining: 750,
      currency: 'USD',
      usedPercentage: 25,
      usedColour: 'green',
      rateTableVersion: '2025.2.1',
      rateTableLabel: '2025',
      active: true,
    });
  });

  it('counts the last day inclusive: ending today leaves 1 day and is active', () => {
    const row = toViewRow(record({ EndDate: '2026-06-15' }), now);
    expect(row?.remainingDays).toBe(1);
    expect(row?.remainingDaysLabel).toBe('1 day');
    expect(row?.remainingDaysColour).toBe('red');
    expect(row?.active).toBe(true);
  });

  it('marks an entitlement that ended yesterday EXPIRED and inactive', () => {
    const row = toViewRow(record({ EndDate: '2026-06-14' }), now);
    expect(row?.remainingDays).toBe(0);
    expect(row?.remainingDaysLabel).toBe(EXPIRED);
    expect(row?.usedDaysPercentage).toBe(100);
    expect(row?.active).toBe(false);
  });

  it('marks an entitlement starting tomorrow NOT STARTED and inactive; starting today is active', () => {
    const future = toViewRow(record({ StartDate: '2026-06-16', EndDate: '2027-06-15' }), now);
    expect(future?.remainingDaysLabel).toBe(NOT_STARTED);
    expect(future?.usedDays).toBe(-1);
    expect(future?.usedDaysPercentage).toBe(0);
    expect(future?.active).toBe(false);
    const today = toViewRow(record({ StartDate: '2026-06-15', EndDate: '2027-06-14' }), now);
    expect(today?.usedDays).toBe(0);
    expect(today?.active).toBe(true);
  });

  it('marks a used-up entitlement inactive, but not one at 99 %', () => {
    expect(toViewRow(record({ Used: 1000 }), now)?.active).toBe(false);
    const nearly = toViewRow(record({ Used: 999.5 }), now);
    expect(nearly?.usedPercentage).toBe(99);
    expect(nearly?.usedColour).toBe('red');
    expect(nearly?.remaining).toBe(0.5);
    expect(nearly?.active).toBe(true);
  });

  it('drops records whose dates are not real days', () => {
    expect(toViewRow(record({ EndDate: null }), now)).toBeNull();
    expect(toViewRow(record({ StartDate: '2026-02-30' }), now)).toBeNull();
  });
});

describe('classification', () => {
  it('keeps only deployed Elastic-AEU records, splits active and inactive, sorts by end date descending', () => {
    const { active, inactive } = classifyEntitlements(
      [
        record({ ActivationId: 'A-old', StartDate: '2025-01-01', EndDate: '2025-12-31' }),
        record({ ActivationId: 'A-cur', StartDate: '2026-01-01', EndDate: '2026-12-31' }),
        record({ ActivationId: 'A-next', StartDate: '2027-01-01', EndDate: '2027-12-31' }),
        record({ ActivationId: 'A-cur2', StartDate: '2026-03-01', EndDate: '2027-02-28' }),
        record({ ActivationId: 'A-full', Used: 1000 }),
        record({ ActivationId: 'A-lease', LicenseModel: 'Lease' }),
        record({ ActivationId: 'A-obsolete', EntitlementState: 'Obsolete' }),
      ],
      now,
    );
    expect(active.map((r) => r.activationId)).toEqual(['A-cur2', 'A-cur']);
    expect(inactive.map((r) => r.activationId)).toEqual(['A-next', 'A-full', 'A-old']);
  });

  it('partitions the counted records exactly, in end-date order, with the state rules', () => {
    const day = fc
      .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2028, 11, 31) })
      .map((ms) => new Date(ms).toISOString().slice(0, 10));
    const arbitraryRecord = fc
      .record({
        id: fc.string({ minLength: 1, maxLength: 6 }),
        start: day,
        length: fc.integer({ min: 0, max: 800 }),
        total: fc.integer({ min: 0, max: 100_000 }),
        usedCents: fc.integer({ min: 0, max: 12_000_000 }),
        model: fc.constantFrom('Elastic-AEU', 'Lease'),
        state: fc.constantFrom('Deployed', 'Deployed', 'Obsolete'),
      })
      .map((r) => {
        const end = new Date(Date.parse(r.start) + r.length * 86_400_000).toISOString().slice(0, 10);
        return record({
          ActivationId: r.id,
          StartDate: r.start,
          EndDate: end,
          LineItemQuantity: r.total,
          Used: r.usedCents / 100,
          LicenseModel: r.model,
          EntitlementState: r.state,
        });
      });
    fc.assert(
      fc.property(fc.array(arbitraryRecord, { maxLength: 25 }), day, (records, today) => {
        const at = new Date(`${today}T12:00:00Z`);
        const { active, inactive } = classifyEntitlements(records, at);
        const counted = records.filter(
          (r) => r.LicenseModel === 'Elastic-AEU' && r.EntitlementState === 'Deployed',
        );
        expect(active.length + inactive.length).toBe(counted.length);
        for (const list of [active, inactive]) {
          for (let i = 1; i < list.length; i++) expect(list[i - 1].endDate >= list[i].endDate).toBe(true);
        }
        for (const row of active) {
          expect(row.startDate <= today && today <= row.endDate).toBe(true);
          expect(row.usedPercentage).toBeLessThan(100);
          expect(row.remainingDays).toBeGreaterThanOrEqual(1);
        }
        for (const row of inactive) {
          const reason =
            row.remainingDaysLabel === NOT_STARTED ||
            row.remainingDaysLabel === EXPIRED ||
            row.usedPercentage === 100;
          expect(reason).toBe(true);
          expect(row.remainingDaysLabel === NOT_STARTED).toBe(row.startDate > today);
          expect(row.remainingDaysLabel === EXPIRED).toBe(row.startDate <= today && row.endDate < today);
        }
        for (const row of [...active, ...inactive]) {
          expect(row.remaining).toBeGreaterThanOrEqual(0);
          expect(row.remaining).toBeLessThanOrEqual(row.total);
          expect(row.usedDaysPercentage).toBeGreaterThanOrEqual(0);
          expect(row.usedDaysPercentage).toBeLessThanOrEqual(100);
        }
      }),
    );
  });
});

describe('accountCurrency', () => {
  it('is the currency of the elastic entitlement that ends last, whatever the order of the list', () => {
    const list = [
      { currency: 'EUR', endDate: '2027-06-30' },
      { currency: 'GBP', endDate: '2026-12-31' },
      { currency: null, endDate: '2028-01-01' },
    ];
    expect(accountCurrency(list)).toBe('EUR');
    expect(accountCurrency([...list].reverse())).toBe('EUR');
  });

  it('counts an entitlement without an end date last and answers USD when none names a currency', () => {
    expect(
      accountCurrency([
        { currency: 'JPY', endDate: null },
        { currency: 'EUR', endDate: '2026-01-01' },
      ]),
    ).toBe('EUR');
    expect(accountCurrency([{ currency: 'JPY', endDate: null }])).toBe('JPY');
    expect(accountCurrency([{ currency: null, endDate: '2026-01-01' }])).toBe('USD');
    expect(accountCurrency([])).toBe('USD');
  });
});
