import { AUDIT_EXPORT_MAX, type AuditRow } from '@lp/contract/audit/schemas';
import type { ColumnState } from '@lp/contract/prefs/schemas';
import { formatDate } from '@lp/domain/dates';
import { mayReadAllAuditLogs, mayReadAuditLog } from '@lp/domain/policy';
import { Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { noticeState, useCustomer } from '../../../app/customer-context.tsx';
import { showError } from '../../../components/panels.tsx';
import { filterModelToRule, sortModelToRules } from '../../../components/saved-view-grid/grid-filter.ts';
import { useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import { type GridFilterModel, sortModelOf } from '../../../components/saved-view-grid/view-rules.ts';
import { errorText } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { saveTextFile } from '../../../lib/save-file.ts';
import { type AuditScope, createAuditDataService, fetchAuditForExport } from '../api/audit.ts';
import { auditCsv, auditCsvFileName } from '../audit-csv.ts';
import { AuditEntryDrawer } from '../components/audit-entry-drawer.tsx';
import { CheckpointStatus } from '../components/checkpoint-status.tsx';

const TABLE = 'auditLog';
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
    // Wide enough for the longest action of the catalogue ('license-servers.shared-group.changed') at 1366 px
    // with the Account column shown: an action is read whole, the free-text columns give way.
    { colId: 'action', field: 'action', headerName: 'Action', flex: 2, minWidth: 300, ...textFilter },
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
  const [exporting, setExporting] = useState(false);
  const [entry, setEntry] = useState<AuditRow | null>(null);
  const dataService = useMemo(() => createAuditDataService(scope), [scope]);
  const view = useSavedView({ customerNumber, tableName: TABLE });
  const rows = useServerRows(view.api, view.applied, { dataService });
  const columns = useMemo(() => columnDefs(scope === null, setEntry), [scope]);

  const exportCsv = async () => {
    const api = view.api;
    if (!api) return;
    setExporting(true);
    try {
      const filter = filterModelToRule(api.getFilterModel() as GridFilterModel);
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
    <>
      <ViewGrid<AuditRow>
        view={view}
        rowModel={{ kind: 'infinite', source: rows }}
        ariaLabel="Audit entries"
        height={560}
        actions={
          <Button size="xs" variant="default" onClick={() => void exportCsv()} disabled={exporting}>
            Export as csv file
          </Button>
        }
        notice={rows.empty && !rows.failed ? <Text size="sm">{NO_ENTRIES}</Text> : null}
        busy={view.busy ?? (exporting ? 'Exporting audit entries ...' : null)}
        columnDefs={columns}
        defaultColDef={defaultColDef}
        maintainColumnOrder
        suppressColumnVirtualisation
      />
      <AuditEntryDrawer entry={entry} onClose={() => setEntry(null)} />
    </>
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
