import { credentialsApi } from '@lp/contract/credentials/api';
import { entitlementsApi } from '@lp/contract/entitlements/api';
import { statementsApi } from '@lp/contract/statements/api';
import type { StatementEmailRequest } from '@lp/contract/statements/schemas';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

/** The account's elastic entitlement records (spec 001 §7). */
export const entitlementsQuery = (customerNumber: string, customerName: string) =>
  queryOptions({
    queryKey: ['entitlements', customerNumber] as const,
    queryFn: async () =>
      (await call(entitlementsApi.elastic, { customerNumber, customername: customerName })).data,
    // Used grows with every rated session: always ask again when the page opens.
    staleTime: 0,
  });

/** The account's elastic license server, named in the statement e-mail. */
export const elasticDeviceQuery = (customerNumber: string, customerName: string) =>
  queryOptions({
    queryKey: ['elastic-device', customerNumber] as const,
    queryFn: async () => (await call(credentialsApi.elasticDevice, { customerNumber, customerName })).data,
  });

export type StatementPeriod = 'Weekly' | 'Monthly';

const statementEmail = { Weekly: statementsApi.emailWeek, Monthly: statementsApi.emailMonth } as const;

/** E-mails the entitlement's weekly or monthly statement (spec 001 §7). */
export async function sendStatementEmail(period: StatementPeriod, request: StatementEmailRequest) {
  await call(statementEmail[period], request);
}
