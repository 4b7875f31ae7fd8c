import { AUDIT_EXPORT_MAX, type AuditRow } from '@lp/contract/audit/schemas';
import type { ColumnState } from '@lp/contract/prefs/schemas';
import { formatDate } from '@lp/domain/dates';
import { mayReadAllAuditLogs, mayReadAuditLog } from '@lp/domain/policy';
import { Alert, Box, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { ColDef, GridApi, ICellRendererParams, IDatasource, IGetRowsParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { noticeState, useCustomer } from '../../../app/customer-context.tsx';
import { showError } from '../../../components/panels.tsx';
import { gridTheme } from '../../../components/saved-view-grid/ag-grid-setup.ts';
import { filterModelToRule, sortModelToRules } from '../../../components/saved-view-grid/grid-filter.ts';
import { SavedViewButtons } from '../../../components/saved-view-grid/saved-view-buttons.tsx';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { type GridFilterModel, sortModelOf } from '../../../components/saved-view-grid/view-rules.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { saveTextFile } from '../../../lib/save-file.ts';
import { useCountPerFilter } from '../../../lib/use-count-per-filter.ts';
import { type AuditScope, createAuditDataService, fetchAuditForExport } from '../api/audit.ts';
import { auditCsv, auditCsvFileName } from '../audit-csv.ts';
import { AuditEntryDrawer } from '../components/audit-entry-drawer.tsx';
import { CheckpointStatus } from '../components/checkpoint-status.tsx';

const TABLE = 'auditLog';
const PAGE_SIZE = 20;
const PAGE_SIZES = [20, 50, 100];
const BLOCK_SIZE = 100;
export const NO_ENTRIES = 'No audit entries to display.';
const tooMany = (max: number) =>
  `Total number of audit entries exceeds ${max}. Apply filters to reduce selection.`;

/** One text condition per column, contains or equals (spec 000 §2.7). */
const textFilter = {
  filter: 'agTextColumnFilter',
  filterParams: { filterOptions: ['contains', 'equals'], maxNumConditions: 1, buttons: ['reset'] },
} as const;

const defaultColDef: ColDef<AuditRow> = { sortable: true, resizable: true, flex: 1, minWidth: 110 };

/** Opens the entry's drawer; a button, so the keyboard reaches it like any other. */
function DetailsButton(props: ICellRendererParams<AuditRow> & { open: (row: AuditRow) => void }) {
  const row = props.data;
  if (!row) return null;
  return (
    <Button
      size="compact-xs"
      variant="light"
      aria-label={`Details: ${row.action} at ${row.time}`}
      onClick={() => props.open(row)}
    >
      Details
    </Button>
  );
}

function columnDefs(withAccount: boolean, open: (row: AuditRow) => void): ColDef<AuditRow>[] {
  return [
    {
      colId: 'time',
      field: 'time',
      headerName: 'Time (UTC)',
      sort: 'desc',
      minWidth: 170,
      filter: 'agDateColumnFilter',
      filterParams: {
        filterOptions: ['equals', 'greaterThan', 'lessThan', 'inRange'],
        maxNumConditions: 1,
        buttons: ['reset'],
      },
    },
    ...(withAccount
      ? [{ colId: 'account', field: 'account', headerName: 'Account', ...textFilter } as const]
      : []),
    { colId: 'actor', field: 'actor', headerName: 'Actor', flex: 2, ...textFilter },
    { colId: 'action', field: 'action', headerName: 'Action', flex: 2, ...textFilter },
    // Wide enough for the longest type ('feature-selection') at 1366 px with the Account column shown.
    {
      colId: 'objectType',
      field: 'objectType',
      headerName: 'Object type',
      minWidth: 170,
      ...textFilter,
    },
    { colId: 'objectId', field: 'objectId', headerName: 'Object', flex: 2, ...textFilter },
    {
      colId: 'details',
      headerName: 'Details',
      cellRenderer: DetailsButton,
      cellRendererParams: { open },
      sortable: false,
      filter: false,
      flex: 0,
      width: 100,
      minWidth: 90,
    },
  ];
}

function AuditGrid({ customerNumber, scope }: { customerNumber: string; scope: AuditScope }) {
  const [loading, setLoading] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [entry, setEntry] = useState<AuditRow | null>(null);
  const dataService = useMemo(() => createAuditDataService(scope), [scope]);
  const { countFor } = useCountPerFilter(dataService);
  const ruleOf = (model: unknown) => filterModelToRule(model as GridFilterModel);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params: IGetRowsParams) => {
        setLoading((n) => n + 1);
        let rule: ReturnType<typeof filterModelToRule>;
        try {
          rule = filterModelToRule(params.filterModel as GridFilterModel);
        } catch (e) {
          setFailed(errorText(e));
          setLoading((n) => n - 1);
          params.failCallback();
          return;
        }
        Promise.all([
          dataService.getBlock({
            filter: rule,
            sorting: sortModelToRules(params.sortModel),
            startRow: params.startRow,
            endRow: params.endRow,
          }),
          countFor(rule),
        ])
          .then(([block, total]) => {
            setFailed(null);
            setEmpty(total === 0);
            params.successCallback(block.rows, block.lastRow ?? total);
          })
          .catch((e: unknown) => {
            setFailed(errorText(e));
            params.failCallback();
          })
          .finally(() => setLoading((n) => n - 1));
      },
    }),
    [dataService, countFor],
  );

  const view = useSavedView({
    customerNumber,
    tableName: TABLE,
    onViewApplied: useCallback((api: GridApi) => api.setGridOption('datasource', datasource), [datasource]),
  });
  const columns = useMemo(() => columnDefs(scope === null, setEntry), [scope]);

  const exportCsv = async () => {
    const api = view.api;
    if (!api) return;
    setExporting(true);
    try {
      const filter = ruleOf(api.getFilterModel());
      if ((await dataService.count(filter)) > AUDIT_EXPORT_MAX) {
        showError(tooMany(AUDIT_EXPORT_MAX));
        return;
      }
      const sorting = sortModelToRules(sortModelOf(api.getColumnState() as ColumnState[]));
      const rows = await fetchAuditForExport(scope, { filter, sorting });
      saveTextFile(
        auditCsv(rows, scope === null),
        auditCsvFileName(scope, formatDate(new Date())),
        'text/csv',
      );
    } catch (e) {
      showError(errorText(e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="xs">
      <Group justify="flex-end" gap="xs">
        <Button size="xs" variant="default" onClick={() => void exportCsv()} disabled={exporting}>
          Export as csv file
        </Button>
        <SavedViewButtons view={view} />
      </Group>
      {view.loadError ? (
        <Alert color="red" title="Could not load the saved view">
          {view.loadError.message}
        </Alert>
      ) : null}
      {failed ? <Alert color="red">{failed}</Alert> : null}
      {empty && !failed ? <Text size="sm">{NO_ENTRIES}</Text> : null}
      <Box
        component="section"
        aria-label="Audit entries"
        aria-busy={loading > 0 || view.busy !== null}
        style={{ position: 'relative', height: 560 }}
      >
        {view.busy || exporting ? (
          <Spinner text={view.busy ?? 'Exporting audit entries ...'} overlay />
        ) : null}
        <AgGridReact<AuditRow>
          theme={gridTheme}
          // Columns sized left of the scrollbar from the start (decision 052): AG Grid does not re-flex when it appears.
          alwaysShowVerticalScroll
          rowModelType="infinite"
          cacheBlockSize={BLOCK_SIZE}
          pagination
          paginationPageSize={PAGE_SIZE}
          paginationPageSizeSelector={PAGE_SIZES}
          columnDefs={columns}
          defaultColDef={defaultColDef}
          maintainColumnOrder
          suppressColumnVirtualisation
          {...view.gridEvents}
        />
      </Box>
      <AuditEntryDrawer entry={entry} onClose={() => setEntry(null)} />
    </Stack>
  );
}

/**
 * Routed at /audit-log inside RequireCustomer (web/src/app/router.tsx): the selected account's audit log for
 * its administrators, support coordinators and vendor staff, who also get every account's. Others go to
 * /nopermissions (the server refuses them too).
 */
export default function AuditLogPage() {
  const { customer, version } = useCustomer();
  const { roles } = useCurrentUser();
  const navigate = useNavigate();
  const [allAccounts, setAllAccounts] = useState(false);
  const allowed = !!customer && mayReadAuditLog(roles, customer.info);
  useEffect(() => {
    if (customer && !allowed)
      navigate('/nopermissions', { replace: true, state: noticeState(version, customer.customerNumber) });
  }, [customer, allowed, navigate, version]);
  if (!customer || !allowed) return null;
  const scope = allAccounts ? null : customer.customerNumber;
  return (
    <Stack data-testid="audit-log-page">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Audit Log
        </Title>
        {mayReadAllAuditLogs(roles) ? (
          <Switch
            label="All accounts"
            checked={allAccounts}
            onChange={(e) => setAllAccounts(e.currentTarget.checked)}
          />
        ) : null}
      </Group>
      <CheckpointStatus scope={scope} />
      <AuditGrid key={scope ?? '*'} customerNumber={customer.customerNumber} scope={scope} />
    </Stack>
  );
}
