import { csrfHeader } from '@lp/contract/auth/schemas';
import type { Db } from '../src/db/database.ts';
import { createSession, sessionCookieName, toVendorRoles } from '../src/features/auth/sessions.ts';
import { upsertUser } from '../src/features/auth/users.ts';

/**
 * Signs a user in without the IdP round trip: upserts the user and opens a real server-side session.
 * The headers work with app.inject and fetch, including for writes (anti-CSRF header included).
 */
export async function signInAs(
  db: Db,
  email: string,
  opts: { vendorRoles?: string[]; name?: string } = {},
): Promise<{ userId: string; headers: Record<string, string> }> {
  const { id } = await upsertUser(db, {
    email,
    name: opts.name ?? email.split('@')[0],
    vendorRoles: toVendorRoles(opts.vendorRoles ?? []),
  });
  const sessionId = await createSession(db, id);
  return { userId: id, headers: { cookie: `${sessionCookieName}=${sessionId}`, [csrfHeader]: '1' } };
}
