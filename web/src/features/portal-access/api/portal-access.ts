import { portalAccessApi } from '@lp/contract/portal-access/api';
import type { ContactDto } from '@lp/contract/portal-access/schemas';
import { call } from '../../../lib/call.ts';

/** Spec 000 §7. */
export const getPortalAccess = (customerNumber: string) =>
  call(portalAccessApi.get, { customerNumber }).then((r) => r.data);

/** oldContacts is the list the form started from (a 409 means it changed since). */
export const setPortalAccess = (
  customerNumber: string,
  newContacts: ContactDto[],
  oldContacts: ContactDto[],
) => call(portalAccessApi.set, { customerNumber, newContacts, oldContacts }).then((r) => r.data);
