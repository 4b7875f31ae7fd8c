import { savePrefsRequestSchema } from '@lp/contract/prefs/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { getPrefs, savePrefs } from './service.ts';

export function registerPrefsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/featureflag/pref', async (request) => {
    const principal = requirePrincipal(request);
    return { status: 'SUCCESS', data: await getPrefs(ctx, principal) };
  });

  app.post('/api/featureflag/pref', async (request) => {
    const principal = requirePrincipal(request);
    const { tables } = parseInput(savePrefsRequestSchema, request.body);
    await savePrefs(ctx, principal, tables);
    return { status: 'SUCCESS' };
  });
}
