import { ipRulesApi } from '@lp/contract/ip-rules/api';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { route } from '../../platform/route.ts';
import { activatedElasticServers, getIpRules, setIpRules } from './service.ts';

export function registerIpRuleRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    ctx,
    ipRulesApi.servers,
  )(async ({ principal, body }) => ({
    data: await activatedElasticServers(ctx, principal, body.customerNumber),
  }));

  route(
    app,
    ctx,
    ipRulesApi.get,
  )(async ({ principal, body }) => ({
    data: { whitelist: await getIpRules(ctx, principal, body.customerNumber, body.clsId) },
  }));

  route(
    app,
    ctx,
    ipRulesApi.set,
  )(async ({ principal, body }) => ({
    err: null,
    data: {
      whitelist: await setIpRules(ctx, principal, {
        customerNumber: body.customerNumber,
        elasticServerId: body.clsId,
        whitelist: body.whitelist,
      }),
    },
  }));
}
