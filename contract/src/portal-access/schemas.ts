import { z } from 'zod';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/** Spec 000 §3: a portal-access contact. Rules (format, free mail, roles) are checked by @lp/domain/contacts. */
export const contactSchema = z.strictObject({
  email: z.string().max(320),
  role: z.string().max(100),
});
export type ContactDto = z.infer<typeof contactSchema>;

const customerNumber = customerNumberField;
// Generous bound: the domain rule (CONTACTS_MAX) answers with the spec-style message below it.
const contactList = z.array(contactSchema).max(1000);

/** POST /api/getportalaccess */
export const getPortalAccessRequestSchema = z.strictObject({ customerNumber });
export const getPortalAccessResponseSchema = successOf(z.array(contactSchema), {
  err: z.string().nullable(),
});

/** POST /api/setportalaccess: oldContacts is the list the form started from (optimistic concurrency). */
export const setPortalAccessRequestSchema = z.strictObject({
  customerNumber,
  newContacts: contactList,
  oldContacts: contactList,
});
export const setPortalAccessResponseSchema = successOf(z.array(contactSchema), {
  err: z.string().nullable(),
});
