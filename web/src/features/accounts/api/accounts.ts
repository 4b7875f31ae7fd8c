import { accountsApi } from '@lp/contract/accounts/api';
import type { AccountRow, Customer } from '@lp/contract/accounts/schemas';
import type { FilterRule } from '@lp/contract/query/schemas';
import { call } from '../../../lib/call.ts';

/** The accounts the user may reach, ordered by account number. */
export async function getAccounts(request: {
  filter?: FilterRule;
  offset?: number;
  limit?: number;
}): Promise<AccountRow[]> {
  return (await call(accountsApi.page, request)).data;
}

export async function countAccounts(filter?: FilterRule): Promise<number> {
  return (await call(accountsApi.count, { filter })).data;
}

/** The customer with its info flags. */
export async function getAccountInfo(customerNumber: string): Promise<Customer> {
  return (await call(accountsApi.info, undefined, { params: { customerNumber } })).data;
}
