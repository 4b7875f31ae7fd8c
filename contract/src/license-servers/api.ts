import { okResponseSchema } from '../common/envelope.ts';
import { defineOperation } from '../common/operation.ts';
import {
  hostCustomersResponseSchema,
  hostOverrideResponseSchema,
  hostRequestSchema,
  hostSettingsRequestSchema,
  removeServerRequestSchema,
  serversRequestSchema,
  serversResponseSchema,
  sharedServerDeactivateRequestSchema,
  sharedServerRequestSchema,
  uploadServerIdResponseSchema,
} from './schemas.ts';

/** Spec 002 §7 "Activations and hosts": license servers (hosts) and their shared-server groups. */
export const licenseServersApi = {
  list: defineOperation({
    operationId: 'listLicenseServers',
    method: 'post',
    path: '/api/fulfillments/servers',
    summary:
      "The account's license servers: Active first, then Inactive, then others, then by name, id and type (forceSync has nothing to sync and is accepted)",
    description:
      "The account's hosts (FlexLM single or triad, elastic servers) with their state, type and shared-server group. `forceSync` is accepted for older clients and changes nothing. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: serversRequestSchema,
    response: serversResponseSchema,
  }),
  customers: defineOperation({
    operationId: 'listHostCustomers',
    method: 'post',
    path: '/api/fulfillments/customers',
    summary: 'The accounts a host serves that the user may see',
    description: 'The other accounts a host serves, limited to those the user may see.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The host is not one of the account.',
    },
    body: hostRequestSchema,
    response: hostCustomersResponseSchema,
  }),
  override: defineOperation({
    operationId: 'checkSharedHost',
    method: 'post',
    path: '/api/fulfillments/override',
    summary: 'Whether other customer numbers share the host (how many the user cannot see, never which)',
    description:
      "Whether customer numbers other than the account's share the host, and how many the user cannot see (never which): asked before a change that affects them.",
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'The host is not one of the account.',
    },
    body: hostRequestSchema,
    response: hostOverrideResponseSchema,
  }),
  settings: defineOperation({
    operationId: 'setLicenseServerSettings',
    method: 'post',
    path: '/api/fulfillments/servers/settings',
    summary:
      "Saves the host's Borrowable setting (a user who may edit every account on the host; idempotent with operationKey)",
    description:
      "Saves the host's Borrowable setting. The user must be able to edit every account on the host. Idempotent: a retry with the same `operationKey` answers as the first call did.",
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'The `operationKey` was already used for another operation.',
    },
    body: hostSettingsRequestSchema,
    response: okResponseSchema,
  }),
  setSharedGroup: defineOperation({
    operationId: 'setSharedServerGroup',
    method: 'post',
    path: '/api/sharedserver',
    summary:
      "Sets the host's shared-server group to the given approved accounts (idempotent with operationKey)",
    description:
      "Sets the host's shared-server group to the given accounts (those the user may approve). Idempotent with `operationKey`.",
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'The `operationKey` was already used for another operation.',
    },
    body: sharedServerRequestSchema,
    response: okResponseSchema,
  }),
  deactivateSharedGroup: defineOperation({
    operationId: 'deactivateSharedServerGroup',
    method: 'post',
    path: '/api/sharedserver/deactivate',
    summary: "Empties the host's shared-server group (of the accounts the user may edit)",
    description: "Removes the accounts the user may edit from the host's shared-server group.",
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'The host is not one of the account.',
    },
    body: sharedServerDeactivateRequestSchema,
    response: okResponseSchema,
  }),
  remove: defineOperation({
    operationId: 'removeLicenseServer',
    method: 'post',
    path: '/api/sharedserver/remove',
    summary: 'Deletes an inactive host for the account (the host goes when no account uses it any more)',
    description:
      'Removes an inactive host from the account; the host itself is deleted when no account uses it any more. A host with activations is refused.',
    auth: 'session',
    effect: 'keyed',
    keyField: 'operationKey',
    statuses: {
      404: 'The host is not one of the account.',
      409: 'The host still has activations.',
    },
    body: removeServerRequestSchema,
    response: okResponseSchema,
  }),
  upload: defineOperation({
    operationId: 'uploadServerId',
    method: 'post',
    path: '/api/uploadserverid',
    summary:
      'Reads a host from an uploaded file (multipart: file, customerNumber): a license file, lmhostid output or "name id type" lines',
    description:
      "Reads a host's name, id and type from an uploaded text file (a license file, `lmhostid` output, or `name id type` lines) for the activation form; nothing is saved. Multipart fields: `file` and `customerNumber`.",
    auth: 'session',
    effect: 'read',
    form: { file: 'file', fields: ['customerNumber'] },
    response: uploadServerIdResponseSchema,
  }),
} as const;
