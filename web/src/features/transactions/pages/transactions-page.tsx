import { messages } from '@lp/contract/common/errors';
import type { ColumnState } from '@lp/contract/prefs/schemas';
import type { Criterion } from '@lp/contract/query/schemas';
import { CSV_EXPORT_MAX, type UsageAttribute, type UsageRow } from '@lp/contract/transactions/schemas';
import type { TransactionDatePreset } from '@lp/domain/dates';
import { usageSortWithTieBreakers } from '@lp/domain/usage-sort';
import { Anchor, Button, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ColDef, CustomFilterModule, PaginationModule } from 'ag-grid-community';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useCustomer } from '../../../app/customer-context.tsx';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { showError } from '../../../components/panels.tsx';
import { sortModelToRules } from '../../../components/saved-view-grid/grid-filter.ts';
import { tablePrefsQuery } from '../../../components/saved-view-grid/table-prefs.ts';
import { PREFS_SPINNER, useSavedView } from '../../../components/saved-view-grid/use-saved-view.ts';
import { useServerRows } from '../../../components/saved-view-grid/use-server-rows.ts';
import { ViewGrid } from '../../../components/saved-view-grid/view-grid.tsx';
import {
  findPref,
  type GridFilterModel,
  hasFilter,
  sortModelOf,
} from '../../../components/saved-view-grid/view-rules.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCountingClient } from '../../../lib/counting-client.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import {
  createUsageDataService,
  fetchForExport,
  getLastReceived,
  hasCloudJobs,
  type UsageAccount,
} from '../api/usage.ts';
import { PeriodMenu } from '../components/period-menu.tsx';
import { usageColumnDefs } from '../components/usage-columns.ts';
import { type Choice, ValuesFilterDialog } from '../components/values-filter-dialog.tsx';
import { usageCsv, usageCsvFileName } from '../usage-csv.ts';
import {
  ACTIVE_DISABLED_FILTERS,
  DEFAULT_PERIOD,
  isDefaultPeriod,
  periodBounds,
  periodFromPref,
  periodPref,
  tableCriteria,
  type UsagePeriod,
  usageFilterRule,
  type ValuesFilterModel,
} from '../usage-filter.ts';

/** Spec 001 §2.3 spinner texts. */
const USAGE_SPINNER = 'Getting Product Usage information ...';
const EXPORT_SPINNER = 'Exporting transactions ...';
const USAGE_PREFS_SPINNER = 'Getting Preferences';

const TABLE = 'UsageTransactions';
/** Spec 001 §9: block and page size 20; the page-size options 25, 50, 100, 500 (20 listed so it can be shown). */
const PAGE_SIZE = 20;
const PAGE_SIZES = [20, 25, 50, 100, 500];
/** Spec 001 §9: the cache holds at most 5 times the largest option. */
const MAX_BLOCKS = (5 * 500) / PAGE_SIZE;
const DISTINCT_LIMIT = 500;
/** Spec 001 writes the saved view's buttons in title case. */
const SPEC_001_LABELS = { clearFilters: 'Clear Filters', resetView: 'Reset View' };
const ignoreFailure = () => {};
const gridModules = [CustomFilterModule, PaginationModule];

/**
 * One object for the grid's lifetime: a new one each render made AG Grid re-apply the column definitions,
 * and with them Start Time's sort, so a header click sorted twice and sent two requests (issue 8).
 */
const defaultColDef: ColDef<UsageRow> = { sortable: true, resizable: true, width: 150, minWidth: 90 };

interface UsageTableProps {
  account: UsageAccount;
  initialPeriod: UsagePeriod;
  initialActiveOnly: boolean;
  cloudJobs: boolean;
}

