import type { ColumnState } from '@lp/contract/prefs/schemas';
import { WEB_TRANSACTIONS_EXPORT_MAX, type WebTransactionRow } from '@lp/contract/web-sessions/schemas';
import { formatDate } from '@lp/domain/dates';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useCustomer, useRefusalRedirect } from '../../../app/customer-context.tsx';
import { showError } from '../../../components/panels.tsx';
import { filterModelToRule, sortModelToRules } from '../../../components/saved-view-grid/grid-filter.ts';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { type GridFilterModel, sortModelOf } from '../../../components/saved-view-grid/view-rules.ts';
import { errorText } from '../../../lib/api-client.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import {
  createWebTransactionsDataService,
  fetchWebTransactionsForExport,
  webTransactionsAsOfQuery,
} from '../api/web-transactions.ts';
import { type CsvColumn, webTransactionsCsv, webTransactionsCsvFileName } from '../web-transactions-csv.ts';

const TABLE = 'webTransactions';
export const webTransactionsTexts = {
  empty: 'No web sessions or denials to display.',
  tooMany: (max: number) =>
    `Total number of web transactions exceeds ${max}. Apply filters to reduce selection.`,
  exporting: 'Exporting web transactions ...',
} as const;

/** One text condition per column, contains or equals (spec 000 §2.7). */
const textFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
} as const;
const dateFilter = {
  filter: 'agDateColumnFilter',
  filterParams: {
    filterOptions: ['equals', 'greaterThan', 'lessThan', 'inRange'],
    maxNumConditions: 1,
    buttons: ['reset'],
  },
} as const;
const numberFilter = {
  filter: 'agNumberColumnFilter',
  filterParams: {
    filterOptions: ['greaterThanOrEqual', 'lessThanOrEqual', 'inRange'],
    maxNumConditions: 1,
    buttons: ['reset'],
  },
} as const;

const text = (field: keyof WebTransactionRow, headerName: string, extra: ColDef<WebTransactionRow> = {}) =>
  ({ colId: field, field, headerName, ...textFilter, ...extra }) as ColDef<WebTransactionRow>;

/** Server columns (contract/src/web-sessions/schemas.ts); column ids are the API's names. */
const columnDefs: ColDef<WebTransactionRow>[] = [
  { colId: 'Start', field: 'Start', headerName: 'Start (UTC)', sort: 'desc', minWidth: 170, ...dateFilter },
  { colId: 'End', field: 'End', headerName: 'End (UTC)', minWidth: 170, ...dateFilter },
  { colId: 'Duration', field: 'Duration', headerName: 'Duration (min)', minWidth: 120, ...numberFilter },
  text('Email', 'E-mail', { flex: 2 }),
  text('UserName', 'Name'),
  text('Group', 'Group'),
  text('PartNumber', 'Part number'),
  text('Product', 'Product', { flex: 2 }),
  text('Application', 'Application'),
  text('Client', 'Client'),
  text('Outcome', 'Outcome', { minWidth: 150 }),
  text('DenialReason', 'Denial reason', { minWidth: 150 }),
];

const defaultColDef: ColDef<WebTransactionRow> = { sortable: true, resizable: true, flex: 1, minWidth: 110 };

function TransactionsGrid({ customerNumber }: { customerNumber: string }) {
  const [exporting, setExporting] = useState(false);
  const dataService = useMemo(() => createWebTransactionsDataService(customerNumber), [customerNumber]);
  const view = useSavedView({ customerNumber, tableName: TABLE });
  const rows = useServerRows(view.api, view.applied, { dataService });

  const exportCsv = async () => {
    const api = view.api;
    if (!api) return;
    setExporting(true);
    try {
      const filter = filterModelToRule(api.getFilterModel() as GridFilterModel);
      if ((await dataService.count(filter)) > WEB_TRANSACTIONS_EXPORT_MAX) {
        showError(webTransactionsTexts.tooMany(WEB_TRANSACTIONS_EXPORT_MAX));
        return;
      }
      const columns: CsvColumn[] = api.getAllDisplayedColumns().map((c) => ({
        field: c.getColId() as keyof WebTransactionRow,
        title: c.getColDef().headerName ?? c.getColId(),
      }));
      const sorting = sortModelToRules(sortModelOf(api.getColumnState() as ColumnState[]));
      const found = await fetchWebTransactionsForExport(customerNumber, { filter, sorting });
      saveTextFile(
        webTransactionsCsv(columns, found),
        webTransactionsCsvFileName(customerNumber, formatDate(new Date())),
        'text/csv',
      );
    } catch (e) {
      showError(errorText(e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <ViewGrid<WebTransactionRow>
      view={view}
      rowModel={{ kind: 'infinite', source: rows }}
      ariaLabel="Web transactions"
      height={560}
      actions={
        <Button size="xs" variant="default" onClick={() => void exportCsv()} disabled={exporting}>
          Export as csv file
        </Button>
      }
      notice={rows.empty && !rows.failed ? <Text size="sm">{webTransactionsTexts.empty}</Text> : null}
      busy={view.busy ?? (exporting ? webTransactionsTexts.exporting : null)}
      columnDefs={columnDefs}
      defaultColDef={defaultColDef}
      maintainColumnOrder
      suppressColumnVirtualisation
    />
  );
}

function AsOf({ customerNumber }: { customerNumber: string }) {
  const asOf = useQuery(webTransactionsAsOfQuery(customerNumber));
  // An export-denied account goes to /noaccess, another refusal to /nopermissions (the rows are refused alike).
  useRefusalRedirect(asOf.error, customerNumber);
  const shown = asOf.isPending ? '…' : asOf.isError ? '—' : (asOf.data ?? 'no sessions yet');
  return (
    <Text size="sm" data-testid="web-transactions-as-of">
      Data as of {shown}
      {asOf.data ? ' (UTC)' : ''}
    </Text>
  );
}

/**
 * /web-transactions (decision 071): one row per web-license session or denied checkout of the account, paged,
 * filtered and sorted by the server, in the saved-view grid with the CSV export. Routed inside RequireCustomer.
 */
export default function WebTransactionsPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="web-transactions-page" gap="sm">
      <Title order={1} size="h2">
        Web Transactions
      </Title>
      <AsOf key={`as-of-${customer.customerNumber}`} customerNumber={customer.customerNumber} />
      <TransactionsGrid key={customer.customerNumber} customerNumber={customer.customerNumber} />
    </Stack>
  );
}
