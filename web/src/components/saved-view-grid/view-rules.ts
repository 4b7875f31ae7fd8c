import type { ColumnState, TableName, TablePref } from '@lp/contract/prefs/schemas';

/** Saved filter model: per column an AG Grid filter description (JSON). */
export type GridFilterModel = Record<string, Record<string, unknown>>;

export interface ViewState {
  filterModel: GridFilterModel | null | undefined;
  columnState: readonly ColumnState[];
}

/** Conditions a table adds to the shared ones (spec 000 §4.4: "some tables add range conditions"). */
export interface ExtraViewConditions {
  /** e.g. a date range narrower than the default counts as a filter. */
  filterPresent?: boolean;
  /** e.g. a non-default range or "active only" toggle differs from the initial view. */
  differsFromInitial?: boolean;
}

export const hasFilter = (model: GridFilterModel | null | undefined): boolean =>
  !!model && Object.keys(model).length > 0;

/** Only what the view is about: identity, order, sort and visibility (spec 000 §3 "Column state compared"). */
export const comparedColumnState = (state: readonly ColumnState[]): ColumnState[] =>
  state.map((c) => ({
    colId: c.colId,
    sort: c.sort ?? null,
    sortIndex: c.sort ? (c.sortIndex ?? null) : null,
    hide: c.hide ?? false,
  }));

/** Equal when the columns come in the same order with the same sort, sort index and visibility. */
export function columnStatesEqual(a: readonly ColumnState[], b: readonly ColumnState[]): boolean {
  return JSON.stringify(comparedColumnState(a)) === JSON.stringify(comparedColumnState(b));
}

export interface ViewButtons {
  clearFilters: boolean;
  resetView: boolean;
}

/**
 * Clear filters: enabled only when a filter is present (it clears only the filter). Reset view: disabled
 * only when there is nothing to reset — no filter, the initial columns and no non-default table condition
 * (spec 001 §4 and 002 §4 word it so; Reset also clears the filter). One rule for every table:
 * docs/decisions/023-reset-view-and-customer-switch.md.
 */
export function viewButtons(
  view: ViewState,
  initial: readonly ColumnState[],
  extra: ExtraViewConditions = {},
): ViewButtons {
  const filterPresent = hasFilter(view.filterModel) || !!extra.filterPresent;
  const atInitial = columnStatesEqual(view.columnState, initial) && !extra.differsFromInitial;
  return { clearFilters: filterPresent, resetView: filterPresent || !atInitial };
}

/** AG Grid sort model derived from column state, in sort-index order. */
export function sortModelOf(state: readonly ColumnState[]) {
  return state
    .filter((c): c is ColumnState & { sort: 'asc' | 'desc' } => c.sort === 'asc' || c.sort === 'desc')
    .map((c, i) => ({ colId: c.colId, sort: c.sort, sortIndex: c.sortIndex ?? i }))
    .sort((a, b) => a.sortIndex - b.sortIndex);
}

/**
 * The preference to save for a view. A view with no filter and the initial columns (order, visibility and the
 * table's default sort) is saved as the empty preference, which the server treats as "reset" (spec 000 §4.4).
 */
export function prefFor(
  customerNumber: string,
  tableName: TableName,
  view: ViewState,
  initial: readonly ColumnState[],
): TablePref {
  // The initial columns include the table's default sort (e.g. Start Time ascending): keeping it is no change.
  if (!hasFilter(view.filterModel) && columnStatesEqual(view.columnState, initial)) {
    return { customerNumber, tableName };
  }
  const sortModel = sortModelOf(view.columnState);
  return {
    customerNumber,
    tableName,
    filterModel: hasFilter(view.filterModel) ? (view.filterModel as GridFilterModel) : null,
    sortModel,
    columnOrder: comparedColumnState(view.columnState),
  };
}

export const isResetPref = (pref: TablePref | undefined): boolean =>
  !pref || (!hasFilter(pref.filterModel) && !pref.sortModel?.length && !pref.columnOrder?.length);

export const findPref = (
  prefs: readonly TablePref[] | undefined,
  customerNumber: string,
  tableName: TableName,
) => prefs?.find((p) => p.customerNumber === customerNumber && p.tableName === tableName);

/** Column state to apply for a saved preference; sort from sortModel when no column order was saved. */
export function columnStateFromPref(pref: TablePref, initial: readonly ColumnState[]): ColumnState[] {
  if (pref.columnOrder?.length) {
    const known = new Set(initial.map((c) => c.colId));
    const saved = pref.columnOrder.filter((c) => known.has(c.colId));
    // Columns added to the table after the view was saved keep their initial place at the end.
    const savedIds = new Set(saved.map((c) => c.colId));
    return [...saved, ...initial.filter((c) => !savedIds.has(c.colId))];
  }
  const sorts = new Map(
    (pref.sortModel ?? []).map((s, i) => [s.colId, { sort: s.sort, sortIndex: s.sortIndex ?? i }]),
  );
  return initial.map((c) => ({
    ...c,
    sort: sorts.get(c.colId)?.sort ?? null,
    sortIndex: sorts.get(c.colId)?.sortIndex ?? null,
  }));
}
