import { createHash, randomBytes } from 'node:crypto';
import { vendorRoles as knownVendorRoles, type VendorRole } from '@lp/contract/user/schemas';
import { eq, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';
import type { Principal } from '../../platform/principal.ts';

export const sessionCookieName = 'lp_session';

/** The sliding idle timeout is refreshed at most this often, so reads do not all turn into writes. */
const touchIntervalMs = 60_000;

export interface SessionTimeouts {
  idleMinutes: number;
  absoluteHours: number;
}

export const defaultTimeouts: SessionTimeouts = { idleMinutes: 120, absoluteHours: 12 };

/** Only a hash of the cookie value is stored: a leaked database row cannot be replayed as a cookie. */
export const hashSessionId = (id: string) => createHash('sha256').update(id).digest('hex');

export function toVendorRoles(roles: readonly string[]): VendorRole[] {
  return knownVendorRoles.filter((r) => roles.includes(r));
}

/** Creates a server-side session and returns the opaque id that goes into the cookie (never stored). */
export async function createSession(
  db: Db,
  userId: string,
  options: { idToken?: string | null; absoluteHours?: number } = {},
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const hours = options.absoluteHours ?? defaultTimeouts.absoluteHours;
  await db.insert(sessions).values({
    idHash: hashSessionId(id),
    userId,
    idToken: options.idToken ?? null,
    expiresAt: new Date(Date.now() + hours * 3_600_000),
  });
  return id;
}

/**
 * The principal a session cookie names, or null when the session is unknown, past its absolute
 * expiry or idle for too long (such sessions are deleted on sight).
 */
export async function resolveSession(
  db: Db,
  id: string,
  timeouts: SessionTimeouts,
): Promise<Principal | null> {
  const idHash = hashSessionId(id);
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.idHash, idHash));
  if (!row) return null;
  const now = Date.now();
  const idleDeadline = row.session.lastSeenAt.getTime() + timeouts.idleMinutes * 60_000;
  // A disabled user's sessions end on their next call, whichever node serves it.
  if (row.session.expiresAt.getTime() <= now || idleDeadline <= now || row.user.disabledAt !== null) {
    await db.delete(sessions).where(eq(sessions.idHash, idHash));
    return null;
  }
  if (now - row.session.lastSeenAt.getTime() >= touchIntervalMs) {
    await db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(eq(sessions.idHash, idHash));
  }
  return {
    userId: row.user.id,
    email: row.user.email,
    name: row.user.name,
    vendorRoles: toVendorRoles(row.user.vendorRoles),
    via: 'session',
  };
}

/** Ends every session of a user (disabled or removed by an operator); returns how many. */
export async function deleteUserSessions(db: Db, userId: string): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(eq(sessions.userId, userId))
    .returning({ id: sessions.idHash });
  return rows.length;
}

/** Deletes a session and returns its ID token (for the IdP's sign-out hint), if it existed. */
export async function deleteSession(db: Db, id: string): Promise<{ idToken: string | null } | null> {
  const [row] = await db
    .delete(sessions)
    .where(eq(sessions.idHash, hashSessionId(id)))
    .returning({ idToken: sessions.idToken });
  return row ?? null;
}

/** Removes sessions that can no longer be used (housekeeping; resolveSession already refuses them). */
export async function purgeExpiredSessions(db: Db, timeouts: SessionTimeouts): Promise<void> {
  const now = Date.now();
  await db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, new Date(now)),
        lt(sessions.lastSeenAt, new Date(now - timeouts.idleMinutes * 60_000)),
      ),
    );
}
