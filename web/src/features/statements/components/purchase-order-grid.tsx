import type { StatementRecord } from '@lp/contract/statements/schemas';
import { formatAmount } from '@lp/domain/amounts';
import { displayProducts, pieSlices } from '@lp/domain/statement';
import { ActionIcon, Group, Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type {
  ColDef,
  GetRowIdParams,
  ICellRendererParams,
  IsFullWidthRowParams,
  PostSortRowsParams,
  RowHeightParams,
  ValueFormatterParams,
} from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useMemo } from 'react';
import { gridTheme } from '../../../components/saved-view-grid/ag-grid-setup.ts';
import type { SavedViewGridEvents } from '../../../components/saved-view-grid/use-saved-view.ts';
import { keepDetailsUnderParents, type PoRow, poRows } from '../statement-view.ts';
import './statement-grid-modules.ts';
import { StatementPie } from './statement-pie.tsx';

interface GridContext {
  toggle: (rowId: string) => void;
}

const amount = (p: ValueFormatterParams<PoRow, number>) => (p.value == null ? '' : formatAmount(p.value));

/** One text condition (contains or equals) or an exact number, as on every table of the product (spec 000 §2.7). */
const textFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
} as const;
const numberFilter = {
  filter: 'agNumberColumnFilter',
  filterParams: { filterOptions: ['equals'], maxNumConditions: 1, buttons: ['reset'] },
  type: 'rightAligned',
  valueFormatter: amount,
} as const;

function PoCell(props: ICellRendererParams<PoRow, string, GridContext>) {
  const row = props.data;
  if (!row) return null;
  return (
    <Group gap={6} wrap="nowrap">
      <ActionIcon
        size="sm"
        variant="subtle"
        aria-expanded={!!row.expanded}
        aria-label={`${row.expanded ? 'Hide' : 'Show'} product usage of ${row.PONumber || row.ActivationId}`}
        onClick={() => props.context.toggle(row.rowId)}
      >
        {row.expanded ? '▾' : '▸'}
      </ActionIcon>
      <span>{row.PONumber}</span>
    </Group>
  );
}

const columnDefs: ColDef<PoRow>[] = [
  {
    colId: 'PONumber',
    field: 'PONumber',
    headerName: 'PO',
    cellRenderer: PoCell,
    minWidth: 150,
    ...textFilter,
  },
  { colId: 'ActivationId', field: 'ActivationId', headerName: 'Entitlement', minWidth: 170, ...textFilter },
  { colId: 'StartDate', field: 'StartDate', headerName: 'Start Date', ...textFilter },
  { colId: 'EndDate', field: 'EndDate', headerName: 'Expiration Date', ...textFilter },
  {
    colId: 'BalanceBeforeStart',
    field: 'BalanceBeforeStart',
    headerName: 'Balance on Period Start Date',
    minWidth: 150,
    ...numberFilter,
  },
  {
    colId: 'BalanceAtEnd',
    field: 'BalanceAtEnd',
    headerName: 'Balance on Period End Date',
    minWidth: 150,
    ...numberFilter,
  },
  { colId: 'Used', field: 'Used', headerName: 'Period Used', ...numberFilter },
  { colId: 'Currency', field: 'Currency', headerName: 'Currency', ...textFilter },
];

const ROW_HEIGHT = 42;
const detailHeight = (r: StatementRecord) => Math.max(230, 70 + 37 * Math.max(1, r.Products.length));

/** The expanded part of a record (spec 001 §2.2): its products (Product, Period Used, Currency) and their pie. */
function DetailRow(props: ICellRendererParams<PoRow>) {
  const row = props.data;
  if (!row) return null;
  const products = displayProducts(row.Products);
  const label = `Product usage of ${row.PONumber || row.ActivationId}`;
  // The full-width row is an ARIA row: its content is one cell spanning the columns.
  return (
    <Group
      role="gridcell"
      aria-colspan={columnDefs.length}
      align="flex-start"
      gap="xl"
      p="sm"
      pl={48}
      wrap="nowrap"
      style={{ height: '100%', overflow: 'auto' }}
    >
      <Table withTableBorder striped style={{ maxWidth: 480 }} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Product</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>Period Used</Table.Th>
            <Table.Th>Currency</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {products.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>No usage in this period.</Table.Td>
            </Table.Tr>
          ) : (
            products.map((p, i) => (
              // A relabelled credit may share its name with another: the position keeps keys unique.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows never reorder within one render
              <Table.Tr key={`${p.product}-${i}`}>
                <Table.Td>{p.product}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{formatAmount(p.total)}</Table.Td>
                <Table.Td>{p.currency}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      <StatementPie
        title={`Period Used by Product (${row.PONumber || row.ActivationId})`}
        slices={pieSlices(row.Products)}
      />
    </Group>
  );
}

export interface PurchaseOrderGridProps {
  records: StatementRecord[];
  expanded: ReadonlySet<string>;
  onToggle: (rowId: string) => void;
  /** The saved view's grid events (spec 001 §3). */
  gridEvents: SavedViewGridEvents;
}

/**
 * "Usage by Purchase Order" (spec 001 §2.2). AG Grid Community has no master/detail, so an expanded record is
 * followed by a full-width row of its own (see poRows); filters and sorts keep the pair together.
 */
export function PurchaseOrderGrid({ records, expanded, onToggle, gridEvents }: PurchaseOrderGridProps) {
  // On screen the grid scrolls within a capped height; printed, every row is laid out (issue 21).
  const printing = useMediaQuery('print') ?? false;
  const rows = useMemo(() => poRows(records, expanded), [records, expanded]);
  const context = useMemo<GridContext>(() => ({ toggle: onToggle }), [onToggle]);
  const defaultColDef = useMemo<ColDef<PoRow>>(
    () => ({
      sortable: true,
      resizable: true,
      flex: 1,
      minWidth: 110,
      wrapHeaderText: true,
      autoHeaderHeight: true,
    }),
    [],
  );
  const height = Math.min(
    640,
    80 +
      rows.reduce((h, r) => h + (r.detailOf ? detailHeight(r) : ROW_HEIGHT), 0) +
      (rows.length === 0 ? 80 : 0),
  );

  return (
    <section aria-label="Usage by Purchase Order" style={{ height: printing ? 'auto' : height }}>
      <AgGridReact<PoRow>
        theme={gridTheme}
        domLayout={printing ? 'print' : 'normal'}
        // At its height cap the grid scrolls: columns sized left of the scrollbar from the start (decision 052).
        alwaysShowVerticalScroll={!printing && height === 640}
        rowData={rows}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        context={context}
        rowHeight={ROW_HEIGHT}
        getRowId={(p: GetRowIdParams<PoRow>) => p.data.rowId}
        isFullWidthRow={(p: IsFullWidthRowParams<PoRow>) => !!p.rowNode.data?.detailOf}
        fullWidthCellRenderer={DetailRow}
        getRowHeight={(p: RowHeightParams<PoRow>) => (p.data?.detailOf ? detailHeight(p.data) : undefined)}
        postSortRows={(p: PostSortRowsParams<PoRow>) => {
          const ordered = keepDetailsUnderParents(p.nodes);
          p.nodes.splice(0, p.nodes.length, ...ordered);
        }}
        {...gridEvents}
      />
    </section>
  );
}
