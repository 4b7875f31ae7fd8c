import type { Criterion } from '@lp/contract/query/schemas';
import { formatDate } from '@lp/domain/dates';
import { licenseModelGroups } from '@lp/domain/entitlements';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeaseFilterError, leaseFilterRule, leaseSortRules } from './lease-filter.ts';

const TODAY = '2026-03-10';
const one = (name: string, value: string, method: Criterion['method'] = 'CONTAINS') =>
  leaseFilterRule({ condition: 'ALL', criteria: [{ name, method, value, casefold: true }] }, TODAY)?.criteria;
const notStarted = { name: 'StartDate', method: 'AFTERDAY', value: TODAY, not: true };

describe('leases filters (spec 002 §5)', () => {
  it('has no rule without criteria', () => {
    expect(leaseFilterRule(undefined, TODAY)).toBeUndefined();
    expect(leaseFilterRule({ condition: 'ALL', criteria: [] }, TODAY)).toBeUndefined();
  });

  it('filters the entitlement on the product name', () => {
    expect(one('entitlement', 'Fluent')).toEqual([
      { name: 'ProductName', method: 'CONTAINS', value: 'Fluent', casefold: true },
    ]);
  });

  it('matches numbers by equality on the parsed number', () => {
    expect(one('count', '1,000')).toEqual([{ name: 'LineItemQuantity', method: 'EQUALS', value: 1000 }]);
    expect(() => one('count', 'ten')).toThrow(LeaseFilterError);
  });

  it('judges Total Activated on the servers’ seats, leaving out rows that show their count', () => {
    expect(one('activated', '2', 'EQUALS')).toEqual([
      { name: 'Activated', method: 'EQUALS', value: 2 },
      {
        name: 'LicenseModel',
        method: 'ARRAY_CONTAINS',
        value: [...licenseModelGroups['Shared Web'], ...licenseModelGroups['Named User']],
        not: true,
      },
    ]);
  });

  it('takes dates as YYYY-MM-DD in 19xx or 20xx', () => {
    expect(one('startdate', '2025-01-31')).toEqual([
      { name: 'StartDate', method: 'DAYRANGE', value: ['2025-01-31', '2025-01-31'] },
    ]);
    for (const bad of [
      '2025-02-30',
      '1899-01-01',
      '2125-01-01',
      '2025-1-1',
      '2025-13',
      '2025-12-01 10',
      'Dec',
    ])
      expect(() => one('startdate', bad)).toThrow(LeaseFilterError);
  });

  it('matches a year or a month typed alone on every day it covers (issue 21, decision 052)', () => {
    expect(one('startdate', '2026-12')).toEqual([
      { name: 'StartDate', method: 'DAYRANGE', value: ['2026-12-01', '2026-12-31'] },
    ]);
    expect(one('enddate', ' 2024 ')).toEqual([
      { name: 'EndDate', method: 'DAYRANGE', value: ['2024-01-01', '2024-12-31'] },
    ]);
    expect(one('enddate', 'Maintenance ends on 2027-02')).toEqual([
      { name: 'VersionDate', method: 'DAYRANGE', value: ['2027-02-01', '2027-02-28'] },
    ]);
  });

  it('matches a day exactly when the typed text is the start of its date, and no other', () => {
    const day = fc.date({
      min: new Date('1900-01-01T00:00:00Z'),
      max: new Date('2099-12-31T00:00:00Z'),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(day, day, fc.constantFrom(4, 7, 10), (shown, other, length) => {
        const typed = formatDate(shown).slice(0, length);
        const [from, to] = (one('startdate', typed)?.[0]?.value ?? []) as string[];
        const inRange = (d: string) => from <= d && d <= to;
        expect(inRange(formatDate(shown))).toBe(true);
        expect(inRange(formatDate(other))).toBe(formatDate(other).startsWith(typed));
      }),
    );
  });

  it('takes an expiration date or the maintenance text of a perpetual', () => {
    expect(one('enddate', '2027-06-30', 'EQUALS')).toEqual([
      { name: 'EndDate', method: 'DAYRANGE', value: ['2027-06-30', '2027-06-30'] },
    ]);
    expect(one('enddate', 'maintenance ends on 2026-12-01')).toEqual([
      { name: 'VersionDate', method: 'DAYRANGE', value: ['2026-12-01', '2026-12-01'] },
    ]);
  });

  it('turns remaining days into end dates and the state words into date criteria', () => {
    // One day left: it ends today.
    expect(one('remainingdays', '1')).toEqual([
      { name: 'EndDate', method: 'DAYRANGE', value: [TODAY, TODAY] },
      notStarted,
    ]);
    expect(one('remainingdays', '30')?.[0]).toEqual({
      name: 'EndDate',
      method: 'DAYRANGE',
      value: ['2026-04-08', '2026-04-08'],
    });
    expect(one('remainingdays', 'permanent')).toEqual([
      { name: 'EndDate', method: 'ISDEFINED', value: false },
      notStarted,
    ]);
    expect(one('remainingdays', 'Expired', 'EQUALS')).toEqual([
      { name: 'EndDate', method: 'BEFOREDAY', value: TODAY },
      notStarted,
    ]);
    expect(one('remainingdays', 'not started')).toEqual([
      { name: 'StartDate', method: 'AFTERDAY', value: TODAY },
    ]);
    for (const bad of ['soon', '0', '2.5']) expect(() => one('remainingdays', bad)).toThrow(LeaseFilterError);
  });

  it('maps a license model text to the models of the groups it matches', () => {
    expect(one('licensemodel', 'shared')).toEqual([
      { name: 'LicenseModel', method: 'ARRAY_CONTAINS', value: ['Shared Web', 'ConcurrentProduct'] },
    ]);
    expect(one('licensemodel', 'Named User', 'EQUALS')).toEqual([
      { name: 'LicenseModel', method: 'ARRAY_CONTAINS', value: ['Named User'] },
    ]);
    // No group or known model: the text itself.
    expect(one('licensemodel', 'Custom')).toEqual([
      { name: 'LicenseModel', method: 'CONTAINS', value: 'Custom', casefold: true },
    ]);
  });

  it('refuses conditions the tables do not offer', () => {
    expect(() => one('count', '1', 'NOT EQUAL')).toThrow(LeaseFilterError);
    expect(() => one('nope', '1')).toThrow(LeaseFilterError);
  });

  it('sorts by the record fields behind the columns', () => {
    expect(
      leaseSortRules([
        { name: 'remainingdays', direction: 'asc' },
        { name: 'entitlement', direction: 'desc' },
      ]),
    ).toEqual([
      { name: 'EndDate', direction: 'asc' },
      { name: 'ProductName', direction: 'desc' },
    ]);
  });
});
