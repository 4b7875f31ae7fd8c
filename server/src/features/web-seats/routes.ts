import { webSeatsApi } from '@lp/contract/web-seats/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import {
  assignWebSeats,
  listWebPools,
  saveWebGroupTerms,
  saveWebPoolPolicy,
  setWebGroupPools,
  transferWebSeat,
  unassignWebSeats,
} from './service.ts';

export function registerWebSeatRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    webSeatsApi.pools,
  )(async ({ principal, body }) => ({
    data: await listWebPools(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    webSeatsApi.savePolicy,
  )(async ({ principal, body }) => ({
    data: await saveWebPoolPolicy(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    webSeatsApi.assign,
  )(async ({ principal, body }) => ({
    data: await assignWebSeats(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    webSeatsApi.unassign,
  )(async ({ principal, body }) => ({
    data: await unassignWebSeats(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    webSeatsApi.transfer,
  )(async ({ principal, body }) => ({
    data: await transferWebSeat(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    webSeatsApi.setGroupPools,
  )(async ({ principal, body }) => ({
    data: await setWebGroupPools(ctx, principal, body),
  }));

  route(
    app,
    ctx,
    webSeatsApi.saveGroupTerms,
  )(async ({ principal, body }) => ({
    data: await saveWebGroupTerms(ctx, principal, body),
  }));
}
