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
    auth: 'session',
    body: getAccountsRequestSchema,
    response: getAccountsResponseSchema,
  }),
  check: defineOperation({
    operationId: 'checkAccount',
    method: 'post',
    path: '/api/accounts',
    summary: 'Single-account check (limit 2) of the activation screens',
    auth: 'session',
    body: accountsCheckRequestSchema,
    response: getAccountsResponseSchema.omit({ token: true }),
  }),
  info: defineOperation({
    operationId: 'getAccountInfo',
    method: 'get',
    path: '/api/getaccountinfo/{customerNumber}',
    summary: 'Account info flags',
    auth: 'session',
    params: customerNumberParamsSchema,
    response: accountInfoResponseSchema,
  }),
} as const;
