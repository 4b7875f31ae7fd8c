import type { TableName } from '@lp/contract/prefs/schemas';
import { Button } from '@mantine/core';
import {
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  type GetRowIdFunc,
  type GridApi,
  PaginationModule,
} from 'ag-grid-community';
import Papa from 'papaparse';
import { type ReactNode, useMemo } from 'react';
import { saveTextFile } from '../../lib/save-file.ts';
import { useSavedView } from './use-saved-view.ts';
import { ViewGrid } from './view-grid.tsx';

/** The whole list comes with one call: the grid filters, sorts and pages it in the browser. */
const gridModules = [ClientSideRowModelModule, ClientSideRowModelApiModule, PaginationModule];
const PAGE_SIZE = 20;

/** Text filters, contains or equals, one condition (spec 000 §2.7). */
const defaultColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
  flex: 1,
  minWidth: 110,
  wrapHeaderText: true,
  autoHeaderHeight: true,
};

/**
 * The shown columns (order, visibility) and rows (filter, sort, every page) as CSV, cells as the grid formats
 * them. papaparse quotes what needs quoting and defuses text a spreadsheet would run as a formula (names and
 * e-mails come from users).
 */
export function shownGridCsv<T>(api: GridApi<T>): string {
  const columns = api.getAllDisplayedColumns().filter((c) => c.getColDef().headerName);
  const data: string[][] = [];
  api.forEachNodeAfterFilterAndSort((rowNode) => {
    if (!rowNode.data) return;
    data.push(columns.map((c) => String(api.getCellValue({ rowNode, colKey: c, useFormatter: true }) ?? '')));
  });
  return Papa.unparse(
    { fields: columns.map((c) => c.getColDef().headerName ?? ''), data },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

export interface ListGridProps<T> {
  customerNumber: string;
  tableName: TableName;
  /** The grid is the region '{title} table'. */
  title: string;
  rows: T[];
  columnDefs: ColDef<T>[];
  getRowId: GetRowIdFunc<T>;
  /** The CSV file's name (Export as csv writes the rows and columns shown). */
  fileName: string;
  /** Left of the toolbar (the table's own buttons: Invite, Create…). */
  toolbar?: ReactNode;
  /** Reaches the cells (their row actions) without new column definitions, which would reset the view. */
  context?: unknown;
  rowHeight?: number;
  /** Shown above the table (the empty text). */
  notice?: ReactNode;
}

/**
 * A list the server gives whole, in the one table shell (decision 067): the user's saved view for (customer,
 * table), Export as csv, Clear filters and Reset view, text filters and a pager.
 */
export function ListGrid<T>({
  customerNumber,
  tableName,
  title,
  rows,
  columnDefs,
  getRowId,
  fileName,
  toolbar,
  context,
  rowHeight,
  notice,
}: ListGridProps<T>) {
  const view = useSavedView({ customerNumber, tableName });
  const api = view.api as GridApi<T> | null;
  const colDef = useMemo(() => defaultColDef as ColDef<T>, []);
  return (
    <ViewGrid<T>
      view={view}
      rowModel={{ kind: 'client', rows }}
      ariaLabel={`${title} table`}
      toolbar={toolbar}
      notice={notice}
      actions={
        <Button
          variant="default"
          size="xs"
          disabled={!api || !view.applied}
          onClick={() => api && saveTextFile(shownGridCsv(api), fileName, 'text/csv')}
        >
          Export as csv
        </Button>
      }
      modules={gridModules}
      getRowId={getRowId}
      context={context}
      columnDefs={columnDefs}
      defaultColDef={colDef}
      rowHeight={rowHeight}
      domLayout="autoHeight"
      suppressColumnVirtualisation
      animateRows={false}
      pagination
      paginationPageSize={PAGE_SIZE}
      paginationPageSizeSelector={[PAGE_SIZE, 50, 100]}
    />
  );
}
