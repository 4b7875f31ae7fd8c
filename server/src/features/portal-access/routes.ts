import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';

// Placeholder replaced by the feature's implementation in this change.
export function registerPortalAccessRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
