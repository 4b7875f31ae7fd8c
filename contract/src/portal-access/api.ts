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
    auth: 'session',
    body: getPortalAccessRequestSchema,
    response: getPortalAccessResponseSchema,
  }),
  set: defineOperation({
    operationId: 'setPortalAccess',
    method: 'post',
    path: '/api/setportalaccess',
    summary: 'Replace the contacts (refused when oldContacts are stale)',
    auth: 'session',
    body: setPortalAccessRequestSchema,
    response: setPortalAccessResponseSchema,
  }),
} as const;
