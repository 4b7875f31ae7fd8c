import { describe, expect, it } from 'vitest';
import { usageSortWithTieBreakers } from './usage-sort.ts';

const start = { name: 'StartTime', direction: 'asc' } as const;
const end = { name: 'EndTime', direction: 'asc' } as const;

describe('usageSortWithTieBreakers', () => {
  it('puts the chosen sort first, then Start Time and End Time ascending', () => {
    expect(usageSortWithTieBreakers([{ name: 'Product', direction: 'desc' }])).toEqual([
      { name: 'Product', direction: 'desc' },
      start,
      end,
    ]);
    expect(usageSortWithTieBreakers(undefined)).toEqual([start, end]);
  });

  it('keeps a chosen Start Time or End Time direction and does not repeat it', () => {
    expect(usageSortWithTieBreakers([{ name: 'EndTime', direction: 'desc' }])).toEqual([
      { name: 'EndTime', direction: 'desc' },
      start,
    ]);
  });
});
