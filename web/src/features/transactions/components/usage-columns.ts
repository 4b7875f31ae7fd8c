import type { UsageRow } from '@lp/contract/transactions/schemas';
import type { ColDef } from 'ag-grid-community';
import { ACTIVE_DISABLED_FILTERS } from '../usage-filter.ts';
import { DateRangeFilter, TextValuesFilter, type TextValuesFilterParams } from './column-filters.tsx';

/** Spec 001 §2.3: Count, Hours, Cost and Currency filter by Equals only, one condition. */
const numberEquals = {
  filter: 'agNumberColumnFilter',
  filterParams: { filterOptions: ['equals'], maxNumConditions: 1 },
  type: 'rightAligned',
} as const;

/**
 * The columns of spec 001 §2.3 (title, field) in order. Column ids are the field names, which are the
 * server's filter and sort names. `activeOnly` turns the Hours and End Time filters off; the Cloud Job Id
 * column is hidden unless the account's data has cloud jobs.
 */
export function usageColumnDefs(opts: {
  activeOnly: boolean;
  hasCloudJobs: boolean;
  openValues: TextValuesFilterParams['openValues'];
}): ColDef<UsageRow>[] {
  const text = { filter: TextValuesFilter, filterParams: { openValues: opts.openValues } };
  const col = (field: keyof UsageRow & string, headerName: string, extra: ColDef<UsageRow> = {}) => {
    const def: ColDef<UsageRow> = { colId: field, field, headerName, ...extra };
    return opts.activeOnly && ACTIVE_DISABLED_FILTERS.has(field) ? { ...def, filter: false } : def;
  };
  return [
    // initialSort: applied when the grid is created only, never again over the user's sort.
    col('StartTime', 'Start Time', { filter: DateRangeFilter, initialSort: 'asc', width: 170 }),
    col('EndTime', 'End Time', { filter: DateRangeFilter, width: 170 }),
    // Wide enough for the longest catalogue names ('Structures Mechanical Enterprise') on a 1366 px screen.
    col('Product', 'Product', { ...text, width: 260 }),
    col('ProductCount', 'Count', { ...numberEquals, width: 100 }),
    col('Hours', 'Hours', { ...numberEquals, width: 100 }),
    col('Charge', 'Cost', { ...numberEquals, width: 100 }),
    col('Currency', 'Currency', {
      filter: 'agTextColumnFilter',
      filterParams: { filterOptions: ['equals'], maxNumConditions: 1 },
      width: 120,
    }),
    col('User', 'Username', text),
    col('Host', 'Hostname', text),
    col('Project', 'Project', text),
    col('DeviceID', 'Session ID', { ...text, width: 170 }),
    col('SessionStatus', 'Session Status', text),
    col('REFERER_IP_ADDRESS', 'External IP', text),
    col('productVersion', 'Version', text),
    col('CloudJobId', 'Cloud Job Id', { ...text, hide: !opts.hasCloudJobs }),
  ];
}
