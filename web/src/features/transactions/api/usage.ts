import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import {
  CSV_EXPORT_MAX,
  type FetchUsageRequest,
  type UsageAttribute,
  type UsageRow,
} from '@lp/contract/transactions/schemas';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { createDataService, type DataService } from '../../../lib/data-service.ts';

const USAGE_BASE = '/api/fetchUsage';

export interface UsageAccount {
  customerNumber: string;
  customerName: string;
}

/** Every usage call carries the account (spec 001 §7); the data service sends only filter/sort/paging. */
function usageClient(account: UsageAccount, base: ApiClient = api): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) =>
    base<T>(path, { ...options, body: { ...(options.body as object), ...account } });
}

/** POST /api/fetchUsage (+ /count, /distinct) for one account, as the grid's data source. */
export function createUsageDataService(account: UsageAccount, client?: ApiClient): DataService<UsageRow> {
  return createDataService<UsageRow>({ base: USAGE_BASE, client: usageClient(account, client) });
}

/** GET /api/lastupdatedon?accountId=: the last received transaction, 'YYYY-MM-DD HH:mm:ss' or null. */
export async function getLastReceived(customerNumber: string): Promise<string | null> {
  const answer = await api<{ lastUpdatedOn: string | null }>(
    `/api/lastupdatedon?accountId=${encodeURIComponent(customerNumber)}`,
  );
  return answer.lastUpdatedOn;
}

/** Whether any session of the account carries a cloud job id (the Cloud Job Id column is hidden otherwise). */
export async function hasCloudJobs(account: UsageAccount): Promise<boolean> {
  const body: FetchUsageRequest = {
    ...account,
    filter: { condition: 'ALL', criteria: [{ name: 'CloudJobId', method: 'ISDEFINED' }] },
    attributes: ['CloudJobId'],
    limit: 1,
  };
  const answer = await api<{ data: UsageRow[] }>(USAGE_BASE, { method: 'POST', body });
  return answer.data.length > 0;
}

/** Spec 001 §7: the CSV export fetches up to 30000 rows in one call. */
export async function fetchForExport(
  account: UsageAccount,
  request: { filter: FilterRule; sorting: SortRule[]; attributes: UsageAttribute[] },
): Promise<UsageRow[]> {
  const body: FetchUsageRequest = { ...account, ...request, limit: CSV_EXPORT_MAX, offset: 0 };
  const answer = await api<{ data: UsageRow[] }>(USAGE_BASE, { method: 'POST', body });
  return answer.data;
}
