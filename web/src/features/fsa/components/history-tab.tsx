import type { FsaHistoryRow } from '@lp/contract/fsa/schemas';
import { formatCount } from '@lp/domain/amounts';
import { formatMoney } from '@lp/domain/fsa-pricing';
import { Button, Stack, Text } from '@mantine/core';
import type { ColDef, GridApi, ICellRendererParams, TextMatcher } from 'ag-grid-community';
import { saveTextFile } from '../../../lib/save-file.ts';
import { fsaHistoryCsv, fsaHistoryCsvFileName } from '../fsa-csv.ts';
import { FsaGrid, fsaTextFilter } from './fsa-grid.tsx';

type Row = FsaHistoryRow;

const TITLE = 'Order History';

/** The Entitlement column offers two texts (product, entitlement id): a filter matches either. */
const linesMatcher: TextMatcher = ({ filterOption, value, filterText }) => {
  if (!filterText) return true;
  const lines = String(value ?? '').split('\n');
  return filterOption === 'equals'
    ? lines.some((line) => line === filterText)
    : lines.some((line) => line.includes(filterText));
};

function EntitlementCell({ data }: ICellRendererParams<Row>) {
  if (!data) return null;
  return (
    <Stack gap={0} justify="center" h="100%" style={{ lineHeight: 1.2 }}>
      <Text size="sm" fw={700} lh={1.2} truncate>
        {data.ansysproduct}
      </Text>
      <Text size="xs" lh={1.2} truncate>
        {data.entitlementId}
      </Text>
    </Stack>
  );
}

/** Spec 002 §2 "FSA order history screen"; default sort Order Date descending (§9). */
const columnDefs: ColDef<Row>[] = [
  {
    colId: 'entitlement',
    headerName: 'Entitlement',
    valueGetter: (p) => (p.data ? `${p.data.ansysproduct} ${p.data.entitlementId}` : ''),
    filterValueGetter: (p) => (p.data ? `${p.data.ansysproduct}\n${p.data.entitlementId}` : ''),
    filterParams: { ...fsaTextFilter.filterParams, textMatcher: linesMatcher },
    cellRenderer: EntitlementCell,
    flex: 2,
    // Widths that fit their texts whole (issue 21); at 1366 px the Requester scrolls sideways (decision 052).
    minWidth: 215,
  },
  { colId: 'fsaId', headerName: 'FSA Contract', field: 'fsaId', minWidth: 145 },
  { colId: 'orderdate', headerName: 'Order Date', field: 'orderdate', sort: 'desc', minWidth: 140 },
  {
    colId: 'count',
    headerName: 'Count',
    field: 'count',
    type: 'rightAligned',
    valueFormatter: (p) => (typeof p.value === 'number' ? formatCount(p.value) : ''),
    filterValueGetter: (p) => (p.data ? formatCount(p.data.count) : ''),
    minWidth: 70,
  },
  { colId: 'startdate', headerName: 'Start Date', field: 'startdate', minWidth: 95 },
  {
    colId: 'enddate',
    headerName: 'Expiration Date',
    valueGetter: (p) => p.data?.enddate ?? '',
    minWidth: 100,
  },
  {
    colId: 'cost',
    headerName: 'Cost',
    field: 'cost',
    type: 'rightAligned',
    valueFormatter: (p) => (typeof p.value === 'number' ? formatMoney(p.value) : ''),
    filterValueGetter: (p) => (p.data ? formatMoney(p.data.cost) : ''),
    minWidth: 95,
  },
  { colId: 'currency', headerName: 'Currency', field: 'currency', minWidth: 90 },
  { colId: 'requester', headerName: 'Requester', field: 'requester', flex: 1.5, minWidth: 185 },
];

/** The grid's rows after its filter and sort, every page: what the export writes. */
function shownRows(api: GridApi<Row>): Row[] {
  const rows: Row[] = [];
  api.forEachNodeAfterFilterAndSort((node) => {
    if (node.data) rows.push(node.data);
  });
  return rows;
}

/**
 * The History tab: the account's FSA order lines with their saved view (fsaHistory) and Export as csv, made in
 * the browser (spec 002 §7 "Exports") from the rows the grid shows, in its order, on every page.
 */
export function HistoryTab({ customerNumber, rows }: { customerNumber: string; rows: Row[] }) {
  const exportCsv = (api: GridApi<Row>) => {
    const today = new Date().toISOString().slice(0, 10);
    saveTextFile(fsaHistoryCsv(shownRows(api)), fsaHistoryCsvFileName(today, customerNumber), 'text/csv');
  };
  return (
    <FsaGrid<Row>
      customerNumber={customerNumber}
      tableName="fsaHistory"
      title={TITLE}
      rows={rows}
      columnDefs={columnDefs}
      getRowId={(p) => p.data.entitlementId}
      rowHeight={52}
      toolbar={(api) => (
        <Button variant="default" size="xs" disabled={!api} onClick={() => api && exportCsv(api)}>
          Export as csv
        </Button>
      )}
    />
  );
}
