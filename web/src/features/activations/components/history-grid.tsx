import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { formatCount } from '@lp/domain/amounts';
import { endText } from '@lp/domain/lease-entitlements';
import { ActionIcon, Badge, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import {
  ClientSideRowModelApiModule,
  ClientSideRowModelModule,
  type ColDef,
  type ColSpanParams,
  type ICellRendererParams,
  PaginationModule,
  type PostSortRowsParams,
  RowStyleModule,
  type TextMatcher,
  type ValueGetterParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useEffect, useMemo, useRef } from 'react';
import { gridTheme } from '../../../components/saved-view-grid/ag-grid-setup.ts';
import type { SavedViewGridEvents } from '../../../components/saved-view-grid/use-saved-view.ts';
import {
  type HistoryGridRow,
  type HostGridRow,
  historyTimeText,
  modifiedByText,
  type StatusGridRow,
  stateText,
  type TreeRow,
  treeOrder,
} from '../history-tree.ts';

/** The whole tree is in the browser: the grid filters, sorts and pages it there. */
const gridModules = [ClientSideRowModelModule, ClientSideRowModelApiModule, PaginationModule, RowStyleModule];

/** Spec 002 §9: history grid page size 10; page-size options 25, 50, 100, 500. */
export const HISTORY_PAGE_SIZE = 10;
const PAGE_SIZES = [HISTORY_PAGE_SIZE, 25, 50, 100, 500];

/** What a host row's buttons do; reached through the grid context, so new handlers never rebuild the columns. */
export interface HostActions {
  toggle: (host: LicenseServer) => void;
  view: (host: LicenseServer) => void;
  download: (host: LicenseServer) => void;
  rehost: (host: LicenseServer) => void;
  deactivate: (host: LicenseServer) => void;
  remove: (host: LicenseServer) => void;
}

type Lines = (row: HistoryGridRow) => Array<string | number>;

/**
 * Text filters (contains or equals, one condition) judge history rows only: host and status rows always pass, so
 * a filter narrows what is listed under each host while every host stays (decision 033). Each history row
 * offers several texts, one per line (the shown text and the raw value).
 */
const historyMatcher: TextMatcher = ({ data, filterOption, value, filterText }) => {
  if ((data as TreeRow | undefined)?.kind !== 'history') return true;
  if (!filterText) return true;
  const lines = String(value ?? '').split('\n');
  return filterOption === 'equals'
    ? lines.some((line) => line === filterText)
    : lines.some((line) => line.includes(filterText));
};

const textFilter = (lines: Lines): Partial<ColDef<TreeRow>> => ({
  filter: 'agTextColumnFilter',
  filterParams: {
    filterOptions: ['contains', 'equals'],
    maxNumConditions: 1,
    buttons: ['reset'],
    textMatcher: historyMatcher,
  },
  filterValueGetter: (p: ValueGetterParams<TreeRow>) =>
    p.data?.kind === 'history' ? lines(p.data).map(String).join('\n') : '',
});

/** A history column: its value (what it sorts by) and the texts its filter matches. */
function historyColumn(
  colId: string,
  headerName: string,
  value: (row: HistoryGridRow) => string | number,
  lines: Lines,
  extra: Partial<ColDef<TreeRow>> = {},
): ColDef<TreeRow> {
  return {
    colId,
    headerName,
    valueGetter: (p: ValueGetterParams<TreeRow>) => (p.data?.kind === 'history' ? value(p.data) : null),
    ...textFilter(lines),
    ...extra,
  };
}

function ActionButton({
  label,
  tip,
  onClick,
  glyph,
}: {
  label: string;
  tip: string;
  onClick: () => void;
  glyph: string;
}) {
  return (
    <Tooltip label={tip} withinPortal>
      <ActionIcon variant="light" aria-label={label} onClick={onClick}>
        <span aria-hidden="true">{glyph}</span>
      </ActionIcon>
    </Tooltip>
  );
}

function HostCell({ data, context }: { data: HostGridRow; context: HostActions }) {
  const { host, expanded } = data;
  const active = host.state === 'Active';
  return (
    <Group justify="space-between" wrap="nowrap" h="100%" gap="xs">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <ActionIcon
          variant="subtle"
          aria-label={`${expanded ? 'Collapse' : 'Expand'} ${host.name}`}
          aria-expanded={expanded}
          onClick={() => context.toggle(host)}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
        </ActionIcon>
        {/* A triad's three names wrap to a second line rather than end in an ellipsis at 1366 px, and the badges
            keep their width (issue 21). */}
        <Text
          size="sm"
          fw={600}
          lh={1.2}
          lineClamp={2}
          style={{ whiteSpace: 'normal' }}
          title={host.displayName}
          data-testid="host-name"
        >
          {host.displayName}
        </Text>
        <Badge variant="light" color={active ? 'green' : 'gray'} tt="none" style={{ flexShrink: 0 }}>
          {stateText(host)}
        </Badge>
        {host.shared ? (
          <Badge variant="outline" color="blue" tt="none" style={{ flexShrink: 0 }}>
            shared
          </Badge>
        ) : null}
      </Group>
      <Group gap={6} wrap="nowrap">
        {active ? (
          <>
            <ActionButton
              label={`View activations of ${host.name}`}
              tip="View current activations"
              glyph="☰"
              onClick={() => context.view(host)}
            />
            <ActionButton
              label={`Download license file of ${host.name}`}
              tip="Download license file"
              glyph="⬇"
              onClick={() => context.download(host)}
            />
            <ActionButton
              label={`Rehost ${host.name}`}
              tip="Rehost on a different host"
              glyph="⇄"
              onClick={() => context.rehost(host)}
            />
            <ActionButton
              label={`Deactivate ${host.name}`}
              tip="Deactivate host"
              glyph="⊘"
              onClick={() => context.deactivate(host)}
            />
          </>
        ) : (
          <ActionButton
            label={`Delete ${host.name}`}
            tip="Delete host"
            glyph="✕"
            onClick={() => context.remove(host)}
          />
        )}
      </Group>
    </Group>
  );
}

function StatusCell({ data }: { data: StatusGridRow }) {
  return (
    <Group gap="xs" h="100%" pl={40} wrap="nowrap">
      {data.loading ? <Loader size="xs" /> : null}
      <Text size="sm" c={data.loading ? undefined : 'dimmed'}>
        {data.text}
      </Text>
    </Group>
  );
}

/** The first column: the host row (spanning the whole row), a status row, or the indent of a history row. */
function TreeCell({ data, context }: ICellRendererParams<TreeRow, unknown, HostActions>) {
  if (data?.kind === 'host') return <HostCell data={data} context={context} />;
  if (data?.kind === 'status') return <StatusCell data={data} />;
  return null;
}

function EntitlementCell({ data }: ICellRendererParams<TreeRow>) {
  if (data?.kind !== 'history') return null;
  return (
    <Stack gap={0} py={4} style={{ lineHeight: 1.3 }}>
      <Text size="sm" fw={600}>
        {data.row.product}
      </Text>
      <Text size="xs">{data.row.activationId}</Text>
    </Stack>
  );
}

/** Host and status rows span every column; history rows keep the first column as their indent. */
const treeColSpan = (p: ColSpanParams<TreeRow>) =>
  p.data?.kind === 'history' ? 1 : p.api.getAllDisplayedColumns().length;

const rowHeights: Record<TreeRow['kind'], number> = { host: 48, history: 52, status: 40 };

export interface HistoryGridProps {
  title: string;
  rows: TreeRow[];
  actions: HostActions;
  gridEvents: SavedViewGridEvents;
}

/**
 * One section's tree grid (spec 002 §2 "Activations history"): host rows with their buttons and expand toggle,
 * and under each expanded host its grouped history. Columns Time, Modified By, Action, Entitlement (product over
 * activation id), Count, Start Date, Expiration Date; their filters and sorts apply to the history rows.
 */
export function HistoryGrid({ title, rows, actions, gridEvents }: HistoryGridProps) {
  const columnDefs = useMemo<ColDef<TreeRow>[]>(
    () => [
      {
        colId: 'host',
        headerName: 'Host',
        cellRenderer: TreeCell,
        colSpan: treeColSpan,
        // The tree's own column stays first (it carries the host rows) and is neither sorted nor filtered.
        lockPosition: 'left',
        suppressMovable: true,
        sortable: false,
        filter: false,
        resizable: false,
        flex: 0,
        width: 64,
        minWidth: 64,
      },
      historyColumn(
        'time',
        'Time',
        (r) => r.row.time,
        (r) => [historyTimeText(r.row.time), r.row.time],
        {
          valueFormatter: (p) => (typeof p.value === 'string' ? historyTimeText(p.value) : ''),
          minWidth: 130,
        },
      ),
      historyColumn(
        'modifiedBy',
        'Modified By',
        (r) => modifiedByText(r.row.modifiedBy),
        (r) => [modifiedByText(r.row.modifiedBy)],
        { minWidth: 150, flex: 1.5 },
      ),
      historyColumn(
        'action',
        'Action',
        (r) => r.row.action,
        (r) => [r.row.action],
        { minWidth: 120 },
      ),
      historyColumn(
        'entitlement',
        'Entitlement',
        (r) => `${r.row.product} ${r.row.activationId}`,
        (r) => [r.row.product, r.row.activationId],
        { cellRenderer: EntitlementCell, minWidth: 180, flex: 2 },
      ),
      historyColumn(
        'count',
        'Count',
        (r) => r.row.count,
        (r) => [r.row.count, formatCount(r.row.count)],
        {
          type: 'rightAligned',
          valueFormatter: (p) => (typeof p.value === 'number' ? formatCount(p.value) : ''),
          minWidth: 75,
        },
      ),
      historyColumn(
        'startDate',
        'Start Date',
        (r) => r.row.startDate,
        (r) => [r.row.startDate],
        { minWidth: 100 },
      ),
      historyColumn(
        'endDate',
        'Expiration Date',
        (r) => endText(r.row.endDate, r.row.versionDate),
        (r) => [endText(r.row.endDate, r.row.versionDate)],
        { minWidth: 100 },
      ),
    ],
    [],
  );

  const defaultColDef = useMemo<ColDef<TreeRow>>(
    () => ({
      sortable: true,
      resizable: true,
      flex: 1,
      minWidth: 75,
      wrapHeaderText: true,
      autoHeaderHeight: true,
    }),
    [],
  );

  // New rows (a host deactivated into this section, its history arriving) are merged by id into the grid's sorted
  // order, where a new host could land at the end under a column sort (seen once in a full browser run, issue 21);
  // sorting again after each change puts every row back through postSortRows' tree order.
  const gridRef = useRef<AgGridReact<TreeRow>>(null);
  useEffect(() => {
    if (rows.length > 0) gridRef.current?.api?.refreshClientSideRowModel('sort');
  }, [rows]);

  return (
    <section aria-label={`${title} table`}>
      <AgGridReact<TreeRow>
        ref={gridRef}
        modules={gridModules}
        theme={gridTheme}
        rowData={rows}
        getRowId={(p) => p.data.id}
        context={actions}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        getRowHeight={(p) => (p.data ? rowHeights[p.data.kind] : undefined)}
        getRowStyle={(p) =>
          p.data?.kind === 'host' ? { background: 'var(--mantine-color-gray-0)' } : undefined
        }
        postSortRows={(p: PostSortRowsParams<TreeRow>) => {
          const ordered = treeOrder(p.nodes, (n) => n.data);
          // In place (the grid reads the same array); untouched when already in tree order.
          if (ordered.some((n, i) => n !== p.nodes[i])) p.nodes.splice(0, p.nodes.length, ...ordered);
        }}
        domLayout="autoHeight"
        // Rows in the DOM in the order they are shown: screen readers read the DOM, where a host that moves into
        // this section would otherwise stay after the others whatever its place in the name order.
        ensureDomOrder
        suppressColumnVirtualisation
        animateRows={false}
        pagination
        paginationPageSize={HISTORY_PAGE_SIZE}
        paginationPageSizeSelector={PAGE_SIZES}
        {...gridEvents}
      />
    </section>
  );
}
