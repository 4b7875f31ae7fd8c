import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import type { GridApi, IDatasource, IGetRowsParams } from 'ag-grid-community';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorText } from '../../lib/api-client.ts';
import type { DataService } from '../../lib/data-service.ts';
import type { Row } from '../../lib/filter-rules.ts';
import { useCountPerFilter } from '../../lib/use-count-per-filter.ts';
import { filterModelToRule, sortModelToRules } from './grid-filter.ts';
import type { GridFilterModel } from './view-rules.ts';

export interface ServerRowsOptions<T extends Row> {
  dataService: DataService<T>;
  /**
   * The request's filter for a filter model of the grid (it may add the table's own criteria, e.g. a date range);
   * read at each fetch, so it may change between renders. Default: the column filters as they are.
   */
  ruleFor?: (model: GridFilterModel | null) => FilterRule | undefined;
  /** The request's sort for the grid's sort rules (e.g. with tie-breakers). Default: the grid's. */
  sortFor?: (rules: SortRule[]) => SortRule[];
  /** The table's own criteria as a key: when it changes, the rows are fetched again from the first one. */
  criteriaKey?: string;
  /**
   * Where a failed fetch is told. Default: the message above the table and no rows (issue 21); with this, the
   * message goes here and the grid shows its no-rows overlay (spec 001 §8).
   */
  onFailure?: (message: string) => void;
}

export interface ServerRows {
  datasource: IDatasource;
  /** Blocks being fetched. */
  loading: boolean;
  /** The last fetch's failure, shown above the table (null once a fetch succeeds). */
  failed: string | null;
  /** The first block of the filter in force came back empty (the table's empty text). */
  empty: boolean;
  /** Forgets the cached rows and counts and fetches again from the first row. */
  reload: () => void;
}

/**
 * AG Grid's infinite row model over a data service (spec 000 §4.8): each block asks for its rows and, once per
 * filter, the row count for the pager. The rows are fetched once the saved view is on the grid (`applied`), so
 * the first request already carries its filters and sort.
 */
export function useServerRows<T extends Row>(
  api: GridApi | null,
  applied: boolean,
  options: ServerRowsOptions<T>,
): ServerRows {
  const { dataService } = options;
  const latest = useRef(options);
  latest.current = options;
  const [loading, setLoading] = useState(0);
  const [failed, setFailed] = useState<string | null>(null);
  const [empty, setEmpty] = useState(false);
  const { countFor, forgetCounts } = useCountPerFilter(dataService);
  const apiRef = useRef(api);
  apiRef.current = api;
  // Bumped by reload: the answer of a fetch made before it speaks for rows the grid no longer shows, so it must not
  // set the pager's count, the failure message or the empty text (AG Grid itself drops the purged block).
  const generation = useRef(0);

  const datasource = useMemo<IDatasource>(
    () => ({
      getRows: (params: IGetRowsParams) => {
        const { ruleFor, sortFor, onFailure } = latest.current;
        const fetched = generation.current;
        const current = () => fetched === generation.current;
        const fail = (e: unknown) => {
          if (!current()) {
            params.failCallback();
            return;
          }
          const message = errorText(e);
          if (onFailure) {
            onFailure(message);
            params.failCallback();
            apiRef.current?.setRowCount(0, true);
            apiRef.current?.showNoRowsOverlay();
            return;
          }
          // No rows and a count of 0 under the message: AG Grid's own failure state left an empty row and
          // '1 to ? of more' (issue 21).
          setFailed(message);
          if (params.startRow === 0) params.successCallback([], 0);
          else params.failCallback();
        };
        let rule: FilterRule | undefined;
        try {
          const model = params.filterModel as GridFilterModel | null;
          rule = ruleFor ? ruleFor(model) : filterModelToRule(model);
        } catch (e) {
          fail(e);
          return;
        }
        const sorting = sortModelToRules(params.sortModel);
        setLoading((n) => n + 1);
        Promise.all([
          dataService.getBlock({
            filter: rule,
            sorting: sortFor ? sortFor(sorting) : sorting,
            startRow: params.startRow,
            endRow: params.endRow,
          }),
          countFor(rule),
        ])
          .then(([block, total]) => {
            if (!current()) {
              params.failCallback();
              return;
            }
            setFailed(null);
            if (params.startRow === 0) setEmpty(block.rows.length === 0);
            params.successCallback(block.rows, block.lastRow ?? total);
          })
          .catch(fail)
          .finally(() => setLoading((n) => n - 1));
      },
    }),
    [dataService, countFor],
  );

  useEffect(() => {
    if (api && applied) api.setGridOption('datasource', datasource);
  }, [api, applied, datasource]);

  const reload = useCallback(() => {
    if (!api) return;
    generation.current++;
    forgetCounts();
    dataService.invalidate();
    api.paginationGoToFirstPage();
    api.purgeInfiniteCache();
  }, [api, dataService, forgetCounts]);

  const criteriaKey = options.criteriaKey ?? '';
  const lastCriteria = useRef(criteriaKey);
  useEffect(() => {
    if (criteriaKey === lastCriteria.current) return;
    lastCriteria.current = criteriaKey;
    reload();
  }, [criteriaKey, reload]);

  return { datasource, loading: loading > 0, failed, empty, reload };
}
