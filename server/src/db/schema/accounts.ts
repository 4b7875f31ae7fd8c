import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from './columns.ts';

export const accounts = pgTable(
  'accounts',
  {
    customerNumber: text('customer_number').primaryKey(),
    name: text('name').notNull(),
    orgType: text('org_type').notNull().default('Undefined'),
    exportControlStatus: text('export_control_status').notNull().default(''),
    supportEmail: text('support_email').notNull().default(''),
    isAccessDisabled: boolean('is_access_disabled').notNull().default(false),
    isFnpLicenseGenerator: boolean('is_fnp_license_generator').notNull().default(false),
    createdAt: ts('created_at').notNull().default(sql`now()`),
  },
  (t) => [index('accounts_name_idx').on(sql`lower(${t.name})`)],
);

/** Portal-access contacts: the authorization data for customer users. */
export const portalContacts = pgTable(
  'portal_contacts',
  {
    customerNumber: text('customer_number')
      .notNull()
      .references(() => accounts.customerNumber, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerNumber, t.email] }),
    index('portal_contacts_email_idx').on(t.email),
  ],
);
