import type { FilterRule } from '@lp/contract/query/schemas';
import { act, renderHook } from '@testing-library/react';
import type { GridApi, IDatasource, IGetRowsParams } from 'ag-grid-community';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client.ts';
import type { DataService } from '../../lib/data-service.ts';
import { useServerRows } from './use-server-rows.ts';

type Row = { id: number };

/** A data service whose answers the test sends when it wants, in the order it wants. */
function heldService() {
  const pending: Array<{ rule: FilterRule | null | undefined; settle: (ok: boolean) => void }> = [];
  const service = {
    getBlock: (req: { filter?: FilterRule | null }) =>
      new Promise((resolve, reject) =>
        pending.push({
          rule: req.filter,
          settle: (ok) =>
            ok
              ? resolve({ rows: [{ id: 1 }], lastRow: 1, source: 'server' })
              : reject(new ApiError(0, 'data request timeout')),
        }),
      ),
    count: async () => 1,
    invalidate: () => {},
  } as unknown as DataService<Row>;
  return { service, pending };
}

/** The grid's side: what the hook told it about the row count and its overlay. */
function gridApi() {
  const told: string[] = [];
  const api = {
    setGridOption: () => {},
    paginationGoToFirstPage: () => {},
    purgeInfiniteCache: () => {},
    setRowCount: (n: number) => told.push(`count ${n}`),
    showNoRowsOverlay: () => told.push('no rows'),
  } as unknown as GridApi;
  return { api, told };
}

function blockParams(api: GridApi, outcomes: string[]): IGetRowsParams {
  return {
    api,
    startRow: 0,
    endRow: 20,
    sortModel: [],
    filterModel: null,
    context: undefined,
    successCallback: (_rows, lastRow) => outcomes.push(`rows, last ${lastRow}`),
    failCallback: () => outcomes.push('failed'),
  };
}

describe('useServerRows', () => {
  it("lets a block asked for before the table's criteria changed neither zero the count nor show its failure", async () => {
    const { service, pending } = heldService();
    const { api, told } = gridApi();
    const failures: string[] = [];
    const rule = (period: string): FilterRule => ({
      condition: 'ALL',
      criteria: [{ name: 'period', method: 'EQUALS', value: period }],
    });
    let period = '1 Day';
    const { result, rerender } = renderHook(() =>
      useServerRows(api, true, {
        dataService: service,
        ruleFor: () => rule(period),
        criteriaKey: period,
        onFailure: (m) => failures.push(m),
      }),
    );
    const datasource: IDatasource = result.current.datasource;
    const outcomes: string[] = [];
    datasource.getRows(blockParams(api, outcomes));

    // The period changes while the first block is out: the table fetches again, and that answer comes first.
    period = 'Max';
    rerender();
    datasource.getRows(blockParams(api, outcomes));
    expect(pending.map((p) => p.rule)).toEqual([rule('1 Day'), rule('Max')]);
    await act(async () => pending[1].settle(true));
    await act(async () => pending[0].settle(false));

    expect(outcomes).toEqual(['rows, last 1', 'failed']);
    expect(told).toEqual([]);
    expect(failures).toEqual([]);
    expect(result.current.failed).toBeNull();

    // A block of the criteria in force that fails is told, and the pager shows no rows.
    datasource.getRows(blockParams(api, outcomes));
    await act(async () => pending[2].settle(false));
    expect(failures).toEqual(['data request timeout']);
    expect(told).toEqual(['count 0', 'no rows']);
  });
});
