import type { SortRule } from '@lp/contract/query/schemas';

/** Spec 001 §2.3: sessions sort by the chosen columns, then by Start Time and End Time ascending. */
export const USAGE_TIE_BREAKERS: readonly SortRule[] = [
  { name: 'StartTime', direction: 'asc' },
  { name: 'EndTime', direction: 'asc' },
];

/**
 * The chosen sort followed by the tie-breakers it does not already name, so the page, the CSV export and
 * the server all order the rows the same way (the on-screen sort always comes first).
 */
export function usageSortWithTieBreakers(sorting: readonly SortRule[] | undefined): SortRule[] {
  const chosen = sorting ?? [];
  const named = new Set(chosen.map((r) => r.name));
  return [...chosen, ...USAGE_TIE_BREAKERS.filter((r) => !named.has(r.name))];
}
