import type { ColDef } from 'ag-grid-community';

/**
 * A row's action buttons as the last column: pinned right so they stay in reach however far the table is scrolled
 * sideways, of a fixed width, without a header, sorting, filter or column menu.
 */
export function actionsColumn<T>(cellRenderer: ColDef<T>['cellRenderer'], width: number): ColDef<T> {
  return {
    colId: 'actions',
    headerName: '',
    pinned: 'right',
    sortable: false,
    filter: false,
    suppressHeaderMenuButton: true,
    flex: 0,
    width,
    minWidth: width,
    resizable: false,
    cellRenderer,
  };
}
