import type { TableName } from '@lp/contract/prefs/schemas';
import type { Criterion } from '@lp/contract/query/schemas';
import { Alert, Group, Stack } from '@mantine/core';
import type { ColDef, GridApi, IDatasource, IGetRowsParams } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DataService } from '../../lib/data-service.ts';
import type { Row } from '../../lib/filter-rules.ts';
import { useCountPerFilter } from '../../lib/use-count-per-filter.ts';
import { Spinner } from '../spinner.tsx';
import { gridTheme } from './ag-grid-setup.ts';
import { filterModelToRule, sortModelToRules } from './grid-filter.ts';
import { SavedViewButtons } from './saved-view-buttons.tsx';
import { useSavedView } from './use-saved-view.ts';
import type { ExtraViewConditions, GridFilterModel } from './view-rules.ts';

export interface SavedViewGridProps<T extends Row> {
  customerNumber: string;
  tableName: TableName;
  columnDefs: ColDef<T>[];
  dataService: DataService<T>;
  /** Table criteria ANDed with the column filters (e.g. a date range). */
  extraCriteria?: Criterion[];
  /** The table's own Clear filters / Reset view conditions. */
  extraConditions?: ExtraViewConditions;
  /** Column id to server field name when they differ. */
  fieldOf?: (colId: string) => string;
  /** Also clears the table's own filter state (e.g. the date range). */
  onClearFilters?: () => void;
  onResetView?: () => void;
  toolbar?: React.ReactNode;
  height?: number | string;
  blockSize?: number;
  /** Rows per page of the pager (spec 000 §2.7: tables are paginated). */
  pageSize?: number;
  ariaLabel: string;
}

const PAGE_SIZE = 20;
const PAGE_SIZES = [20, 50, 100];

/**
 * The one server-side table of the product: AG Grid's infinite row model fed by the data service,
 * with the user's saved view for (customer, table) and a pager with the row count. Filters accept one
 * condition (spec 000 §2.7).
 */
export function SavedViewGrid<T extends Row>(props: SavedViewGridProps<T>) {
  const { dataService, extraCriteria, fieldOf } = props;
  const [loadFailed, setLoadFailed] = useState<string | null>(null);
  const criteriaRef = useRef(extraCriteria);
  criteriaRef.current = extraCriteria;
  // The pager's row count ("1 to 20 of 53").
  const { countFor } = useCountPerFilter(dataService);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params: IGetRowsParams) => {
        // A refused filter or a failed first block shows no rows and a count of 0 under the message above the
        // table; AG Grid's own failure state left an empty row and '1 to ? of more' (issue 21).
        const failed = (e: unknown) => {
          setLoadFailed(e instanceof Error ? e.message : String(e));
          if (params.startRow === 0) params.successCallback([], 0);
          else params.failCallback();
        };
        let rule: ReturnType<typeof filterModelToRule>;
        try {
          rule = filterModelToRule(params.filterModel as GridFilterModel, {
            fieldOf,
            extra: criteriaRef.current,
          });
        } catch (e) {
          failed(e);
          return;
        }
        Promise.all([
          dataService.getBlock({
            filter: rule,
            sorting: sortModelToRules(params.sortModel, fieldOf),
            startRow: params.startRow,
            endRow: params.endRow,
          }),
          countFor(rule),
        ])
          .then(([block, total]) => {
            setLoadFailed(null);
            params.successCallback(block.rows, block.lastRow ?? total);
          })
          .catch(failed);
      },
    }),
    [dataService, fieldOf, countFor],
  );

  const onViewApplied = useCallback(
    (api: GridApi) => api.setGridOption('datasource', datasource),
    [datasource],
  );
  const view = useSavedView({
    customerNumber: props.customerNumber,
    tableName: props.tableName,
    extra: props.extraConditions,
    onViewApplied,
  });

  // A change of the table's own criteria (e.g. its date range) refetches from the first row.
  const criteriaKey = JSON.stringify(extraCriteria ?? []);
  const lastCriteria = useRef(criteriaKey);
  useEffect(() => {
    if (criteriaKey === lastCriteria.current) return;
    lastCriteria.current = criteriaKey;
    if (view.api && view.applied) {
      view.api.paginationGoToFirstPage();
      view.api.purgeInfiniteCache();
    }
  }, [criteriaKey, view.api, view.applied]);

  const defaultColDef = useMemo<ColDef<T>>(
    () => ({
      sortable: true,
      resizable: true,
      filter: true,
      filterParams: { maxNumConditions: 1 },
      flex: 1,
      minWidth: 100,
    }),
    [],
  );

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Group gap="xs">{props.toolbar}</Group>
        <Group gap="xs">
          <SavedViewButtons
            view={view}
            onClearFilters={props.onClearFilters}
            onResetView={props.onResetView}
          />
        </Group>
      </Group>
      {view.loadError ? (
        <Alert color="red" title="Could not load the saved view">
          {view.loadError.message}
        </Alert>
      ) : null}
      {loadFailed ? <Alert color="red">{loadFailed}</Alert> : null}
      <section aria-label={props.ariaLabel} style={{ position: 'relative', height: props.height ?? 520 }}>
        {view.busy ? <Spinner text={view.busy} overlay /> : null}
        <AgGridReact<T>
          theme={gridTheme}
          rowModelType="infinite"
          // The columns share the width left of the scrollbar from the start: AG Grid does not re-flex them when
          // the bar appears with the first rows, and it then covered the last column (issue 21).
          alwaysShowVerticalScroll
          cacheBlockSize={props.blockSize ?? 100}
          pagination
          paginationPageSize={props.pageSize ?? PAGE_SIZE}
          paginationPageSizeSelector={PAGE_SIZES}
          columnDefs={props.columnDefs}
          defaultColDef={defaultColDef}
          {...view.gridEvents}
        />
      </section>
    </Stack>
  );
}
