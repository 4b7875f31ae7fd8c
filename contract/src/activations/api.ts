import { defineOperation } from '../common/operation.ts';
import {
  allEntitlementsResponseSchema,
  batchResponseSchema,
  createRequestSchema,
  hostEntitlementsRequestSchema,
  hostEntitlementsResponseSchema,
  hostsHistoryRequestSchema,
  hostsHistoryResponseSchema,
  returnRequestSchema,
} from './schemas.ts';

/** Spec 002 §7 "Activations and hosts": fulfillments of entitlements on hosts, and their history. */
export const activationsApi = {
  allEntitlements: defineOperation({
    operationId: 'listHostActivations',
    method: 'post',
    path: '/api/fulfillments/allentitlements',
    summary:
      "A host's assigned entitlements of the account and the account's available ones (forceSync has nothing to sync and is accepted)",
    auth: 'session',
    body: hostEntitlementsRequestSchema,
    response: allEntitlementsResponseSchema,
  }),
  hostEntitlements: defineOperation({
    operationId: 'listHostEntitlements',
    method: 'post',
    path: '/api/fulfillments/entitlements',
    summary: "The account's entitlements activated on a host",
    auth: 'session',
    body: hostEntitlementsRequestSchema,
    response: hostEntitlementsResponseSchema,
  }),
  return: defineOperation({
    operationId: 'returnFulfillments',
    method: 'post',
    path: '/api/fulfillments/return',
    summary:
      'Returns seats of fulfillments (negative counts) in one transaction; idempotent with operationKey',
    auth: 'session',
    body: returnRequestSchema,
    response: batchResponseSchema,
  }),
  create: defineOperation({
    operationId: 'createFulfillments',
    method: 'post',
    path: '/api/fulfillments/create',
    summary:
      'Activates seats of entitlements on a host (adding the host when new) in one transaction; idempotent with operationKey',
    auth: 'session',
    body: createRequestSchema,
    response: batchResponseSchema,
  }),
  history: defineOperation({
    operationId: 'listHostsHistory',
    method: 'post',
    path: '/api/fulfillments/history',
    summary: "Activation history of the account's fulfillments on several hosts",
    auth: 'session',
    body: hostsHistoryRequestSchema,
    response: hostsHistoryResponseSchema,
  }),
  exportHistory: defineOperation({
    operationId: 'exportHostsHistory',
    method: 'post',
    path: '/api/fulfillments/servers/export',
    summary: 'The same history for the CSV export of the history page',
    auth: 'session',
    body: hostsHistoryRequestSchema,
    response: hostsHistoryResponseSchema,
  }),
} as const;
