import { auditApi } from '@lp/contract/audit/api';
import { AUDIT_EXPORT_MAX, type AuditRow, auditColumnKinds } from '@lp/contract/audit/schemas';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { queryOptions } from '@tanstack/react-query';
import { type ApiClient, api, type RequestOptions } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';
import { createDataService, type DataService } from '../../../lib/data-service.ts';

/** The account whose log is read, or null for every account (vendor staff). */
export type AuditScope = string | null;

/** Every call names the account (none for the cross-account view); the data service sends filter/sort/paging. */
function scopedClient(customerNumber: AuditScope, base: ApiClient = api): ApiClient {
  return <T>(path: string, options: RequestOptions = {}) =>
    base<T>(path, {
      ...options,
      body: { ...(options.body as object), ...(customerNumber ? { customerNumber } : {}) },
    });
}

/** The audit query (page, count, distinct) as the grid's data source. */
export function createAuditDataService(
  customerNumber: AuditScope,
  client?: ApiClient,
): DataService<AuditRow> {
  return createDataService<AuditRow>({
    base: auditApi.page.path,
    client: scopedClient(customerNumber, client),
    columns: auditColumnKinds,
  });
}

/** The filtered rows in the grid's order for the CSV export (at most AUDIT_EXPORT_MAX; the caller counts first). */
export async function fetchAuditForExport(
  customerNumber: AuditScope,
  request: { filter?: FilterRule; sorting: SortRule[] },
): Promise<AuditRow[]> {
  const body = {
    ...request,
    ...(customerNumber ? { customerNumber } : {}),
    limit: AUDIT_EXPORT_MAX,
    offset: 0,
  };
  return (await call(auditApi.page, body)).data;
}

/** The last signed checkpoint and the last check's verdict (decision 044), for the scope's readers. */
export const checkpointStatusQuery = (customerNumber: AuditScope) =>
  queryOptions({
    queryKey: ['audit-checkpoint-status', customerNumber ?? '*'] as const,
    queryFn: async () =>
      (await call(auditApi.checkpointStatus, customerNumber ? { customerNumber } : {})).data,
  });
