import { describe, expect, it } from 'vitest';
import { type LeaseFacts, lineSeats, toLeaseRow } from './lease-entitlements.ts';

const now = new Date('2026-06-15T08:00:00Z');

const lease = (over: Partial<LeaseFacts> = {}): LeaseFacts => ({
  ActivationId: 'ACT-1',
  ProductName: 'Fluids Solver',
  LineItemQuantity: 1200,
  StartDate: '2026-01-01',
  EndDate: '2026-12-31',
  VersionDate: null,
  LicenseModel: 'Network',
  IsActivationPermanent: 'false',
  Type: '',
  Activated: 200,
  ...over,
});

describe('lease display rows (spec 002 §4)', () => {
  it('an active lease: remaining days inclusive, colour and availability', () => {
    const row = toLeaseRow(lease(), now);
    expect(row).toMatchObject({
      remainingdays: 200,
      remainingdayscolor: 'green',
      active: true,
      ansysavailable: 1000,
      ansysborrowable: false,
      expirationText: '2026-12-31',
    });
  });

  it('ending within 30 days is red, within 90 orange', () => {
    expect(toLeaseRow(lease({ EndDate: '2026-07-10' }), now).remainingdayscolor).toBe('red');
    expect(toLeaseRow(lease({ EndDate: '2026-08-30' }), now).remainingdayscolor).toBe('orange');
  });

  it('EXPIRED and NOT STARTED rows are inactive', () => {
    const expired = toLeaseRow(lease({ EndDate: '2026-06-14' }), now);
    expect(expired).toMatchObject({ remainingdays: 'EXPIRED', active: false, remainingdayscolor: 'red' });
    const later = toLeaseRow(lease({ StartDate: '2026-06-16' }), now);
    expect(later).toMatchObject({ remainingdays: 'NOT STARTED', active: false, usedDaysPercentage: 0 });
  });

  it("a perpetual is PERMANENT, 100% used, 'Maintenance ends on {date}', maintenance expiry flagged", () => {
    const row = toLeaseRow(
      lease({ EndDate: null, IsActivationPermanent: 'true', VersionDate: '2026-09-01' }),
      now,
    );
    expect(row).toMatchObject({
      remainingdays: 'PERMANENT',
      usedDaysPercentage: 100,
      expirationText: 'Maintenance ends on 2026-09-01',
      maintenanceExpired: false,
      active: true,
    });
    const old = toLeaseRow(
      lease({ EndDate: null, IsActivationPermanent: 'true', VersionDate: '2026-06-14' }),
      now,
    );
    expect(old.maintenanceExpired).toBe(true);
    expect(old.active).toBe(true);
  });

  it('marks evaluations and borrowable models; availability never goes below zero', () => {
    const row = toLeaseRow(
      lease({ Type: 'Evaluation', LicenseModel: 'Network Borrow', LineItemQuantity: 2, Activated: 5 }),
      now,
    );
    expect(row).toMatchObject({ isEval: true, ansysborrowable: true, ansysavailable: 0 });
  });
});

describe('seats of a line (decision 031)', () => {
  it('Shared Web and Named User lines are all activated and never available; others count their seats on hosts', () => {
    for (const model of ['Shared Web', 'ConcurrentProduct', 'Named User'])
      expect(lineSeats({ model, productName: 'Solver', quantity: 50 }, 0)).toEqual({
        activated: 50,
        available: 0,
      });
    // '(Node)' is Node Locked whatever the model says.
    expect(lineSeats({ model: 'Named User', productName: 'Solver (Node)', quantity: 50 }, 3)).toEqual({
      activated: 3,
      available: 47,
    });
    expect(lineSeats({ model: 'Network', productName: 'Solver', quantity: 50 }, null)).toEqual({
      activated: null,
      available: 50,
    });
    const named = toLeaseRow(lease({ LicenseModel: 'Named User', LineItemQuantity: 50, Activated: 0 }), now);
    expect(named).toMatchObject({ ansysactivated: 50, ansysavailable: 0 });
  });
});
