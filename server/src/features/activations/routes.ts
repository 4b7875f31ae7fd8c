import { activationsApi } from '@lp/contract/activations/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { activateSeats } from './commands/activate-seats.ts';
import { returnSeats } from './commands/return-seats.ts';
import { hostActivations, hostEntitlements, hostsHistory } from './service.ts';

/** Spec 002 §7: fulfillments of entitlements on hosts and their history. */
export function registerActivationRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    activationsApi.allEntitlements,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await hostActivations(ctx, principal, body),
  }));
  route(
    app,
    ctx,
    activationsApi.hostEntitlements,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await hostEntitlements(ctx, principal, body),
  }));
  route(
    app,
    ctx,
    activationsApi.create,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await activateSeats(ctx, principal, body),
  }));
  route(
    app,
    ctx,
    activationsApi.return,
  )(async ({ principal, body }) => ({
    status: 'SUCCESS',
    data: await returnSeats(ctx, principal, body),
  }));
  for (const operation of [activationsApi.history, activationsApi.exportHistory]) {
    route(
      app,
      ctx,
      operation,
    )(async ({ principal, body }) => ({ status: 'SUCCESS', data: await hostsHistory(ctx, principal, body) }));
  }
}
