import { fsaApi } from '@lp/contract/fsa/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { listContracts, listProducts, orderHistory, orderLines } from './service.ts';

/** Flexible Spending Account: contracts, products, order history and the order call (decision 036). */
export function registerFsaRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    fsaApi.contracts,
  )(async ({ principal, body }) => ({
    data: await listContracts(ctx, principal, body.customerNumber),
  }));
  route(
    app,
    ctx,
    fsaApi.products,
  )(async ({ principal, body }) => ({ data: await listProducts(ctx, principal, body) }));
  route(
    app,
    ctx,
    fsaApi.history,
  )(async ({ principal, body }) => ({
    data: await orderHistory(ctx, principal, body.customerNumber),
  }));
  route(
    app,
    ctx,
    fsaApi.order,
  )(async ({ principal, body }) => {
    const { result, replayed } = await orderLines(ctx, principal, body);
    return { data: result, replayed };
  });
}
