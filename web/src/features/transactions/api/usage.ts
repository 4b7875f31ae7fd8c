import { platformApi } from '@lp/contract/platform/api';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { transactionsApi } from '@lp/contract/transactions/api';
import {
  CSV_EXPORT_MAX,
  type FetchUsageRequest,
  type UsageAttribute,
  type UsageRow,
  usageColumnKinds,
} from '@lp/contract/transactions/schemas';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import { createDataService, type DataService } from '../../../lib/data-service.ts';

export interface UsageAccount {
  customerNumber: string;
  customerName: string;
}

/** Every usage call carries the account (spec 001 §7); the data service sends only filter/sort/paging. */
function usageClient(account: UsageAccount, base: ApiClient = api): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) =>
    base<T>(path, { ...options, body: { ...(options.body as object), ...account } });
}

/** The usage query (page, count, distinct) for one account, as the grid's data source. */
export function createUsageDataService(account: UsageAccount, client?: ApiClient): DataService<UsageRow> {
  return createDataService<UsageRow>({
    base: transactionsApi.page.path,
    client: usageClient(account, client),
    columns: usageColumnKinds,
  });
}

/** The last received transaction, 'YYYY-MM-DD HH:mm:ss' or null. */
export async function getLastReceived(customerNumber: string): Promise<string | null> {
  return (await call(platformApi.lastUpdatedOn, undefined, { query: { accountId: customerNumber } }))
    .lastUpdatedOn;
}

/** Whether any session of the account carries a cloud job id (the Cloud Job Id column is hidden otherwise). */
export async function hasCloudJobs(account: UsageAccount): Promise<boolean> {
  const body: FetchUsageRequest = {
    ...account,
    filter: { condition: 'ALL', criteria: [{ name: 'CloudJobId', method: 'ISDEFINED' }] },
    attributes: ['CloudJobId'],
    limit: 1,
  };
  return (await call(transactionsApi.page, body)).data.length > 0;
}

/** Spec 001 §7: the CSV export fetches up to 30000 rows in one call. */
export async function fetchForExport(
  account: UsageAccount,
  request: { filter: FilterRule; sorting: SortRule[]; attributes: UsageAttribute[] },
): Promise<UsageRow[]> {
  const body: FetchUsageRequest = { ...account, ...request, limit: CSV_EXPORT_MAX, offset: 0 };
  return (await call(transactionsApi.page, body)).data;
}
