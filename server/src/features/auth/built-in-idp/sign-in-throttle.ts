import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { signInFailures } from '../../../db/schema.ts';

/** Failed sign-ins allowed per e-mail within a window, and how long the address is then locked. */
export interface AccountThrottle {
  maxFailures: number;
  lockoutMinutes: number;
}

/**
 * The counter's key: an HMAC of the typed address with the app secret, so the table never holds the
 * addresses people mistyped or probed, and every API node (same secret) computes the same key.
 */
export function signInKey(secret: Buffer, email: string): string {
  return createHmac('sha256', secret).update(`sign-in:${email}`).digest('base64url');
}

/** Whether the address is locked now; asked before the account is even looked up. */
export async function isSignInLocked(db: Db, key: string): Promise<boolean> {
  const [row] = await db
    .select({ key: signInFailures.emailKey })
    .from(signInFailures)
    .where(and(eq(signInFailures.emailKey, key), gt(signInFailures.lockedUntil, new Date())));
  return row !== undefined;
}

/**
 * Counts one failed sign-in for the address in one statement (safe with several nodes signing in
 * at once) and answers whether the address is now locked. The window is as long as the lockout:
 * failures older than that start a new count.
 */
export async function recordSignInFailure(db: Db, key: string, limits: AccountThrottle): Promise<boolean> {
  const now = new Date();
  const windowMs = limits.lockoutMinutes * 60_000;
  const windowStart = new Date(now.getTime() - windowMs).toISOString();
  const lockUntil = new Date(now.getTime() + windowMs).toISOString();
  const t = signInFailures;
  const expired = sql`${t.windowStartedAt} <= ${windowStart}::timestamptz`;
  const failures = sql`case when ${expired} then 1 else ${t.failures} + 1 end`;
  const [row] = await db
    .insert(t)
    .values({
      emailKey: key,
      failures: 1,
      windowStartedAt: now,
      lockedUntil: limits.maxFailures <= 1 ? new Date(lockUntil) : null,
    })
    .onConflictDoUpdate({
      target: t.emailKey,
      set: {
        failures,
        windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${t.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${limits.maxFailures} then ${lockUntil}::timestamptz else null end`,
      },
    })
    .returning({ lockedUntil: t.lockedUntil });
  // Rows whose window and lock are over are dead weight: drop them while here.
  await db
    .delete(t)
    .where(
      and(lte(t.windowStartedAt, new Date(windowStart)), or(isNull(t.lockedUntil), lte(t.lockedUntil, now))),
    );
  return row.lockedUntil !== null && row.lockedUntil > now;
}

/** A successful sign-in clears the address's count. */
export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.emailKey, key));
}
