import { defineOperation } from '../common/operation.ts';
import { queryOperations } from '../query/operations.ts';
import {
  accountInfoResponseSchema,
  accountsCheckRequestSchema,
  accountsCountRequestSchema,
  accountsDistinctRequestSchema,
  customerNumberParamsSchema,
  getAccountsRequestSchema,
  getAccountsResponseSchema,
} from './schemas.ts';

export const accountsQuery = queryOperations({
  name: 'Accounts',
  path: '/api/getaccounts',
  summary: 'Accounts the user may select',
  description:
    'The accounts the signed-in user may select: vendor staff see every account, customer users their own.',
  page: { body: getAccountsRequestSchema, response: getAccountsResponseSchema },
  count: { body: accountsCountRequestSchema },
  distinct: { body: accountsDistinctRequestSchema },
});

export const accountsApi = {
  ...accountsQuery,
  customerAccounts: defineOperation({
    operationId: 'listCustomerAccounts',
    method: 'post',
    path: '/api/getCustomerAccounts',
    summary: 'Accounts, optionally of one customer e-mail',
    description:
      'Accounts the user may see, optionally those of one customer e-mail (vendor staff looking a customer up); capped at the account list limit.',
    auth: 'session',
    effect: 'read',
    body: getAccountsRequestSchema,
    response: getAccountsResponseSchema,
  }),
  check: defineOperation({
    operationId: 'checkAccount',
    method: 'post',
    path: '/api/accounts',
    summary: 'Single-account check (limit 2) of the activation screens',
    description:
      'Looks one account up by number or name for the activation screens: at most 2 rows are read, so a caller can tell one match from several.',
    auth: 'session',
    effect: 'read',
    body: accountsCheckRequestSchema,
    response: getAccountsResponseSchema.omit({ token: true }),
  }),
  info: defineOperation({
    operationId: 'getAccountInfo',
    method: 'get',
    path: '/api/getaccountinfo/{customerNumber}',
    summary: 'Account info flags',
    description:
      'Flags of one account the page needs: export control, disabled, which entitlement kinds it has (elastic, leases, FSA) and what the user may do on it.',
    auth: 'session',
    effect: 'read',
    statuses: {
      403: 'The user may not see the account (an unknown account answers alike).',
    },
    params: customerNumberParamsSchema,
    response: accountInfoResponseSchema,
  }),
} as const;
