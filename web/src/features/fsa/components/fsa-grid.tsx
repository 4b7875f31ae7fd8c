import type { TableName } from '@lp/contract/prefs/schemas';
import {
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  type GetRowIdFunc,
  type GridApi,
  PaginationModule,
} from 'ag-grid-community';
import { useMemo } from 'react';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { ColumnsMenu } from './columns-menu.tsx';

/**
 * Every FSA list is in the browser: the grid filters, sorts and pages it there (the row model's API module gives
 * the export the rows after filter and sort).
 */
const gridModules = [ClientSideRowModelModule, ClientSideRowModelApiModule, PaginationModule];

/** Spec 002 §9: page size 10; page-size options 25, 50, 100, 500. */
export const FSA_PAGE_SIZE = 10;
const PAGE_SIZES = [FSA_PAGE_SIZE, 25, 50, 100, 500];

/** Spec 002 §2: text filters, contains or equals, one condition. */
export const fsaTextFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
} as const;

export interface FsaGridProps<T> {
  customerNumber: string;
  tableName: TableName;
  /** The section's title; the grid is the region '{title} table'. */
  title: string;
  rows: T[];
  columnDefs: ColDef<T>[];
  getRowId: GetRowIdFunc<T>;
  rowHeight?: number;
  /** Buttons before Columns / Clear filters / Reset view, given the grid once it is ready. */
  toolbar?: (api: GridApi<T> | null) => React.ReactNode;
}

/**
 * One FSA table: a client-side AG Grid with the user's saved view for (customer, table) (filters, sort, column
 * order and visibility), its Columns, Clear filters and Reset view buttons, and a pager.
 */
export function FsaGrid<T>({
  customerNumber,
  tableName,
  title,
  rows,
  columnDefs,
  getRowId,
  rowHeight,
  toolbar,
}: FsaGridProps<T>) {
  const view = useSavedView({ customerNumber, tableName });
  const api = view.api as GridApi<T> | null;
  const defaultColDef = useMemo<ColDef<T>>(
    () => ({
      sortable: true,
      resizable: true,
      ...fsaTextFilter,
      flex: 1,
      minWidth: 100,
      wrapHeaderText: true,
      autoHeaderHeight: true,
    }),
    [],
  );
  return (
    <ViewGrid<T>
      view={view}
      rowModel={{ kind: 'client', rows }}
      ariaLabel={`${title} table`}
      actions={
        <>
          {toolbar?.(api)}
          <ColumnsMenu api={view.applied ? api : null} title={title} />
        </>
      }
      modules={gridModules}
      getRowId={getRowId}
      columnDefs={columnDefs}
      defaultColDef={defaultColDef}
      rowHeight={rowHeight}
      domLayout="autoHeight"
      suppressColumnVirtualisation
      animateRows={false}
      pagination
      paginationPageSize={FSA_PAGE_SIZE}
      paginationPageSizeSelector={PAGE_SIZES}
    />
  );
}
