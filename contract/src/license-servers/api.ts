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
    auth: 'session',
    body: serversRequestSchema,
    response: serversResponseSchema,
  }),
  customers: defineOperation({
    operationId: 'listHostCustomers',
    method: 'post',
    path: '/api/fulfillments/customers',
    summary: 'The accounts a host serves that the user may see',
    auth: 'session',
    body: hostRequestSchema,
    response: hostCustomersResponseSchema,
  }),
  override: defineOperation({
    operationId: 'checkSharedHost',
    method: 'post',
    path: '/api/fulfillments/override',
    summary: 'Whether other customer numbers share the host (how many the user cannot see, never which)',
    auth: 'session',
    body: hostRequestSchema,
    response: hostOverrideResponseSchema,
  }),
  settings: defineOperation({
    operationId: 'setLicenseServerSettings',
    method: 'post',
    path: '/api/fulfillments/servers/settings',
    summary:
      "Saves the host's Borrowable setting (a user who may edit every account on the host; idempotent with operationKey)",
    auth: 'session',
    body: hostSettingsRequestSchema,
    response: okResponseSchema,
  }),
  setSharedGroup: defineOperation({
    operationId: 'setSharedServerGroup',
    method: 'post',
    path: '/api/sharedserver',
    summary:
      "Sets the host's shared-server group to the given approved accounts (idempotent with operationKey)",
    auth: 'session',
    body: sharedServerRequestSchema,
    response: okResponseSchema,
  }),
  deactivateSharedGroup: defineOperation({
    operationId: 'deactivateSharedServerGroup',
    method: 'post',
    path: '/api/sharedserver/deactivate',
    summary: "Empties the host's shared-server group (of the accounts the user may edit)",
    auth: 'session',
    body: sharedServerDeactivateRequestSchema,
    response: okResponseSchema,
  }),
  remove: defineOperation({
    operationId: 'removeLicenseServer',
    method: 'post',
    path: '/api/sharedserver/remove',
    summary: 'Deletes an inactive host for the account (the host goes when no account uses it any more)',
    auth: 'session',
    body: removeServerRequestSchema,
    response: okResponseSchema,
  }),
  upload: defineOperation({
    operationId: 'uploadServerId',
    method: 'post',
    path: '/api/uploadserverid',
    summary:
      'Reads a host from an uploaded file (multipart: file, customerNumber): a license file, lmhostid output or "name id type" lines',
    auth: 'session',
    response: uploadServerIdResponseSchema,
  }),
} as const;
