import type { StatementRecord } from '@lp/contract/statements/schemas';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RANGE,
  keepDetailsUnderParents,
  poRows,
  rangeDays,
  rangeFromPref,
  rangeLabel,
  rangePref,
  recordRowId,
} from './statement-view.ts';

const record = (activationId: string, used: number): StatementRecord => ({
  PONumber: `PO-${activationId}`,
  ActivationId: activationId,
  StartDate: '2026-01-01',
  EndDate: '2026-12-31',
  BalanceBeforeStart: 100,
  BalanceAtEnd: 100 - used,
  Used: used,
  Currency: 'USD',
  LineItemQuantity: 100,
  TotalUsed: used,
  Products: [],
});

describe('statement range', () => {
  const base = { customerNumber: '1', tableName: 'elasticTransaction' as const };

  it('restores saved custom days first, then a saved preset, else Last month', () => {
    expect(rangeFromPref(undefined)).toEqual(DEFAULT_RANGE);
    expect(rangeFromPref({ ...base, dateRange: 'This week' })).toEqual({ preset: 'This week' });
    expect(
      rangeFromPref({
        ...base,
        dateRange: 'This week',
        startDate: '2026-03-01',
        endDate: '2026-03-31 23:59:59',
      }),
    ).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    // A transactions-only preset or a broken custom range falls back.
    expect(rangeFromPref({ ...base, dateRange: '1 Day' })).toEqual(DEFAULT_RANGE);
    expect(rangeFromPref({ ...base, startDate: '2026-04-01', endDate: '2026-03-01' })).toEqual(DEFAULT_RANGE);
  });

  it('saves nothing for the default and the preset or the days otherwise (round trip)', () => {
    expect(rangePref(DEFAULT_RANGE)).toEqual({});
    for (const r of [{ preset: 'Yesterday' as const }, { from: '2026-02-01', to: '2026-02-14' }]) {
      expect(rangeFromPref({ ...base, ...rangePref(r) })).toEqual(r);
    }
  });

  it('labels and resolves ranges to days', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(rangeDays(DEFAULT_RANGE, now)).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(rangeLabel({ from: '2026-02-01', to: '2026-02-14' })).toBe('2026-02-01 – 2026-02-14');
    expect(rangeLabel({ preset: 'Today' })).toBe('Today');
  });
});

describe('purchase-order rows', () => {
  const records = [record('A', 10), record('B', 20), record('C', 30)];

  it('adds a detail row, carrying the parent fields, under each expanded record', () => {
    const rows = poRows(records, new Set([recordRowId(records[1])]));
    expect(rows.map((r) => r.rowId)).toEqual(['po:A', 'po:B', 'po:B:detail', 'po:C']);
    expect(rows[1]).toMatchObject({ expanded: true });
    expect(rows[2]).toMatchObject({ detailOf: 'po:B', PONumber: 'PO-B', Used: 20 });
  });

  it('keeps details under their parents whatever order a sort produced', () => {
    const rows = poRows(records, new Set(['po:A', 'po:C']));
    const nodes = rows.map((data) => ({ data }));
    // A descending sort on Used moves details away from their parents.
    const sorted = [...nodes].sort((a, b) => b.data.Used - a.data.Used);
    expect(keepDetailsUnderParents(sorted).map((n) => n.data.rowId)).toEqual([
      'po:C',
      'po:C:detail',
      'po:B',
      'po:A',
      'po:A:detail',
    ]);
    // A filtered-out parent takes its detail with it.
    const filtered = nodes.filter((n) => n.data.Used !== 10);
    expect(keepDetailsUnderParents(filtered).map((n) => n.data.rowId)).toEqual([
      'po:B',
      'po:C',
      'po:C:detail',
    ]);
  });
});
