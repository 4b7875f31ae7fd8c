import type { TablePref } from '@lp/contract/prefs/schemas';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { deletePref, listPrefs, upsertPref } from './repository.ts';

const isEmpty = (v: unknown) =>
  v == null || (Array.isArray(v) ? v.length === 0 : typeof v === 'object' && Object.keys(v).length === 0);

/**
 * Spec 000 §4.4: a view with no filter, no sort and no column state is the initial view, so it is deleted —
 * unless it keeps a table's own state (spec 001 §3: date range or start/end dates, active only).
 */
export const isResetView = (p: TablePref) =>
  isEmpty(p.filterModel) &&
  isEmpty(p.sortModel) &&
  isEmpty(p.columnOrder) &&
  !p.dateRange &&
  !p.startDate &&
  !p.endDate &&
  !p.activeOnly;

export async function getPrefs(ctx: AppContext, principal: Principal): Promise<TablePref[]> {
  const rows = await listPrefs(ctx.db, principal.userId);
  return rows.map(
    (r) =>
      ({ ...(r.payload as object), customerNumber: r.customerNumber, tableName: r.tableName }) as TablePref,
  );
}

export async function savePrefs(ctx: AppContext, principal: Principal, tables: TablePref[]): Promise<void> {
  // A view is stored per customer; one may only keep views of accounts one can see.
  for (const customerNumber of new Set(tables.map((t) => t.customerNumber))) {
    await authorizeAccount(ctx, principal, customerNumber, 'info');
  }
  await ctx.db.transaction(async (tx) => {
    for (const pref of tables) {
      const { customerNumber, tableName, ...payload } = pref;
      if (isResetView(pref)) await deletePref(tx, principal.userId, customerNumber, tableName);
      else await upsertPref(tx, principal.userId, customerNumber, tableName, payload);
    }
  });
}
