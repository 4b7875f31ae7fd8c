import { prefsApi } from '@lp/contract/prefs/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { getPrefs, savePrefs } from './service.ts';

export function registerPrefsRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    prefsApi.list,
  )(async ({ principal }) => ({
    data: await getPrefs(ctx, principal),
  }));

  route(
    app,
    ctx,
    prefsApi.save,
  )(async ({ principal, body }) => {
    await savePrefs(ctx, principal, body.tables);
  });
}
