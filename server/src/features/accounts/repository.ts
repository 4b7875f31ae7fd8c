import { accountColumnKinds } from '@lp/contract/accounts/schemas';
import { contactRoles } from '@lp/domain/policy';
import { and, count, eq, sql } from 'drizzle-orm';
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

export async function findAccount(db: Db, customerNumber: string): Promise<AccountRecord | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.customerNumber, customerNumber));
  return row;
}

export async function findContactRole(
  db: Db,
  customerNumber: string,
  email: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ role: portalContacts.role })
    .from(portalContacts)
    .where(and(eq(portalContacts.customerNumber, customerNumber), eq(portalContacts.email, email)));
  return row?.role;
}

/** Entitlement counts behind the has* info flags; derived, never stored. */
export async function entitlementCounts(db: Db, customerNumber: string) {
  const [row] = await db
    .select({
      ssl: count(sql`case when ${entitlements.kind} = 'SSL' then 1 end`),
      shared: count(
        sql`case when ${entitlements.kind} = 'SSL' and ${entitlements.licenseType} = 'shared' then 1 end`,
      ),
      named: count(
        sql`case when ${entitlements.kind} = 'SSL' and ${entitlements.licenseType} = 'named' then 1 end`,
      ),
      fsa: count(sql`case when ${entitlements.kind} = 'FSA' then 1 end`),
      elastic: count(sql`case when ${entitlements.kind} = 'ELASTIC' then 1 end`),
    })
    .from(entitlements)
    .where(and(eq(entitlements.customerNumber, customerNumber), eq(entitlements.state, 'Deployed')));
  return row;
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
