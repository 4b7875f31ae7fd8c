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
    description:
      "The account's signed license text for a host, one file per vendor daemon (FlexLM, Ed25519-signed feature lines), plus the shared files when the host is shared. The generation is audited.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'No vendor daemon has activations on the host.',
      422: 'The license file could not be made from the activations.',
    },
    body: licenseRequestSchema,
    response: licenseResponseSchema,
  }),
  licenses: defineOperation({
    operationId: 'generateLicenses',
    method: 'post',
    path: '/api/fulfillments/licenses',
    summary: 'License texts of several customers of one host, and their merged file',
    description:
      'License texts of several customers of one host (those the user may see) and the merged file.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The host is not one of these accounts.',
      409: 'No vendor daemon has activations on the host.',
      422: 'The license file could not be made from the activations.',
    },
    body: licensesRequestSchema,
    response: licensesResponseSchema,
  }),
  download: defineOperation({
    operationId: 'downloadLicense',
    method: 'post',
    path: '/api/fulfillments/download',
    summary:
      'The merged license file of a host (text/plain attachment license_{customerNumber}_{serverId}.lic)',
    description:
      'The merged license file of a host as a `text/plain` attachment named `license_{customerNumber}_{serverId}.lic`.',
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'No vendor daemon has activations on the host.',
      422: 'The license file could not be made from the activations.',
    },
    body: downloadRequestSchema,
    produces: 'text/plain',
  }),
  email: defineOperation({
    operationId: 'emailLicense',
    method: 'post',
    path: '/api/fulfillments/email',
    summary:
      "E-mails the host's license file to the account's support list (through the outbox, file attached)",
    description:
      "Sends the host's license file, attached, to the account's support list through the outbox. Limited per user and per account per hour.",
    auth: 'session',
    effect: 'keyed',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'No vendor daemon has activations on the host, or the account has no support e-mail address.',
      422: 'The license file could not be made from the activations.',
      429: 'The user or the account has sent as many e-mails as allowed in the last hour.',
    },
    body: emailRequestSchema,
    response: okResponseSchema,
  }),
  preview: defineOperation({
    operationId: 'previewLicenseChanges',
    method: 'post',
    path: '/api/fulfillments/license/preview',
    summary:
      "The INCREMENT lines each customer's license file for the host would gain and lose with these returns and creates (nothing is saved)",
    description:
      "What a save on the activation page would change in each customer's license file for the host: the INCREMENT lines added and removed by these returns and creates. Nothing is saved.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The host or an activation id is not one of the account.',
      422: 'The license file could not be made from the activations.',
    },
    body: previewRequestSchema,
    response: previewResponseSchema,
  }),
  verify: defineOperation({
    operationId: 'verifyLicenseFile',
    method: 'post',
    path: '/api/license-files/verify',
    summary:
      "Checks an uploaded license file's feature lines against the published keys (multipart: one file, at most 1 MB)",
    description:
      'Checks each feature line of an uploaded license file against the published signing keys: signed by this portal, altered, or not signed by it. Multipart: one part `file`, at most 1 MB.',
    auth: 'session',
    effect: 'read',
    form: { file: 'file', fields: [] },
    response: verifyResponseSchema,
  }),
  keys: defineOperation({
    operationId: 'listLicenseKeys',
    method: 'get',
    path: '/api/license-keys',
    summary: 'Public keys (Ed25519, PEM) that verify license-file signatures offline; no sign-in needed',
    description:
      'The Ed25519 public keys (PEM) license files are signed with, current and retired, so anyone can verify a license file offline. Public.',
    auth: 'public',
    effect: 'read',
    response: licenseKeysResponseSchema,
  }),
} as const;
