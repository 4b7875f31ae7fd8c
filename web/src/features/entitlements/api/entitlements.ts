import type { ElasticDevice } from '@lp/contract/credentials/schemas';
import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import type { StatementEmailRequest } from '@lp/contract/statements/schemas';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /api/getEntitlements: the account's elastic entitlement records (spec 001 §7). */
export const entitlementsQuery = (customerNumber: string, customerName: string) =>
  queryOptions({
    queryKey: ['entitlements', customerNumber] as const,
    queryFn: async () => {
      const answer = await api<{ status: 'SUCCESS'; data: ElasticEntitlementRecord[] }>(
        '/api/getEntitlements',
        { method: 'POST', body: { customerNumber, customername: customerName } },
      );
      return answer.data;
    },
    // Used grows with every rated session: always ask again when the page opens.
    staleTime: 0,
  });

/** POST /api/devices/elastic: the account's elastic license server, named in the statement e-mail. */
export const elasticDeviceQuery = (customerNumber: string, customerName: string) =>
  queryOptions({
    queryKey: ['elastic-device', customerNumber] as const,
    queryFn: async () => {
      const answer = await api<{ status: 'SUCCESS'; data: ElasticDevice }>('/api/devices/elastic', {
        method: 'POST',
        body: { customerNumber, customerName },
      });
      return answer.data;
    },
  });

export type StatementPeriod = 'Weekly' | 'Monthly';

const statementEmailPath: Record<StatementPeriod, string> = {
  Weekly: '/api/emailweek',
  Monthly: '/api/emailmonth',
};

/** POST /api/emailweek or /api/emailmonth: e-mails the entitlement's statement (spec 001 §7). */
export async function sendStatementEmail(period: StatementPeriod, request: StatementEmailRequest) {
  await api(statementEmailPath[period], { method: 'POST', body: request });
}
