import type { Db } from '@lp/server/db/database';
import { rowsOf } from '@lp/server/features/demo/seed';
import { sql } from 'drizzle-orm';

export interface UserListing {
  email: string;
  name: string;
  vendorRoles: string[];
  accounts: { customerNumber: string; customerName: string; role: string }[];
}

/** Every portal user (and built-in IdP account not yet signed in) with vendor roles and contact roles per account. */
export async function listUsers(db: Db): Promise<UserListing[]> {
  const people = rowsOf<{ email: string; name: string; vendor_roles: string[] }>(
    await db.execute(sql`
      select email, name, vendor_roles from users
      union all
      select lower(i.email), i.name, i.roles from idp_accounts i
        where not exists (select 1 from users u where lower(u.email) = lower(i.email))
      order by 1`),
  );
  const contacts = rowsOf<{ email: string; customer_number: string; name: string; role: string }>(
    await db.execute(sql`
      select pc.email, pc.customer_number, a.name, pc.role
      from portal_contacts pc join accounts a on a.customer_number = pc.customer_number
      order by pc.customer_number`),
  );
  return people.map((p) => ({
    email: p.email,
    name: p.name,
    vendorRoles: p.vendor_roles,
    accounts: contacts
      .filter((c) => c.email === p.email.toLowerCase())
      .map((c) => ({ customerNumber: c.customer_number, customerName: c.name, role: c.role })),
  }));
}

export const users = {
  async list(db: Db, json: boolean, out: (line: string) => void) {
    const listing = await listUsers(db);
    if (json) {
      out(JSON.stringify(listing, null, 2));
      return 0;
    }
    for (const u of listing) {
      const roles = u.vendorRoles.length ? ` [${u.vendorRoles.join(', ')}]` : '';
      out(
        `${u.email} (${u.name})${roles}${u.accounts.length || u.vendorRoles.length ? '' : ' - no account'}`,
      );
      for (const a of u.accounts) out(`    ${a.customerNumber} ${a.customerName}: ${a.role}`);
    }
    return 0;
  },
};
