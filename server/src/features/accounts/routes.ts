import { accountsApi, accountsQuery } from '@lp/contract/accounts/api';
import { platformApi } from '@lp/contract/platform/api';
import { formatDateTime } from '@lp/domain/dates';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
import { authorizeAccount } from './policy.ts';
import { countAccounts, distinctAccounts, lastUpdatedOn, listAccounts } from './service.ts';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerQueryEndpoints(app, ctx, accountsQuery, {
    page: (principal, body) => listAccounts(ctx, principal, body),
    count: (principal, { filter }) => countAccounts(ctx, principal, filter),
    distinct: (principal, { filter, key }) => distinctAccounts(ctx, principal, filter, key),
  });

  route(
    app,
    ctx,
    accountsApi.customerAccounts,
  )(async ({ principal, body }) => {
    const page = await listAccounts(ctx, principal, body);
    return { data: page.rows, token: page.token };
  });

  // Spec 002 §7: the single-account check (limit 2) of the activations screens.
  route(
    app,
    ctx,
    accountsApi.check,
  )(async ({ principal, body }) => {
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
    return { data: page.rows };
  });

  route(
    app,
    ctx,
    accountsApi.info,
  )(async ({ principal, params }) => {
    const access = await authorizeAccount(ctx, principal, params.customerNumber, 'info');
    return { data: access.customer };
  });

  route(
    app,
    ctx,
    platformApi.lastUpdatedOn,
  )(async ({ principal, query }) => {
    if (query.accountId) await authorizeAccount(ctx, principal, query.accountId, 'read');
    const last = await lastUpdatedOn(ctx, principal, query.accountId);
    return { lastUpdatedOn: last ? formatDateTime(last) : null };
  });
}
