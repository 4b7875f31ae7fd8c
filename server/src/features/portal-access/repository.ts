import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { accounts, portalContacts } from '../../db/schema.ts';

export async function listContacts(db: Db, customerNumber: string) {
  return db
    .select({ email: portalContacts.email, role: portalContacts.role })
    .from(portalContacts)
    .where(eq(portalContacts.customerNumber, customerNumber));
}

/** Row-locks the account so concurrent saves of its contact list run one after the other. */
export async function lockAccount(db: Db, customerNumber: string) {
  await db
    .select({ customerNumber: accounts.customerNumber })
    .from(accounts)
    .where(eq(accounts.customerNumber, customerNumber))
    .for('update');
}

export async function replaceContacts(
  db: Db,
  customerNumber: string,
  contacts: { email: string; role: string }[],
) {
  await db.delete(portalContacts).where(eq(portalContacts.customerNumber, customerNumber));
  if (contacts.length) {
    await db.insert(portalContacts).values(contacts.map((c) => ({ customerNumber, ...c })));
  }
}

/** Removes a person from every account's contacts (a user removed by an operator); returns what was removed. */
export async function deleteContactEverywhere(db: Db, email: string) {
  return db
    .delete(portalContacts)
    .where(eq(portalContacts.email, email))
    .returning({ customerNumber: portalContacts.customerNumber, role: portalContacts.role });
}
