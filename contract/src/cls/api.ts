import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import {
  adjustmentRequestSchema,
  adjustmentResponseSchema,
  credentialIdParamsSchema,
  credentialListQuerySchema,
  credentialListResponseSchema,
  issueCredentialRequestSchema,
  issueCredentialResponseSchema,
  policyResponseSchema,
  usageBatchResponseSchema,
  usageBatchSchema,
} from './schemas.ts';

/** The elastic license-server API (bearer credential of one server) and its vendor-staff administration. */
export const clsApi = {
  policy: defineOperation({
    operationId: 'getServerPolicy',
    method: 'get',
    path: '/cls/v1/policy',
    summary: 'License server: PIN, allowed usernames, IP allow-list and priced products (ETag, 304)',
    description:
      'For an elastic license server (its bearer credential): the PIN, allowed usernames, IP allow-list and the priced products it may serve. Send the last `ETag` as `If-None-Match` to get 304 when nothing changed.',
    auth: 'server-credential',
    effect: 'read',
    statuses: {
      304: 'Nothing changed since the `ETag` sent as `If-None-Match`.',
      403: "The server's account is disabled or export-blocked.",
    },
    response: policyResponseSchema,
  }),
  usage: defineOperation({
    operationId: 'postServerUsage',
    method: 'post',
    path: '/cls/v1/usage',
    summary: 'License server: a batch of session events (start, heartbeat, end); idempotent',
    description:
      "For an elastic license server: a batch of session events (start, heartbeat, end) to rate and draw from the ledger. Idempotent per event id, so a batch can be resent after a timeout; each event's outcome is answered, bad events are reported one by one without refusing the batch.",
    auth: 'server-credential',
    effect: 'idempotent',
    statuses: {
      403: "The server's account is disabled or export-blocked.",
    },
    body: usageBatchSchema,
    response: usageBatchResponseSchema,
  }),
  listCredentials: defineOperation({
    operationId: 'listServerCredentials',
    method: 'get',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: license-server credentials of an account',
    description:
      "The license-server credentials issued for the account's elastic servers (never the secret): for vendor staff who manage them.",
    auth: 'session',
    effect: 'read',
    statuses: {
      403: 'The user is not vendor staff who manage server credentials, or may not see the account.',
    },
    query: credentialListQuerySchema,
    response: credentialListResponseSchema,
  }),
  issueCredential: defineOperation({
    operationId: 'issueServerCredential',
    method: 'post',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: issue a credential for an elastic license server (token shown once)',
    description:
      'Issues a bearer credential for one elastic license server of the account; the answer carries the secret once. Vendor staff.',
    auth: 'session',
    effect: 'once',
    statuses: {
      404: 'The server is not an elastic server of the account.',
    },
    body: issueCredentialRequestSchema,
    response: issueCredentialResponseSchema,
  }),
  revokeCredential: defineOperation({
    operationId: 'revokeServerCredential',
    method: 'delete',
    path: '/api/cls/credentials/{id}',
    summary: 'Vendor staff: revoke a credential',
    description: 'Revokes a license-server credential at once. Vendor staff.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'No such credential, or one of an account the user may not see (answered alike).',
    },
    params: credentialIdParamsSchema,
    response: okResponseSchema,
  }),
  adjust: defineOperation({
    operationId: 'adjustElasticBalance',
    method: 'post',
    path: '/api/elastic/adjustments',
    summary: 'Vendor busops: credit (negative) or debit (positive) adjustment of an elastic entitlement',
    description:
      'A manual ledger entry on an elastic entitlement by business operations: a debit (positive) or a credit (negative) with a reason; audited.',
    auth: 'session',
    effect: 'keyed',
    statuses: {
      404: 'No such elastic entitlement of the account.',
    },
    body: adjustmentRequestSchema,
    response: adjustmentResponseSchema,
  }),
} as const;
