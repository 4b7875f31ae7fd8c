import type { Operation } from '../common/operation.ts';
import {
  adjustmentRequestSchema,
  credentialListResponseSchema,
  issueCredentialRequestSchema,
  issueCredentialResponseSchema,
  policyResponseSchema,
  usageBatchResponseSchema,
  usageBatchSchema,
} from './schemas.ts';

/** The elastic license-server API (bearer credential of one server) and its vendor-staff administration. */
export const elasticServerApi: Operation[] = [
  {
    method: 'get',
    path: '/cls/v1/policy',
    summary: 'License server: PIN, allowed usernames, IP allow-list and priced products (ETag, 304)',
    public: true,
    response: policyResponseSchema,
  },
  {
    method: 'post',
    path: '/cls/v1/usage',
    summary: 'License server: a batch of session events (start, heartbeat, end); idempotent',
    public: true,
    body: usageBatchSchema,
    response: usageBatchResponseSchema,
  },
  {
    method: 'get',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: license-server credentials of an account (?customerNumber=)',
    response: credentialListResponseSchema,
  },
  {
    method: 'post',
    path: '/api/cls/credentials',
    summary: 'Vendor staff: issue a credential for an elastic license server (token shown once)',
    body: issueCredentialRequestSchema,
    response: issueCredentialResponseSchema,
  },
  { method: 'delete', path: '/api/cls/credentials/{id}', summary: 'Vendor staff: revoke a credential' },
  {
    method: 'post',
    path: '/api/elastic/adjustments',
    summary: 'Vendor busops: credit (negative) or debit (positive) adjustment of an elastic entitlement',
    body: adjustmentRequestSchema,
  },
];
