import type { ContactDto } from '@lp/contract/portal-access/schemas';
import { api } from '../../../lib/api-client.ts';

/** POST /api/getportalaccess (spec 000 §7). */
export const getPortalAccess = (customerNumber: string) =>
  api<{ status: 'SUCCESS'; data: ContactDto[] }>('/api/getportalaccess', {
    method: 'POST',
    body: { customerNumber },
  }).then((r) => r.data);

/** POST /api/setportalaccess: oldContacts is the list the form started from (a 409 means it changed since). */
export const setPortalAccess = (
  customerNumber: string,
  newContacts: ContactDto[],
  oldContacts: ContactDto[],
) =>
  api<{ status: 'SUCCESS'; data: ContactDto[] }>('/api/setportalaccess', {
    method: 'POST',
    body: { customerNumber, newContacts, oldContacts },
  }).then((r) => r.data);
