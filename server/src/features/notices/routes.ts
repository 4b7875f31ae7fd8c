import { noticesApi } from '@lp/contract/notices/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { listNotices, setNoticeChoices, setNoticeTypes } from './service.ts';

export function registerNoticeRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    noticesApi.list,
  )(async ({ principal, body }) => ({
    data: await listNotices(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    noticesApi.setChoices,
  )(async ({ principal, body }) => {
    await setNoticeChoices(ctx, principal, body);
  });

  route(
    app,
    ctx,
    noticesApi.setTypes,
  )(async ({ principal, body }) => {
    await setNoticeTypes(ctx, principal, body);
  });
}
