import { featureFlagsApi } from '@lp/contract/featureflags/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { getFeatures, saveFeatures } from './service.ts';

export function registerFeatureFlagRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    featureFlagsApi.list,
  )(async ({ principal }) => ({
    data: await getFeatures(ctx, principal),
  }));

  route(
    app,
    ctx,
    featureFlagsApi.save,
  )(async ({ principal, body }) => ({
    data: { enabled: await saveFeatures(ctx, principal, body.features) },
  }));
}
