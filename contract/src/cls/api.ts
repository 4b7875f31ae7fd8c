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
    auth: 'server-credential',
    response: policyResponseSchema,
  }),
  usage: defineOperation({
    operationId: 'postServerUsage',
    method: 'post',
    path: '/cls/v1/usage',
    summary: 'License server: a batch of session events (start, heartbeat, end); idempotent',
    auth: 'server-credential',
    body: usageBatchSchema,
    response: usageBatchResponseSchema,
  }),
  listCredentials: defineOperation({
    operationId: 'listServerCredentials',
    method: 'get',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: license-server credentials of an account',
    auth: 'session',
    query: credentialListQuerySchema,
    response: credentialListResponseSchema,
  }),
  issueCredential: defineOperation({
    operationId: 'issueServerCredential',
    method: 'post',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: issue a credential for an elastic license server (token shown once)',
    auth: 'session',
    body: issueCredentialRequestSchema,
    response: issueCredentialResponseSchema,
  }),
  revokeCredential: defineOperation({
    operationId: 'revokeServerCredential',
    method: 'delete',
    path: '/api/cls/credentials/{id}',
    summary: 'Vendor staff: revoke a credential',
    auth: 'session',
    params: credentialIdParamsSchema,
    response: okResponseSchema,
  }),
  adjust: defineOperation({
    operationId: 'adjustElasticBalance',
    method: 'post',
    path: '/api/elastic/adjustments',
    summary: 'Vendor busops: credit (negative) or debit (positive) adjustment of an elastic entitlement',
    auth: 'session',
    body: adjustmentRequestSchema,
    response: adjustmentResponseSchema,
  }),
} as const;
