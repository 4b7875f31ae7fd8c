import type { ColumnState, TableName, TablePref } from '@lp/contract/prefs/schemas';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnMovedEvent, GridApi, GridReadyEvent } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { mergeSavedPref, saveTablePrefs, tablePrefsQuery } from './table-prefs.ts';
import {
  columnStateFromPref,
  type ExtraViewConditions,
  findPref,
  type GridFilterModel,
  isResetPref,
  prefFor,
  type ViewState,
  viewButtons,
} from './view-rules.ts';

/** Spec 000 §4.4 / §9: preference saves are debounced 500 ms. */
export const PREF_SAVE_DEBOUNCE_MS = 500;
export const PREFS_SPINNER = 'Getting/Setting Preferences...';
export const RESET_SPINNER = 'Resetting View...';

export interface SavedViewOptions {
  customerNumber: string;
  tableName: TableName;
  extra?: ExtraViewConditions;
  /**
   * The table's own saved state (spec 001 §3: date range or start/end dates, active only), saved with the view
   * and saved again when it changes; leave it empty while the table is at its defaults.
   */
  extraPref?: ExtraPref;
}

/** The grid events a saved view follows; spread them on the AgGridReact. */
export interface SavedViewGridEvents {
  onGridReady: (e: GridReadyEvent) => void;
  onFilterChanged: () => void;
  onSortChanged: () => void;
  onColumnVisible: () => void;
  onColumnMoved: (e: ColumnMovedEvent) => void;
}

export type ExtraPref = Partial<Pick<TablePref, 'dateRange' | 'startDate' | 'endDate' | 'activeOnly'>>;

const readView = (api: GridApi): ViewState => ({
  filterModel: api.getFilterModel() as GridFilterModel,
  columnState: api.getColumnState() as ColumnState[],
});

/**
 * Loads the saved view of (customer, table), applies it to the grid, saves every filter, sort, move or
 * visibility change (debounced) and drives the Clear filters / Reset view buttons.
 */
export function useSavedView({ customerNumber, tableName, extra, extraPref }: SavedViewOptions) {
  const queryClient = useQueryClient();
  const prefs = useQuery(tablePrefsQuery());
  const [api, setApi] = useState<GridApi | null>(null);
  const initial = useRef<ColumnState[]>([]);
  const lastSaved = useRef<string | null>(null);
  const [view, setView] = useState<ViewState>({ filterModel: null, columnState: [] });
  const [applied, setApplied] = useState(false);
  const [busy, setBusy] = useState<string | null>(PREFS_SPINNER);
  const extraPrefRef = useRef(extraPref);
  extraPrefRef.current = extraPref;
  const prefNow = useCallback(
    (gridApi: GridApi): TablePref => ({
      ...prefFor(customerNumber, tableName, readView(gridApi), initial.current),
      ...extraPrefRef.current,
    }),
    [customerNumber, tableName],
  );

  const onGridReady = useCallback((gridApi: GridApi) => {
    initial.current = gridApi.getColumnState() as ColumnState[];
    setApi(gridApi);
  }, []);

  // Apply the saved view once both the grid and the preferences are there.
  useEffect(() => {
    if (!api || applied) return;
    if (prefs.isError) {
      setBusy(null);
      setApplied(true);
      api.showNoRowsOverlay();
      return;
    }
    if (!prefs.data) return;
    const pref = findPref(prefs.data, customerNumber, tableName);
    if (pref && !isResetPref(pref)) {
      api.applyColumnState({
        state: columnStateFromPref(pref, initial.current),
        applyOrder: true,
        defaultState: { sort: null },
      });
      api.setFilterModel(pref.filterModel ?? null);
    } else {
      // No saved view: clear the filter and show the initial columns.
      api.setFilterModel(null);
      api.applyColumnState({ state: initial.current, applyOrder: true, defaultState: { sort: null } });
    }
    const current = readView(api);
    lastSaved.current = JSON.stringify(prefNow(api));
    setView(current);
    setApplied(true);
    setBusy(null);
  }, [api, applied, prefs.data, prefs.isError, customerNumber, tableName, prefNow]);

  // Saves go out one at a time, in the order they were made, so an older view never lands after a newer one.
  const saving = useRef<Promise<void>>(Promise.resolve());
  const save = useCallback(
    (pref: TablePref): Promise<void> => {
      const key = JSON.stringify(pref);
      if (key === lastSaved.current) return saving.current;
      lastSaved.current = key;
      saving.current = saving.current.then(async () => {
        try {
          await saveTablePrefs([pref]);
          queryClient.setQueryData(tablePrefsQuery().queryKey, (list) => mergeSavedPref(list, pref));
        } catch (e) {
          // Spec 000 §4.4: a failed save is only logged.
          console.warn('Error', e);
        }
      });
      return saving.current;
    },
    [queryClient],
  );

  const debouncedSave = useDebouncedCallback(() => {
    if (!api) return;
    void save(prefNow(api));
  }, PREF_SAVE_DEBOUNCE_MS);

  // A change of the table's own state (e.g. its date range) is saved like a filter change.
  const extraKey = JSON.stringify(extraPref ?? {});
  const lastExtraKey = useRef(extraKey);
  useEffect(() => {
    if (extraKey === lastExtraKey.current) return;
    lastExtraKey.current = extraKey;
    if (applied) debouncedSave();
  }, [extraKey, applied, debouncedSave]);

  /** Wire to the grid's filterChanged, sortChanged, columnMoved (finished) and columnVisible events. */
  const onViewChanged = useCallback(() => {
    if (!api || !applied) return;
    setView(readView(api));
    debouncedSave();
  }, [api, applied, debouncedSave]);

  const gridEvents = useMemo<SavedViewGridEvents>(
    () => ({
      onGridReady: (e) => onGridReady(e.api),
      onFilterChanged: onViewChanged,
      onSortChanged: onViewChanged,
      onColumnVisible: onViewChanged,
      onColumnMoved: (e) => {
        if (e.finished) onViewChanged();
      },
    }),
    [onGridReady, onViewChanged],
  );

  const clearFilters = useCallback(() => {
    api?.setFilterModel(null);
  }, [api]);

  const resetView = useCallback(async () => {
    if (!api) return;
    setBusy(RESET_SPINNER);
    api.setFilterModel(null);
    api.applyColumnState({ state: initial.current, applyOrder: true, defaultState: { sort: null } });
    setView(readView(api));
    await save({ customerNumber, tableName });
    setBusy(null);
  }, [api, save, customerNumber, tableName]);

  // Until the saved view is on the grid there is nothing to clear or reset: a click then would be lost.
  const buttons = useMemo(
    () => (applied ? viewButtons(view, initial.current, extra) : { clearFilters: false, resetView: false }),
    [applied, view, extra],
  );

  return {
    api,
    onGridReady,
    onViewChanged,
    gridEvents,
    clearFilters,
    resetView,
    buttons,
    busy,
    applied,
    loadError: prefs.isError ? prefs.error : null,
  };
}
