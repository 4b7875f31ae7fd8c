import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';

export function registerCredentialRoutes(_app: FastifyInstance, _ctx: AppContext): void {}
