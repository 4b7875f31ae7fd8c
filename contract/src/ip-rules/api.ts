import { defineOperation } from '../common/operation.ts';
import {
  activatedElasticServersRequestSchema,
  activatedElasticServersResponseSchema,
  getIpsRequestSchema,
  getIpsResponseSchema,
  setIpsRequestSchema,
  setIpsResponseSchema,
} from './schemas.ts';

export const ipRulesApi = {
  servers: defineOperation({
    operationId: 'listActivatedElasticServers',
    method: 'post',
    path: '/api/activatedelasticservers',
    summary: 'Elastic license servers of the account',
    auth: 'session',
    body: activatedElasticServersRequestSchema,
    response: activatedElasticServersResponseSchema,
  }),
  get: defineOperation({
    operationId: 'getIpRules',
    method: 'post',
    path: '/api/getips',
    summary: 'IP allow-list of a server',
    auth: 'session',
    body: getIpsRequestSchema,
    response: getIpsResponseSchema,
  }),
  set: defineOperation({
    operationId: 'setIpRules',
    method: 'post',
    path: '/api/setips',
    summary: 'Replace the IP allow-list',
    auth: 'session',
    body: setIpsRequestSchema,
    response: setIpsResponseSchema,
  }),
} as const;
