import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import {
  downloadRequestSchema,
  emailRequestSchema,
  licenseKeysResponseSchema,
  licenseRequestSchema,
  licenseResponseSchema,
  licensesRequestSchema,
  licensesResponseSchema,
  previewRequestSchema,
  previewResponseSchema,
  verifyResponseSchema,
} from './schemas.ts';

/** Spec 002 §7 and issue 10 §5: signed FlexLM license files of a host. */
export const licenseFilesApi = {
  license: defineOperation({
    operationId: 'generateLicense',
    method: 'post',
    path: '/api/fulfillments/license',
    summary:
      "The account's signed license text for a host, per vendor daemon (plus the shared files of a shared host)",
    auth: 'session',
    body: licenseRequestSchema,
    response: licenseResponseSchema,
  }),
  licenses: defineOperation({
    operationId: 'generateLicenses',
    method: 'post',
    path: '/api/fulfillments/licenses',
    summary: 'License texts of several customers of one host, and their merged file',
    auth: 'session',
    body: licensesRequestSchema,
    response: licensesResponseSchema,
  }),
  download: defineOperation({
    operationId: 'downloadLicense',
    method: 'post',
    path: '/api/fulfillments/download',
    summary:
      'The merged license file of a host (text/plain attachment license_{customerNumber}_{serverId}.lic)',
    auth: 'session',
    body: downloadRequestSchema,
    produces: 'text/plain',
  }),
  email: defineOperation({
    operationId: 'emailLicense',
    method: 'post',
    path: '/api/fulfillments/email',
    summary:
      "E-mails the host's license file to the account's support list (through the outbox, file attached)",
    auth: 'session',
    body: emailRequestSchema,
    response: okResponseSchema,
  }),
  preview: defineOperation({
    operationId: 'previewLicenseChanges',
    method: 'post',
    path: '/api/fulfillments/license/preview',
    summary:
      "The INCREMENT lines each customer's license file for the host would gain and lose with these returns and creates (nothing is saved)",
    auth: 'session',
    body: previewRequestSchema,
    response: previewResponseSchema,
  }),
  verify: defineOperation({
    operationId: 'verifyLicenseFile',
    method: 'post',
    path: '/api/license-files/verify',
    summary:
      "Checks an uploaded license file's feature lines against the published keys (multipart: one file, at most 1 MB)",
    auth: 'session',
    response: verifyResponseSchema,
  }),
  keys: defineOperation({
    operationId: 'listLicenseKeys',
    method: 'get',
    path: '/api/license-keys',
    summary: 'Public keys (Ed25519, PEM) that verify license-file signatures offline; no sign-in needed',
    auth: 'public',
    response: licenseKeysResponseSchema,
  }),
} as const;
