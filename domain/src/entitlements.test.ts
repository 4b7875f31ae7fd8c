import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countShownAsActivated,
  EXPIRED,
  isBorrowable,
  licenseModelGroupOf,
  licenseModelGroups,
  modelsMatchingGroupText,
  NOT_STARTED,
  periodOf,
  remainingDaysColour,
  usedPercentage,
} from './entitlements.ts';

const now = new Date('2026-06-15T18:00:00Z');

describe('periods (spec 002 §4)', () => {
  it('counts the last day: ending today leaves 1 day, yesterday is EXPIRED', () => {
    expect(periodOf('2026-01-01', '2026-06-15', now)).toMatchObject({ remainingDays: 1, label: '1 day' });
    expect(periodOf('2026-01-01', '2026-06-14', now)).toMatchObject({
      remainingDays: 0,
      label: EXPIRED,
      expired: true,
    });
  });

  it('is NOT STARTED before its first day, with nothing used', () => {
    expect(periodOf('2026-06-16', '2027-06-15', now)).toMatchObject({
      label: NOT_STARTED,
      notStarted: true,
      usedDays: -1,
      usedDaysPercentage: 0,
    });
  });

  it('used days follow the 1/99 rule', () => {
    // Day 1 of 1000: some time used rounds to 0 → 1.
    expect(periodOf('2026-06-14', '2029-03-09', now)?.usedDaysPercentage).toBe(1);
    // The last day of a long period rounds to 100 while not complete → 99.
    expect(periodOf('2023-09-20', '2026-06-15', now)?.usedDaysPercentage).toBe(99);
  });

  it('refuses days that are not real', () => {
    expect(periodOf('2026-02-30', '2026-12-31', now)).toBeNull();
    expect(periodOf('2026-01-01', 'soon', now)).toBeNull();
  });

  it('property: percentages stay within 0..100 and labels match the state', () => {
    const dayArb = fc.date({ min: new Date('2000-01-01'), max: new Date('2040-12-31'), noInvalidDate: true });
    fc.assert(
      fc.property(dayArb, fc.integer({ min: 0, max: 4000 }), (start, length) => {
        const s = start.toISOString().slice(0, 10);
        const e = new Date(start.getTime() + length * 86_400_000).toISOString().slice(0, 10);
        const p = periodOf(s, e, now);
        expect(p).not.toBeNull();
        if (!p) return;
        expect(p.usedDaysPercentage).toBeGreaterThanOrEqual(0);
        expect(p.usedDaysPercentage).toBeLessThanOrEqual(100);
        expect(p.notStarted && p.expired).toBe(false);
        if (p.notStarted) expect(p.label).toBe(NOT_STARTED);
        else if (p.expired) expect(p.label).toBe(EXPIRED);
        else expect(p.label).toMatch(/^\d+ days?$/);
      }),
    );
  });
});

describe('shared thresholds', () => {
  it('remaining days: red at 30 or fewer, orange at 90 or fewer', () => {
    expect([0, 30, 31, 90, 91].map(remainingDaysColour)).toEqual(['red', 'red', 'orange', 'orange', 'green']);
  });

  it('property: used percentage is 0 only without use and 100 only when complete', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (total, used) => {
          const p = usedPercentage(total, used);
          expect(p === 0).toBe(used === 0);
          expect(p === 100).toBe(used >= total);
        },
      ),
    );
  });
});

describe('license-model groups (spec 002 §9)', () => {
  it('groups models, and a (Node) product is Node Locked whatever its model', () => {
    expect(licenseModelGroupOf('Network Borrow')).toBe('Network');
    expect(licenseModelGroupOf('ConcurrentProduct')).toBe('Shared Web');
    expect(licenseModelGroupOf('Named User')).toBe('Named User');
    expect(licenseModelGroupOf('Network', 'Fluids Solver (Node)')).toBe('Node Locked');
    expect(licenseModelGroupOf('Something else')).toBeNull();
  });

  it('a filter text maps to the model names of every matching group', () => {
    expect(modelsMatchingGroupText('shared').sort()).toEqual(['ConcurrentProduct', 'Shared Web']);
    expect(modelsMatchingGroupText('network')).toEqual(
      expect.arrayContaining([...licenseModelGroups.Network]),
    );
    expect(modelsMatchingGroupText('  ')).toEqual([]);
  });

  it('shows the count as activated only for Shared Web and Named User', () => {
    expect(countShownAsActivated('Shared Web')).toBe(true);
    expect(countShownAsActivated('ConcurrentProduct')).toBe(true);
    expect(countShownAsActivated('Named User')).toBe(true);
    expect(countShownAsActivated('Network')).toBe(false);
    expect(countShownAsActivated('Shared Web', 'Solver (Node)')).toBe(false);
  });

  it('borrowable when the model contains Borrow', () => {
    expect(isBorrowable('Network Borrow')).toBe(true);
    expect(isBorrowable('Network')).toBe(false);
  });
});