function UsageTable({ account, initialPeriod, initialActiveOnly, cloudJobs }: UsageTableProps) {
  const [period, setPeriod] = useState(initialPeriod);
  const [activeOnly, setActiveOnly] = useState(initialActiveOnly);
  // Presets are relative to now: the bounds are fixed when the period is chosen or refreshed.
  const [refreshed, setRefreshed] = useState(() => new Date());
  const bounds = useMemo(() => periodBounds(period, refreshed), [period, refreshed]);
  const [exporting, setExporting] = useState(false);
  const [valuesColumn, setValuesColumn] = useState<{ colId: string; title: string } | null>(null);

  const lastReceived = useQuery({
    queryKey: ['last-received', account.customerNumber],
    queryFn: () => getLastReceived(account.customerNumber),
  });

  // Every call of the data service (rows, counts, distinct values) shows the usage spinner; failures are told by
  // the grid (rows) or the caller (export, values).
  const { client, inFlight } = useCountingClient(ignoreFailure);
  const dataService = useMemo(() => createUsageDataService(account, client), [account, client]);

  const extraCriteria = useMemo<Criterion[]>(() => tableCriteria(bounds, activeOnly), [bounds, activeOnly]);
  const disabledFilters = activeOnly ? ACTIVE_DISABLED_FILTERS : undefined;
  const ruleFor = useCallback(
    (model: unknown) => usageFilterRule(model as GridFilterModel, extraCriteria, disabledFilters),
    [extraCriteria, disabledFilters],
  );

  const view = useSavedView({
    customerNumber: account.customerNumber,
    tableName: TABLE,
    extra: { differsFromInitial: !isDefaultPeriod(period) || activeOnly },
    extraPref: periodPref(period, activeOnly),
  });
  const { api } = view;
  const rows = useServerRows(api, view.applied, {
    dataService,
    ruleFor,
    sortFor: usageSortWithTieBreakers,
    // A new period or toggle refetches from the first row.
    criteriaKey: JSON.stringify(extraCriteria),
    // Spec 001 §8: the block fails, the message is shown, the spinner hidden, the no-rows overlay shown.
    onFailure: showError,
  });

  const choosePreset = async (preset: TransactionDatePreset) => {
    if (api && hasFilter(api.getFilterModel() as GridFilterModel)) {
      if (!(await confirmDialog(messages.rangeClearsFilters))) return;
      api.setFilterModel(null);
    }
    setRefreshed(new Date());
    setPeriod({ kind: 'preset', preset });
  };

  const toggleActive = (checked: boolean) => {
    if (checked && api) {
      const model = { ...(api.getFilterModel() as GridFilterModel) };
      for (const colId of ACTIVE_DISABLED_FILTERS) delete model[colId];
      api.setFilterModel(model);
    }
    setActiveOnly(checked);
  };

  const resetPeriod = () => {
    setPeriod(DEFAULT_PERIOD);
    setActiveOnly(false);
    setRefreshed(new Date());
  };

  const refresh = () => {
    void lastReceived.refetch();
    setRefreshed(new Date());
    rows.reload();
  };

  // The values dialog loads again when this changes.
  const loadChoices = useCallback(
    async (colId: string, search: string): Promise<Choice[]> => {
      const model = { ...((api?.getFilterModel() ?? {}) as GridFilterModel) };
      delete model[colId];
      const rule = ruleFor(model);
      if (search) rule.criteria.push({ name: colId, method: 'CONTAINS', value: search, casefold: true });
      const values = await dataService.distinct(colId, rule, DISTINCT_LIMIT);
      // A missing value cannot be picked: text columns keep '' for "none", only Cloud Job Id has nulls.
      return values.filter((v): v is Choice => typeof v === 'string' || typeof v === 'number');
    },
    [api, dataService, ruleFor],
  );

  const applyValues = (colId: string, model: ValuesFilterModel | null) => {
    setValuesColumn(null);
    void api?.setColumnFilterModel(colId, model).then(() => api.onFilterChanged());
  };

  const openValues = (colId: string) => {
    const title = api?.getColumn(colId)?.getColDef().headerName ?? colId;
    setValuesColumn({ colId, title });
  };
  const openValuesRef = useRef(openValues);
  openValuesRef.current = openValues;
  const columnDefs = useMemo(
    () =>
      usageColumnDefs({
        activeOnly,
        hasCloudJobs: cloudJobs,
        openValues: (colId) => openValuesRef.current(colId),
      }),
    [activeOnly, cloudJobs],
  );

  const exportCsv = async () => {
    if (!api) return;
    setExporting(true);
    try {
      const filter = ruleFor(api.getFilterModel());
      const total = await dataService.count(filter);
      if (total > CSV_EXPORT_MAX) {
        showError(messages.tooManyTransactions(CSV_EXPORT_MAX));
        return;
      }
      const columns = api.getAllDisplayedColumns().map((c) => ({
        field: c.getColId() as keyof UsageRow & UsageAttribute,
        title: c.getColDef().headerName ?? c.getColId(),
      }));
      // The rows in the order on screen: the grid's sort model first, then the tie-breakers.
      const sorting = usageSortWithTieBreakers(
        sortModelToRules(sortModelOf(api.getColumnState() as ColumnState[])),
      );
      const rows = await fetchForExport(account, {
        filter,
        sorting,
        attributes: columns.map((c) => c.field),
      });
      saveTextFile(usageCsv(columns, rows), usageCsvFileName(account.customerNumber, bounds), 'text/csv');
    } catch (e) {
      showError(errorText(e));
    } finally {
      setExporting(false);
    }
  };

  const currentValues = valuesColumn
    ? ((api?.getColumnFilterModel(valuesColumn.colId) as ValuesFilterModel | null) ?? null)
    : null;
  const valuesModel = currentValues?.filterType === 'values' ? currentValues : null;
  const busy =
    view.busy === PREFS_SPINNER
      ? USAGE_PREFS_SPINNER
      : (view.busy ?? (exporting ? EXPORT_SPINNER : inFlight > 0 ? USAGE_SPINNER : null));

  return (
    <Stack gap="sm">
      <Stack gap={2}>
        <Text size="sm">
          Last received transaction: {lastReceived.data ?? (lastReceived.isPending ? '…' : '—')}{' '}
          <Anchor component="button" type="button" size="sm" onClick={refresh}>
            (refresh)
          </Anchor>
        </Text>
        <Text size="sm">Transactions may be delayed by up to 30 minutes.</Text>
      </Stack>
      <ViewGrid<UsageRow>
        view={view}
        rowModel={{ kind: 'infinite', source: rows }}
        ariaLabel="Usage transactions"
        ariaBusy={inFlight > 0}
        busy={busy}
        height={640}
        labels={SPEC_001_LABELS}
        onResetView={resetPeriod}
        toolbar={
          <Group gap="md">
            <PeriodMenu
              period={period}
              bounds={bounds}
              onPreset={(p) => void choosePreset(p)}
              onCustom={(from, to) => {
                setRefreshed(new Date());
                setPeriod({ kind: 'custom', from, to });
              }}
            />
            <Checkbox
              label="Active Sessions"
              checked={activeOnly}
              onChange={(e) => toggleActive(e.currentTarget.checked)}
            />
          </Group>
        }
        actions={
          <Button size="xs" variant="default" onClick={() => void exportCsv()} disabled={exporting}>
            Export as csv file
          </Button>
        }
        modules={gridModules}
        cacheBlockSize={PAGE_SIZE}
        maxBlocksInCache={MAX_BLOCKS}
        paginationPageSize={PAGE_SIZE}
        paginationPageSizeSelector={PAGE_SIZES}
        columnDefs={columnDefs}
        defaultColDef={defaultColDef}
        maintainColumnOrder
        // Fifteen columns: rendering them all keeps every header and cell reachable (and checkable).
        suppressColumnVirtualisation
      />
      <ValuesFilterDialog
        column={valuesColumn}
        current={valuesModel}
        loadChoices={loadChoices}
        onApply={applyValues}
        onClose={() => setValuesColumn(null)}
      />
    </Stack>
  );
}

