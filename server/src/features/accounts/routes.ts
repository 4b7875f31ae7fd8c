import {
  accountsCheckRequestSchema,
  accountsCountRequestSchema,
  accountsDistinctRequestSchema,
  customerNumberParamsSchema,
  getAccountsRequestSchema,
} from '@lp/contract/accounts/schemas';
import { lastUpdatedQuerySchema } from '@lp/contract/platform/schemas';
import { formatDateTime } from '@lp/domain/dates';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { authorizeAccount } from './policy.ts';
import { countAccounts, distinctAccounts, lastUpdatedOn, listAccounts } from './service.ts';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const list = async (body: unknown, principal: ReturnType<typeof requirePrincipal>) => {
    const request = parseInput(getAccountsRequestSchema, body);
    const page = await listAccounts(ctx, principal, request);
    return { status: 'SUCCESS' as const, data: page.rows, token: page.token };
  };

  app.post('/api/getaccounts', async (request) => list(request.body, requirePrincipal(request)));
  app.post('/api/getCustomerAccounts', async (request) => list(request.body, requirePrincipal(request)));

  app.post('/api/getaccounts/count', async (request) => {
    const principal = requirePrincipal(request);
    const { filter } = parseInput(accountsCountRequestSchema, request.body);
    return { status: 'SUCCESS', data: await countAccounts(ctx, principal, filter) };
  });

  app.post('/api/getaccounts/distinct', async (request) => {
    const principal = requirePrincipal(request);
    const { filter, key } = parseInput(accountsDistinctRequestSchema, request.body);
    return { status: 'SUCCESS', data: await distinctAccounts(ctx, principal, filter, key) };
  });

  // Spec 002 §7: the single-account check (limit 2) of the activations screens.
  app.post('/api/accounts', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(accountsCheckRequestSchema, request.body);
    const filter = body.customerNumber
      ? {
          condition: 'ALL' as const,
          criteria: [{ name: 'AccountID', method: 'EQUALS' as const, value: body.customerNumber }],
        }
      : undefined;
    const page = await listAccounts(ctx, principal, {
      filter,
      limit: body.limit ?? 2,
      customerEmail: body.customerEmail,
    });
    return { status: 'SUCCESS', data: page.rows };
  });

  app.get('/api/getaccountinfo/:customerNumber', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber } = parseInput(customerNumberParamsSchema, request.params);
    const access = await authorizeAccount(ctx, principal, customerNumber, 'info');
    return { status: 'SUCCESS', data: access.customer };
  });

  app.get('/api/lastupdatedon', async (request) => {
    const principal = requirePrincipal(request);
    const { accountId } = parseInput(lastUpdatedQuerySchema, request.query);
    if (accountId) await authorizeAccount(ctx, principal, accountId, 'read');
    const last = await lastUpdatedOn(ctx, principal, accountId);
    return { status: 'SUCCESS', lastUpdatedOn: last ? formatDateTime(last) : null };
  });
}
