import type { VendorRole } from '@lp/contract/user/schemas';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema.ts';

export interface SignedInUser {
  email: string;
  name: string;
  vendorRoles: VendorRole[];
}

/**
 * Creates or refreshes the portal user from what the IdP says at sign-in: the IdP is the authority
 * for name and vendor roles, so both are overwritten each time. Email is the stable key (lowercased).
 */
export async function upsertUser(db: Db, user: SignedInUser): Promise<{ id: string }> {
  const email = user.email.trim().toLowerCase();
  const [row] = await db
    .insert(users)
    .values({ email, name: user.name, vendorRoles: user.vendorRoles, lastLoginAt: new Date() })
    .onConflictDoUpdate({
      target: users.email,
      set: {
        name: sql`excluded.name`,
        vendorRoles: sql`excluded.vendor_roles`,
        lastLoginAt: sql`excluded.last_login_at`,
      },
    })
    .returning({ id: users.id });
  return row;
}