/** Routed at /transactions inside RequireCustomer (web/src/app/router.tsx), remounted per customer. */
export default function TransactionsPage() {
  const { customer } = useCustomer();
  const account = useMemo<UsageAccount | null>(
    () =>
      customer ? { customerNumber: customer.customerNumber, customerName: customer.customerName } : null,
    [customer],
  );
  const prefs = useQuery(tablePrefsQuery());
  const cloud = useQuery({
    queryKey: ['usage-cloud-jobs', account?.customerNumber],
    enabled: account !== null,
    queryFn: () =>
      hasCloudJobs(account as UsageAccount).catch((e: unknown) => {
        // Spec 001 §8: failing to check the data for hidden columns is only logged.
        console.warn('Could not check for cloud jobs', e);
        return false;
      }),
  });
  if (!account) return null;
  const ready = (prefs.isSuccess || prefs.isError) && cloud.isSuccess;
  const pref = prefs.data ? findPref(prefs.data, account.customerNumber, TABLE) : undefined;
  return (
    <Stack data-testid="transactions-page">
      <Title order={1} size="h2">
        Usage Transactions
      </Title>
      {ready ? (
        <UsageTable
          key={account.customerNumber}
          account={account}
          initialPeriod={periodFromPref(pref)}
          initialActiveOnly={pref?.activeOnly === true}
          cloudJobs={cloud.data}
        />
      ) : (
        <Spinner text={USAGE_PREFS_SPINNER} />
      )}
    </Stack>
  );
}
