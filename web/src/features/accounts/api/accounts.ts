import type { AccountRow, Customer } from '@lp/contract/accounts/schemas';
import type { FilterRule } from '@lp/contract/query/schemas';
import { api } from '../../../lib/api-client.ts';

/** POST /api/getaccounts: the accounts the user may reach, ordered by account number. */
export async function getAccounts(request: {
  filter?: FilterRule;
  offset?: number;
  limit?: number;
}): Promise<AccountRow[]> {
  const answer = await api<{ status: 'SUCCESS'; data: AccountRow[]; token: string | null }>(
    '/api/getaccounts',
    {
      method: 'POST',
      body: request,
    },
  );
  return answer.data;
}

/** POST /api/getaccounts/count. */
export async function countAccounts(filter?: FilterRule): Promise<number> {
  const answer = await api<{ status: 'SUCCESS'; data: number }>('/api/getaccounts/count', {
    method: 'POST',
    body: { filter },
  });
  return answer.data;
}

/** GET /api/getaccountinfo/{customerNumber}: the customer with its info flags. */
export async function getAccountInfo(customerNumber: string): Promise<Customer> {
  const answer = await api<{ status: 'SUCCESS'; data: Customer }>(
    `/api/getaccountinfo/${encodeURIComponent(customerNumber)}`,
  );
  return answer.data;
}
