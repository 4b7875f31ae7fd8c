import { accountColumnKinds } from '@lp/contract/accounts/schemas';
import { contactRoles } from '@lp/domain/policy';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';
import { accounts, entitlements, portalContacts } from '../../db/schema.ts';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

export type AccountRecord = typeof accounts.$inferSelect;

/** The account list as the generic query engine sees it (spec 000 §7 getaccounts). */
export const accountsResource: Resource = {
  name: 'accounts',
  from: sql`accounts a`,
  columns: typedColumns(accountColumnKinds, {
    AccountID: { expr: sql`a.customer_number` },
    AccountName: { expr: sql`a.name` },
  }),
  id: { expr: sql`a.customer_number`, type: 'text' },
  defaultSort: [{ name: 'AccountID', direction: 'asc' }],
  maxLimit: 500,
  maxDistinct: 500,
};

/** Restricts the account list to accounts where `email` is a portal-access contact. */
export const contactScope = (email: string) =>
  sql`exists (select 1 from portal_contacts pc where pc.customer_number = a.customer_number and pc.email = ${email})`;

/** The deployed entitlements of the row's account of one kind (and license type), counted. */
const deployed = (kind: string, licenseType?: string) =>
  sql<number>`(select count(*)::int from ${entitlements} e where e.customer_number = ${accounts.customerNumber}
    and e.state = 'Deployed' and e.kind = ${kind}${licenseType ? sql` and e.license_type = ${licenseType}` : sql``})`;

/**
 * What the account gate needs of each account, in one statement however many accounts (decision 063): the account,
 * `email`'s contact role on it (null when not a contact) and the entitlement counts behind the has* info flags
 * (derived, never stored). Accounts that do not exist are absent. Runs on `db`, which may be the caller's
 * transaction.
 */
export async function accessRows(db: Db, customerNumbers: readonly string[], email: string) {
  if (customerNumbers.length === 0) return [];
  return db
    .select({
      account: accounts,
      role: portalContacts.role,
      ssl: deployed('SSL'),
      shared: deployed('SSL', 'shared'),
      named: deployed('SSL', 'named'),
      fsa: deployed('FSA'),
      elastic: deployed('ELASTIC'),
    })
    .from(accounts)
    .leftJoin(
      portalContacts,
      and(eq(portalContacts.customerNumber, accounts.customerNumber), eq(portalContacts.email, email)),
    )
    .where(inArray(accounts.customerNumber, [...new Set(customerNumbers)]));
}

/** Start of the newest usage session received, for one account or for the accounts of one contact (index-backed). */
export async function lastUsageEvent(db: Db, scope: { customerNumber?: string; contactEmail?: string }) {
  const where = scope.customerNumber
    ? sql`customer_number = ${scope.customerNumber}`
    : scope.contactEmail
      ? sql`customer_number in (select customer_number from portal_contacts where email = ${scope.contactEmail})`
      : sql`true`;
  const [row] = await queryRows<{ last: Date | string | null }>(
    db,
    sql`select max(start_time) as last from usage_sessions where ${where}`,
  );
  const value = row?.last;
  return value ? new Date(value) : null;
}

/** Every account's administrators (portal administrators and support coordinators), by account. */
export const listAdministrators = (db: Db) =>
  db
    .select({ customerNumber: portalContacts.customerNumber, email: portalContacts.email })
    .from(portalContacts)
    .where(sql`${portalContacts.role} in (${contactRoles.admin}, ${contactRoles.coordinator})`)
    .orderBy(portalContacts.customerNumber, portalContacts.email);
