import { Alert, Group, Stack } from '@mantine/core';
import type { ColDef } from 'ag-grid-community';
import { AgGridReact, type AgGridReactProps } from 'ag-grid-react';
import type { ReactNode } from 'react';
import { Spinner } from '../spinner.tsx';
import { gridTheme } from './ag-grid-setup.ts';
import { SavedViewButtons, type SavedViewButtonsProps } from './saved-view-buttons.tsx';
import type { useSavedView } from './use-saved-view.ts';
import type { ServerRows } from './use-server-rows.ts';

/** The rows of a table: all in the browser, or fetched block by block from a data service (use-server-rows.ts). */
export type ViewGridRows<T> = { kind: 'client'; rows: T[] } | { kind: 'infinite'; source: ServerRows };

export interface ViewGridProps<T>
  extends Omit<AgGridReactProps<T>, 'theme' | 'rowModelType' | 'rowData' | 'datasource' | 'toolbar'>,
    Pick<SavedViewButtonsProps, 'onClearFilters' | 'onResetView' | 'labels'> {
  /** The table's saved view (useSavedView): its grid events go on the grid, its buttons in the toolbar. */
  view: ReturnType<typeof useSavedView>;
  rowModel: ViewGridRows<T>;
  /** The grid's region name (what assistive technology and browser tests find). */
  ariaLabel: string;
  /** Left of the toolbar: the table's own filters (a period, a product choice). */
  toolbar?: ReactNode;
  /** Right of the toolbar, before Clear filters / Reset view: the table's actions (export, columns). */
  actions?: ReactNode;
  /** The spinner's text over the grid; default the saved view's while it loads or resets. */
  busy?: string | null;
  /** The region is busy (default: blocks are being fetched or the view is loading). */
  ariaBusy?: boolean;
  /** Under the messages, above the grid (e.g. the table's empty text). */
  notice?: ReactNode;
  /** The grid's height; without it the grid takes its rows' height (domLayout 'autoHeight' or a given height). */
  height?: number | string;
}

/** One condition per column filter (spec 000 §2.7); the default columns of a server table. */
const serverColDef: ColDef = {
  sortable: true,
  resizable: true,
  filter: true,
  filterParams: { maxNumConditions: 1 },
  flex: 1,
  minWidth: 100,
};
const PAGE_SIZE = 20;
const PAGE_SIZES = [20, 50, 100];

/**
 * The one table shell of the product: a toolbar (the table's own controls, its actions, Clear filters and Reset
 * view of its saved view, spec 000 §4.4), the saved view's load error and the rows' failure, and the grid in a
 * named region with the saved view's spinner. Rows come from the browser ('client') or from a data service through
 * AG Grid's infinite row model ('infinite', paginated with a row count); the rest of AG Grid's options pass through.
 */
export function ViewGrid<T>({
  view,
  rowModel,
  ariaLabel,
  toolbar,
  actions,
  onClearFilters,
  onResetView,
  labels,
  busy,
  ariaBusy,
  notice,
  height,
  ...grid
}: ViewGridProps<T>) {
  const source = rowModel.kind === 'infinite' ? rowModel.source : null;
  const spinner = busy === undefined ? view.busy : busy;
  const rows: AgGridReactProps<T> = source
    ? {
        rowModelType: 'infinite',
        // The columns share the width left of the scrollbar from the start: AG Grid does not re-flex them when the
        // bar appears with the first rows, and it then covered the last column (decision 052).
        alwaysShowVerticalScroll: true,
        cacheBlockSize: 100,
        pagination: true,
        paginationPageSize: PAGE_SIZE,
        paginationPageSizeSelector: PAGE_SIZES,
        defaultColDef: serverColDef as ColDef<T>,
      }
    : { rowData: rowModel.kind === 'client' ? rowModel.rows : undefined };
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" gap="xs">
        <Group gap="xs">{toolbar}</Group>
        <Group gap="xs">
          {actions}
          <SavedViewButtons
            view={view}
            onClearFilters={onClearFilters}
            onResetView={onResetView}
            labels={labels}
          />
        </Group>
      </Group>
      {view.loadError ? (
        <Alert color="red" title="Could not load the saved view">
          {view.loadError.message}
        </Alert>
      ) : null}
      {source?.failed ? <Alert color="red">{source.failed}</Alert> : null}
      {notice}
      <section
        aria-label={ariaLabel}
        aria-busy={ariaBusy ?? ((source?.loading ?? false) || view.busy !== null)}
        style={{ position: 'relative', height }}
      >
        {spinner ? <Spinner text={spinner} overlay /> : null}
        <AgGridReact<T> theme={gridTheme} {...rows} {...grid} {...view.gridEvents} />
      </section>
    </Stack>
  );
}
