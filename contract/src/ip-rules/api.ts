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
    description:
      "The account's active elastic license servers (id, name), the servers whose IP allow-lists and credentials can be set. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: activatedElasticServersRequestSchema,
    response: activatedElasticServersResponseSchema,
  }),
  get: defineOperation({
    operationId: 'getIpRules',
    method: 'post',
    path: '/api/getips',
    summary: 'IP allow-list of a server',
    description:
      'The IP allow-list of one elastic license server of the account: address ranges the server accepts sessions from (empty: any).',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The server is not an active elastic server of the account.',
    },
    body: getIpsRequestSchema,
    response: getIpsResponseSchema,
  }),
  set: defineOperation({
    operationId: 'setIpRules',
    method: 'post',
    path: '/api/setips',
    summary: 'Replace the IP allow-list',
    description:
      "Replaces the server's IP allow-list; each rule is checked (IPv4 or IPv6 address or range), the change is audited.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The server is not an active elastic server of the account.',
    },
    body: setIpsRequestSchema,
    response: setIpsResponseSchema,
  }),
} as const;
