import { entitlementsApi } from '@lp/contract/entitlements/api';
import { leasesApi, leasesQuery } from '@lp/contract/leases/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { registerQueryEndpoints, route } from '../../platform/route.ts';
import {
  countLeases,
  distinctLeaseValues,
  fulfillmentCounts,
  getEntitlements,
  listLeases,
} from './service.ts';

export function registerEntitlementRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    entitlementsApi.elastic,
  )(async ({ principal, body }) => ({
    data: await getEntitlements(ctx, principal, body.customerNumber),
  }));

  registerQueryEndpoints(app, ctx, leasesQuery, {
    page: (principal, body) => listLeases(ctx, principal, 'all', body),
    count: (principal, { customerNumber, filter }) =>
      countLeases(ctx, principal, 'all', customerNumber, filter),
    distinct: (principal, body) => distinctLeaseValues(ctx, principal, body),
  });
  for (const split of ['active', 'inactive'] as const) {
    route(
      app,
      ctx,
      leasesApi[split],
    )(async ({ principal, body }) => {
      const page = await listLeases(ctx, principal, split, body);
      return { data: page.rows, token: page.token };
    });
    route(
      app,
      ctx,
      leasesApi[`${split}Count`],
    )(async ({ principal, body }) => ({
      data: await countLeases(ctx, principal, split, body.customerNumber, body.filter),
    }));
  }
  route(
    app,
    ctx,
    leasesApi.fulfillmentCount,
  )(async ({ principal, body }) => ({
    data: await fulfillmentCounts(ctx, principal, body.customerNumber, body.activationId),
  }));
}
