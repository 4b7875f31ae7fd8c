import { prefsApi } from '@lp/contract/prefs/api';
import type { TablePref } from '@lp/contract/prefs/schemas';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../lib/call.ts';

/** Every saved table view of the signed-in user (all customers, all tables). */
export async function getTablePrefs(): Promise<TablePref[]> {
  return (await call(prefsApi.list)).data;
}

/** A preference without filter, sort and columns resets that view. */
export async function saveTablePrefs(tables: TablePref[]): Promise<void> {
  await call(prefsApi.save, { tables });
}

export const tablePrefsQuery = () =>
  queryOptions({
    queryKey: ['table-prefs'] as const,
    queryFn: getTablePrefs,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** Keeps the cached list in step with what was just saved, so a remounted table shows the saved view. */
export function mergeSavedPref(list: readonly TablePref[] | undefined, saved: TablePref): TablePref[] {
  const rest = (list ?? []).filter(
    (p) => !(p.customerNumber === saved.customerNumber && p.tableName === saved.tableName),
  );
  return [...rest, saved];
}
