import { contactRoles } from '@lp/domain/policy';
import { addContact, buildAccount } from '../harness/factories.ts';
import { signInAs } from '../harness/sign-in.ts';
import type { Db } from '../src/db/database.ts';

type Headers = Record<string, string>;

/**
 * The usual cast of an account API test, signed in: account `customerNumber` ('Acme') with an admin (boss)
 * and a viewer (reader), and account `otherNumber` ('Other') whose admin (outsider) must learn nothing of it.
 */
export async function buildAccountFixture(
  db: Db,
  customerNumber: string,
  otherNumber: string,
): Promise<{ boss: Headers; reader: Headers; outsider: Headers }> {
  await buildAccount(db, { customerNumber, name: 'Acme' });
  await buildAccount(db, { customerNumber: otherNumber, name: 'Other' });
  await addContact(db, customerNumber, 'boss@acme.example', contactRoles.admin);
  await addContact(db, customerNumber, 'reader@acme.example', contactRoles.viewer);
  await addContact(db, otherNumber, 'outsider@other.example', contactRoles.admin);
  return {
    boss: (await signInAs(db, 'boss@acme.example')).headers,
    reader: (await signInAs(db, 'reader@acme.example')).headers,
    outsider: (await signInAs(db, 'outsider@other.example')).headers,
  };
}

/** A vendor staff member (busops, support or sales) signed in. */
export async function signInStaff(db: Db, vendorRole: 'busops' | 'support' | 'sales'): Promise<Headers> {
  return (await signInAs(db, `${vendorRole}@vendor.example`, { vendorRoles: [vendorRole] })).headers;
}
