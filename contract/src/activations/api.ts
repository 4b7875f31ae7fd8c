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
    description:
      "For one host: the account's entitlements activated on it and the account's entitlements still available to activate, with counts. `forceSync` is accepted and changes nothing.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The host is not one of the account.',
    },
    body: hostEntitlementsRequestSchema,
    response: allEntitlementsResponseSchema,
  }),
  hostEntitlements: defineOperation({
    operationId: 'listHostEntitlements',
    method: 'post',
    path: '/api/fulfillments/entitlements',
    summary: "The account's entitlements activated on a host",
    description: "The account's entitlements activated on one host, with their seat counts.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The host is not one of the account.',
    },
    body: hostEntitlementsRequestSchema,
    response: hostEntitlementsResponseSchema,
  }),
  return: defineOperation({
    operationId: 'returnFulfillments',
    method: 'post',
    path: '/api/fulfillments/return',
    summary:
      'Returns seats of fulfillments (negative counts) in one transaction; idempotent with operationKey',
    description:
      'Returns seats of fulfillments from a host (counts as negative numbers), all in one transaction, optionally moving them to a rehost target. Idempotent with `operationKey`: a retry answers the first result.',
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'A fulfillment or the host is not one of the account.',
      409: 'More seats returned than are activated, the rehost target is taken, or the `operationKey` was used for another operation.',
    },
    body: returnRequestSchema,
    response: batchResponseSchema,
  }),
  create: defineOperation({
    operationId: 'createFulfillments',
    method: 'post',
    path: '/api/fulfillments/create',
    summary:
      'Activates seats of entitlements on a host (adding the host when new) in one transaction; idempotent with operationKey',
    description:
      "Activates seats of the account's entitlements on a host, adding the host when it is new, in one transaction; each seat count is checked against what is available. Idempotent with `operationKey`.",
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'An activation id is not one of the account.',
      409: 'More seats than are available, the host id is taken by another host, or the `operationKey` was used for another operation.',
    },
    body: createRequestSchema,
    response: batchResponseSchema,
  }),
  history: defineOperation({
    operationId: 'listHostsHistory',
    method: 'post',
    path: '/api/fulfillments/history',
    summary: "Activation history of the account's fulfillments on several hosts",
    description:
      "The activation history of the account's fulfillments on the given hosts, grouped into 30-second rows.",
    auth: 'session',
    effect: 'read',
    body: hostsHistoryRequestSchema,
    response: hostsHistoryResponseSchema,
  }),
  exportHistory: defineOperation({
    operationId: 'exportHostsHistory',
    method: 'post',
    path: '/api/fulfillments/servers/export',
    summary: 'The same history for the CSV export of the history page',
    description:
      "The same history as `/api/fulfillments/history`, in the shape the history page's CSV export writes.",
    auth: 'session',
    effect: 'read',
    body: hostsHistoryRequestSchema,
    response: hostsHistoryResponseSchema,
  }),
} as const;
