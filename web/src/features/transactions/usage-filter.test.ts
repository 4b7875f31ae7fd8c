import type { TablePref } from '@lp/contract/prefs/schemas';
import { filterPredicate } from '@lp/domain/filter-rules';
import { describe, expect, it } from 'vitest';
import {
  ACTIVE_DISABLED_FILTERS,
  DEFAULT_PERIOD,
  fromLocalInput,
  periodBounds,
  periodFromPref,
  periodPref,
  tableCriteria,
  usageFilterRule,
} from './usage-filter.ts';

const now = new Date('2026-03-15T10:30:00Z');
const pref = (over: Partial<TablePref>): TablePref => ({
  customerNumber: '1',
  tableName: 'UsageTransactions',
  ...over,
});

describe('transactions period', () => {
  it('defaults to 1 Day and bounds whole days, custom end at 23:59:59.999', () => {
    expect(periodBounds(DEFAULT_PERIOD, now)).toEqual({
      from: new Date('2026-03-14T00:00:00.000Z'),
      to: new Date('2026-03-15T23:59:59.999Z'),
    });
    expect(periodBounds({ kind: 'custom', from: '2026-01-05', to: '2026-02-10' }, now)).toEqual({
      from: new Date('2026-01-05T00:00:00.000Z'),
      to: new Date('2026-02-10T23:59:59.999Z'),
    });
  });

  it('restores saved custom dates first, else the saved named range, else 1 Day (spec 001 §4)', () => {
    expect(
      periodFromPref(pref({ startDate: '2026-01-05', endDate: '2026-02-10', dateRange: '1 Month' })),
    ).toEqual({
      kind: 'custom',
      from: '2026-01-05',
      to: '2026-02-10',
    });
    expect(periodFromPref(pref({ dateRange: '3 Months' }))).toEqual({ kind: 'preset', preset: '3 Months' });
    expect(periodFromPref(pref({ dateRange: 'Last two weeks' }))).toEqual(DEFAULT_PERIOD);
    expect(periodFromPref(pref({ startDate: '2026-02-10', endDate: '2026-01-05' }))).toEqual(DEFAULT_PERIOD);
    expect(periodFromPref(undefined)).toEqual(DEFAULT_PERIOD);
  });

  it('saves nothing extra at the defaults, else the range and the toggle', () => {
    expect(periodPref(DEFAULT_PERIOD, false)).toEqual({});
    expect(periodPref(DEFAULT_PERIOD, true)).toEqual({ activeOnly: true });
    expect(periodPref({ kind: 'preset', preset: 'YTD' }, false)).toEqual({ dateRange: 'YTD' });
    expect(periodPref({ kind: 'custom', from: '2026-01-05', to: '2026-02-10' }, true)).toEqual({
      startDate: '2026-01-05',
      endDate: '2026-02-10',
      activeOnly: true,
    });
  });
});

describe('filter rule of the transactions table', () => {
  const bounds = periodBounds(DEFAULT_PERIOD, now);

  it('always carries the period, and Active sessions when toggled', () => {
    expect(tableCriteria(bounds, false)).toEqual([
      { name: 'StartTime', method: 'DATERANGE', value: ['2026-03-14 00:00:00', '2026-03-15 23:59:59.999'] },
    ]);
    expect(tableCriteria(bounds, true)[1]).toEqual({ name: 'Active', method: 'EQUALS', value: true });
  });

  it('maps text, number, value and date filters; typed dates become ranges, other text passes through', () => {
    const rule = usageFilterRule(
      {
        User: { filterType: 'text', type: 'contains', filter: 'Al' },
        Currency: { filterType: 'text', type: 'equals', filter: 'usd' },
        Hours: { filterType: 'number', type: 'equals', filter: 0.75 },
        ProductCount: { filterType: 'number', type: 'equals', filter: null },
        Host: { filterType: 'values', values: ['ws-001', 'ws-002'] },
        StartTime: { filterType: 'dateRange', text: '2026-03', from: '2026-03-02 10:00:00' },
        EndTime: { filterType: 'dateRange', text: 'noon', to: '2026-03-20 12:00:05' },
      },
      [],
    );
    expect(rule).toEqual({
      condition: 'ALL',
      criteria: [
        { name: 'User', method: 'CONTAINS', value: 'Al', casefold: true },
        { name: 'Currency', method: 'EQUALS', value: 'usd', casefold: true },
        { name: 'Hours', method: 'EQUALS', value: 0.75 },
        { name: 'Host', method: 'ARRAY_CONTAINS', value: ['ws-001', 'ws-002'] },
        { name: 'StartTime', method: 'DATERANGE', value: ['2026-03-01 00:00:00', '2026-03-31 23:59:59.999'] },
        { name: 'StartTime', method: '>=', value: '2026-03-02 10:00:00' },
        { name: 'EndTime', method: 'CONTAINS', value: 'noon', tostring: true, casefold: true },
        { name: 'EndTime', method: '<=', value: '2026-03-20 12:00:05.999' },
      ],
    });
  });

  it('drops the Hours and End Time filters while Active Sessions is on', () => {
    const model = {
      Hours: { filterType: 'number', type: 'equals', filter: 1 },
      EndTime: { filterType: 'dateRange', text: '2026' },
      User: { filterType: 'text', type: 'equals', filter: 'bob' },
    };
    expect(usageFilterRule(model, [], ACTIVE_DISABLED_FILTERS).criteria.map((c) => c.name)).toEqual(['User']);
  });

  it('period bounds select the rows of its whole days, as the engine reads them', () => {
    const keep = filterPredicate(
      { StartTime: 'timestamp' },
      usageFilterRule({}, tableCriteria(bounds, false)),
    );
    expect(keep({ StartTime: '2026-03-14 00:00:00' })).toBe(true);
    expect(keep({ StartTime: '2026-03-15 23:59:59' })).toBe(true);
    expect(keep({ StartTime: '2026-03-13 23:59:59' })).toBe(false);
    expect(keep({ StartTime: '2026-03-16 00:00:00' })).toBe(false);
  });

  it('reads datetime-local input values with or without seconds', () => {
    expect(fromLocalInput('2026-03-02T10:15:07')).toBe('2026-03-02 10:15:07');
    expect(fromLocalInput('2026-03-02T10:15')).toBe('2026-03-02 10:15:00');
    expect(fromLocalInput('')).toBeUndefined();
  });
});
