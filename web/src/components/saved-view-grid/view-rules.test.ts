import type { ColumnState } from '@lp/contract/prefs/schemas';
import { describe, expect, it } from 'vitest';
import { columnStateFromPref, columnStatesEqual, isResetPref, prefFor, viewButtons } from './view-rules.ts';

const initial: ColumnState[] = [
  { colId: 'date', sort: 'desc', sortIndex: 0, width: 120 },
  { colId: 'subject' },
  { colId: 'to' },
];
const moved: ColumnState[] = [
  { colId: 'subject' },
  { colId: 'date', sort: 'desc', sortIndex: 0 },
  { colId: 'to' },
];
const filter = { subject: { filterType: 'text', type: 'contains', filter: 'invoice' } };

describe('column state comparison', () => {
  it('compares id order, sort, sort index and visibility, ignoring width', () => {
    expect(
      columnStatesEqual(
        initial,
        initial.map((c) => ({ ...c, width: 300 })),
      ),
    ).toBe(true);
    expect(columnStatesEqual(initial, moved)).toBe(false);
    expect(
      columnStatesEqual(
        initial,
        initial.map((c) => (c.colId === 'to' ? { ...c, hide: true } : c)),
      ),
    ).toBe(false);
    expect(
      columnStatesEqual(
        initial,
        initial.map((c) => (c.colId === 'date' ? { ...c, sort: 'asc' as const } : c)),
      ),
    ).toBe(false);
    expect(columnStatesEqual([{ colId: 'a', hide: false }], [{ colId: 'a' }])).toBe(true);
  });
});

describe('Clear filters / Reset view enable rules (decision 023: one rule for every table)', () => {
  it('enables Clear filters only with a filter present, and Reset view too (Reset clears the filter)', () => {
    expect(viewButtons({ filterModel: filter, columnState: initial }, initial)).toEqual({
      clearFilters: true,
      resetView: true,
    });
    expect(viewButtons({ filterModel: filter, columnState: moved }, initial)).toEqual({
      clearFilters: true,
      resetView: true,
    });
  });
  it('disables Reset view only when there is nothing to reset', () => {
    expect(viewButtons({ filterModel: null, columnState: initial }, initial)).toEqual({
      clearFilters: false,
      resetView: false,
    });
    expect(viewButtons({ filterModel: {}, columnState: moved }, initial)).toEqual({
      clearFilters: false,
      resetView: true,
    });
  });
  it('lets a table add its own conditions', () => {
    expect(
      viewButtons({ filterModel: null, columnState: initial }, initial, { filterPresent: true }),
    ).toEqual({ clearFilters: true, resetView: true });
    expect(
      viewButtons({ filterModel: null, columnState: initial }, initial, { differsFromInitial: true }),
    ).toEqual({ clearFilters: false, resetView: true });
  });
});

describe('preference payload', () => {
  it('saves the initial view as the empty (reset) preference', () => {
    const pref = prefFor(
      '1001',
      'emailList',
      { filterModel: null, columnState: initial.map((c) => ({ ...c, sort: null })) },
      initial.map((c) => ({ ...c, sort: null })),
    );
    expect(pref).toEqual({ customerNumber: '1001', tableName: 'emailList' });
    expect(isResetPref(pref)).toBe(true);
  });
  it('saves the initial view with its default sort as the reset preference too', () => {
    const pref = prefFor('1001', 'emailList', { filterModel: null, columnState: initial }, initial);
    expect(pref).toEqual({ customerNumber: '1001', tableName: 'emailList' });
    // Taking the default sort away is a change that is kept.
    const unsorted = prefFor(
      '1001',
      'emailList',
      { filterModel: null, columnState: initial.map((c) => ({ ...c, sort: null })) },
      initial,
    );
    expect(isResetPref(unsorted)).toBe(false);
    expect(unsorted.sortModel).toEqual([]);
    expect(columnStateFromPref(unsorted, initial).find((c) => c.colId === 'date')?.sort).toBeNull();
  });
  it('saves filter, sort and column order of a changed view, and restores it', () => {
    const pref = prefFor('1001', 'emailList', { filterModel: filter, columnState: moved }, initial);
    expect(pref.filterModel).toEqual(filter);
    expect(pref.sortModel).toEqual([{ colId: 'date', sort: 'desc', sortIndex: 0 }]);
    expect(pref.columnOrder?.map((c) => c.colId)).toEqual(['subject', 'date', 'to']);
    expect(isResetPref(pref)).toBe(false);
    expect(columnStatesEqual(columnStateFromPref(pref, initial), moved)).toBe(true);
  });
  it('applies a saved sort model when no column order was saved, and keeps columns added later', () => {
    const state = columnStateFromPref(
      { customerNumber: '1', tableName: 'emailList', sortModel: [{ colId: 'to', sort: 'asc' }] },
      initial,
    );
    expect(state.find((c) => c.colId === 'to')?.sort).toBe('asc');
    expect(state.find((c) => c.colId === 'date')?.sort).toBeNull();
    const withNew = columnStateFromPref(
      { customerNumber: '1', tableName: 'emailList', columnOrder: [{ colId: 'to' }, { colId: 'gone' }] },
      initial,
    );
    expect(withNew.map((c) => c.colId)).toEqual(['to', 'date', 'subject']);
  });
});
