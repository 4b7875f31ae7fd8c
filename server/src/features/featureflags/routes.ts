import { saveFeaturesRequestSchema } from '@lp/contract/featureflags/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { getFeatures, saveFeatures } from './service.ts';

/** Spec 000 §2.11, §4.7, §7: the feature list with the user's set, and saving that set. */
export function registerFeatureFlagRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/featureflag/features', async (request) => {
    const principal = requirePrincipal(request);
    return { status: 'SUCCESS', data: await getFeatures(ctx, principal) };
  });

  app.post('/api/featureflag/features', async (request) => {
    const principal = requirePrincipal(request);
    const { features } = parseInput(saveFeaturesRequestSchema, request.body);
    return { status: 'SUCCESS', data: { enabled: await saveFeatures(ctx, principal, features) } };
  });
}
