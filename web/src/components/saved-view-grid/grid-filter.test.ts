import { describe, expect, it } from 'vitest';
import { filterModelToRule, sortModelToRules, UnsupportedFilterError } from './grid-filter.ts';

describe('AG Grid model to filter rule', () => {
  it('maps text, number and date filters to ANDed criteria', () => {
    const rule = filterModelToRule({
      subject: { filterType: 'text', type: 'contains', filter: 'Inv' },
      to: { filterType: 'text', type: 'notEqual', filter: 'a@b.c' },
      qty: { filterType: 'number', type: 'inRange', filter: 1, filterTo: 5 },
      date: { filterType: 'date', type: 'lessThan', dateFrom: '2026-01-31 00:00:00', dateTo: null },
    });
    expect(rule).toEqual({
      condition: 'ALL',
      criteria: [
        { name: 'subject', method: 'CONTAINS', value: 'Inv', casefold: true },
        { name: 'to', method: 'EQUALS', not: true, value: 'a@b.c', casefold: true },
        { name: 'qty', method: 'INRANGE', value: [1, 5] },
        { name: 'date', method: 'BEFOREDAY', value: '2026-01-31' },
      ],
    });
  });
  it('adds table criteria, maps field names, and has no rule without filters', () => {
    expect(filterModelToRule(null)).toBeUndefined();
    expect(
      filterModelToRule(
        { s: { filterType: 'text', type: 'equals', filter: 'x' } },
        { fieldOf: (id) => `f_${id}`, extra: [{ name: 'active', method: 'EQUALS', value: true }] },
      ),
    ).toEqual({
      condition: 'ALL',
      criteria: [
        { name: 'active', method: 'EQUALS', value: true },
        { name: 'f_s', method: 'EQUALS', value: 'x', casefold: true },
      ],
    });
  });
  it('turns a lone OR column into ANY and refuses OR next to other filters', () => {
    const or = {
      operator: 'OR',
      conditions: [
        { filterType: 'text', type: 'contains', filter: 'a' },
        { filterType: 'text', type: 'blank' },
      ],
    };
    expect(filterModelToRule({ s: or })).toEqual({
      condition: 'ANY',
      criteria: [
        { name: 's', method: 'CONTAINS', value: 'a', casefold: true },
        { name: 's', method: 'ISDEFINED', not: true },
      ],
    });
    expect(() =>
      filterModelToRule({ s: or, t: { filterType: 'text', type: 'contains', filter: 'b' } }),
    ).toThrow(UnsupportedFilterError);
    expect(() => filterModelToRule({ s: { filterType: 'set', values: [] } })).toThrow(UnsupportedFilterError);
  });
  it('maps the sort model in order', () => {
    expect(
      sortModelToRules([
        { colId: 'b', sort: 'desc' },
        { colId: 'a', sort: 'asc' },
      ]),
    ).toEqual([
      { name: 'b', direction: 'desc' },
      { name: 'a', direction: 'asc' },
    ]);
  });
});
