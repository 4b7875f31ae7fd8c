import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import {
  WEB_TRANSACTIONS_EXPORT_MAX,
  type WebTransactionRow,
  webTransactionColumnKinds,
} from '@lp/contract/web-sessions/schemas';
import { queryOptions } from '@tanstack/react-query';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import { createDataService, type DataService } from '../../../lib/data-service.ts';

/** Every call names the account; the data service sends filter, sort and paging. */
function accountClient(customerNumber: string, base: ApiClient = api): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) =>
    base<T>(path, { ...options, body: { ...(options.body as object), customerNumber } });
}

/** The account's web transactions (page, count, distinct) as the grid's data source. */
export function createWebTransactionsDataService(
  customerNumber: string,
  client?: ApiClient,
): DataService<WebTransactionRow> {
  return createDataService<WebTransactionRow>({
    base: webSessionsApi.page.path,
    client: accountClient(customerNumber, client),
    columns: webTransactionColumnKinds,
  });
}

/** The filtered rows in the grid's order for the CSV export (the caller counts first). */
export async function fetchWebTransactionsForExport(
  customerNumber: string,
  request: { filter?: FilterRule; sorting: SortRule[] },
): Promise<WebTransactionRow[]> {
  const body = { ...request, customerNumber, limit: WEB_TRANSACTIONS_EXPORT_MAX, offset: 0 };
  return (await call(webSessionsApi.page, body)).data;
}

/** "Data as of": the account's latest session start or end. */
export const webTransactionsAsOfQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: ['web-transactions-as-of', customerNumber] as const,
    queryFn: async () => (await call(webSessionsApi.transactionsAsOf, { customerNumber })).data.asOf,
  });
