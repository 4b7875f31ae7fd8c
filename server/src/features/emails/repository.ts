import { emailColumnKinds } from '@lp/contract/emails/schemas';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { accounts, emails } from '../../db/schema.ts';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

/** The e-mail list as the generic query engine sees it (spec 000 §2.7, §3 list row); always scoped to one customer. */
export const emailsResource: Resource = {
  name: 'emails',
  from: sql`emails e`,
  columns: typedColumns(emailColumnKinds, {
    id: { expr: sql`e.id` },
    date: { expr: sql`e.date` },
    subject: { expr: sql`e.subject` },
    to: { expr: sql`e.to_address` },
  }),
  id: { expr: sql`e.id`, type: 'number' },
  defaultSort: [{ name: 'date', direction: 'desc' }],
  maxLimit: 500,
  maxDistinct: 500,
};

export const customerScope = (customerNumber: string) => sql`e.customer_number = ${customerNumber}`;

/** One e-mail of one customer; another customer's id is simply not found. */
export async function findCustomerEmail(db: Db, customerNumber: string, id: number) {
  const [row] = await db
    .select({
      id: emails.id,
      customerNumber: emails.customerNumber,
      customerName: accounts.name,
      to: emails.to,
      subject: emails.subject,
      body: emails.body,
      date: emails.date,
      attachments: emails.attachments,
    })
    .from(emails)
    .innerJoin(accounts, eq(accounts.customerNumber, emails.customerNumber))
    .where(and(eq(emails.id, id), eq(emails.customerNumber, customerNumber)));
  return row;
}

/** The account an e-mail belongs to; undefined for an unknown id and for a vendor-wide e-mail (no account). */
export async function findEmailOwner(db: Db, id: number): Promise<string | undefined> {
  const [row] = await db
    .select({ customerNumber: emails.customerNumber })
    .from(emails)
    .where(eq(emails.id, id));
  return row?.customerNumber ?? undefined;
}

export async function deleteEmail(db: Db, id: number): Promise<boolean> {
  const rows = await db.delete(emails).where(eq(emails.id, id)).returning({ id: emails.id });
  return rows.length > 0;
}
