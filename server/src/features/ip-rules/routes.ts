import {
  activatedElasticServersRequestSchema,
  getIpsRequestSchema,
  setIpsRequestSchema,
} from '@lp/contract/ip-rules/schemas';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { requirePrincipal } from '../../platform/principal.ts';
import { parseInput } from '../../platform/validate.ts';
import { activatedElasticServers, getIpRules, setIpRules } from './service.ts';

/** Spec 000 §7: activated elastic servers and their IP allow-lists. */
export function registerIpRuleRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/activatedelasticservers', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber } = parseInput(activatedElasticServersRequestSchema, request.body);
    return { status: 'SUCCESS', data: await activatedElasticServers(ctx, principal, customerNumber) };
  });

  app.post('/api/getips', async (request) => {
    const principal = requirePrincipal(request);
    const { customerNumber, clsId } = parseInput(getIpsRequestSchema, request.body);
    const whitelist = await getIpRules(ctx, principal, customerNumber, clsId);
    return { status: 'SUCCESS', data: { whitelist } };
  });

  app.post('/api/setips', async (request) => {
    const principal = requirePrincipal(request);
    const body = parseInput(setIpsRequestSchema, request.body);
    const whitelist = await setIpRules(ctx, principal, body);
    return { status: 'SUCCESS', err: null, data: { whitelist } };
  });
}
