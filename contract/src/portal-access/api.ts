import { defineOperation } from '../common/operation.ts';
import {
  getPortalAccessRequestSchema,
  getPortalAccessResponseSchema,
  setPortalAccessRequestSchema,
  setPortalAccessResponseSchema,
} from './schemas.ts';

export const portalAccessApi = {
  get: defineOperation({
    operationId: 'getPortalAccess',
    method: 'post',
    path: '/api/getportalaccess',
    summary: 'Portal-access contacts of the account',
    description:
      "The account's portal contacts with their roles (administrator, view-only …) and notice choices. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: getPortalAccessRequestSchema,
    response: getPortalAccessResponseSchema,
  }),
  set: defineOperation({
    operationId: 'setPortalAccess',
    method: 'post',
    path: '/api/setportalaccess',
    summary: 'Replace the contacts (refused when oldContacts are stale)',
    description:
      "Replaces the account's contacts with `contacts`. `oldContacts` is the list the client read: if the stored list changed since, nothing is saved and the answer is 409, so two administrators never overwrite each other.",
    auth: 'session',
    effect: 'idempotent',
    statuses: {
      409: 'The contacts changed since `oldContacts` was read; read them again.',
    },
    body: setPortalAccessRequestSchema,
    response: setPortalAccessResponseSchema,
  }),
} as const;
