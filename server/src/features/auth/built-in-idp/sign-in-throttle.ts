import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';
import { signInAddressFailures, signInFailures } from '../../../db/schema.ts';

/**
 * Sign-in throttling of the built-in provider (decision 017, revised). Two counters, both in the database so
 * every API node sees them:
 * - per e-mail and client address: the first `addressMaxFailures` failures are free, then each failure locks
 *   that pair for 1 minute, doubling up to `addressMaxLockMinutes`; forgotten a day after the last failure;
 * - per e-mail, from all addresses, a much higher ceiling: past `accountMaxFailures` within
 *   `accountWindowMinutes`, addresses the user has never signed in from are refused for that long, while the
 *   addresses the user signed in from before are only slowed (every failure there locks the pair).
 * A stranger who can name a user therefore locks out only his own addresses, never the user at home.
 */
export interface SignInLimits {
  accountMaxFailures: number;
  accountWindowMinutes: number;
  addressMaxFailures: number;
  addressMaxLockMinutes: number;
}

/** Why an address may not try an e-mail now: its own pair is locked, or the e-mail is over its ceiling. */
export interface SignInRefusal {
  scope: 'address' | 'account';
  /** minutes to wait, rounded up */
  minutes: number;
}

export interface SignInKeys {
  email: string;
  pair: string;
}

/** Failures of a pair older than this are forgotten. */
const PAIR_MEMORY_MS = 24 * 3_600_000;
/** An address the user signed in from counts as theirs this long. */
const KNOWN_ADDRESS_MS = 90 * 24 * 3_600_000;

const hmac = (secret: Buffer, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

/**
 * The counters' keys: HMACs with the app secret, so the tables never hold the addresses people typed or the
 * client addresses, and every API node (same secret) computes the same keys.
 */
export function signInKeys(secret: Buffer, email: string, clientAddress: string): SignInKeys {
  return {
    email: hmac(secret, `sign-in:${email}`),
    pair: hmac(secret, `sign-in-pair:${email}\n${clientAddress}`),
  };
}

const minutesUntil = (until: Date, now: Date) =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));

async function pairRow(db: Db, key: string) {
  const [row] = await db.select().from(signInAddressFailures).where(eq(signInAddressFailures.pairKey, key));
  return row;
}

const isKnown = (row: { succeededAt: Date | null } | undefined, now: Date) =>
  Boolean(row?.succeededAt && now.getTime() - row.succeededAt.getTime() < KNOWN_ADDRESS_MS);

/** Whether this address may try this e-mail now; asked before the account is even looked up. */
export async function signInRefusal(
  db: Db,
  keys: SignInKeys,
  limits: SignInLimits,
): Promise<SignInRefusal | null> {
  const now = new Date();
  const pair = await pairRow(db, keys.pair);
  if (pair?.lockedUntil && pair.lockedUntil > now)
    return { scope: 'address', minutes: minutesUntil(pair.lockedUntil, now) };
  if (isKnown(pair, now)) return null;
  const [account] = await db
    .select({ lockedUntil: signInFailures.lockedUntil })
    .from(signInFailures)
    .where(and(eq(signInFailures.emailKey, keys.email), gt(signInFailures.lockedUntil, now)));
  return account ? { scope: 'account', minutes: limits.accountWindowMinutes } : null;
}

/** Counts the e-mail's failure from all addresses (one statement, safe with nodes racing); answers whether it is over. */
async function countAccountFailure(db: Db, key: string, limits: SignInLimits, now: Date): Promise<boolean> {
  const windowMs = limits.accountWindowMinutes * 60_000;
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
      lockedUntil: limits.accountMaxFailures <= 1 ? new Date(lockUntil) : null,
    })
    .onConflictDoUpdate({
      target: t.emailKey,
      set: {
        failures,
        windowStartedAt: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${t.windowStartedAt} end`,
        lockedUntil: sql`case when ${failures} >= ${limits.accountMaxFailures} then ${lockUntil}::timestamptz else null end`,
      },
    })
    .returning({ lockedUntil: t.lockedUntil });
  await db
    .delete(t)
    .where(
      and(lte(t.windowStartedAt, new Date(windowStart)), or(isNull(t.lockedUntil), lte(t.lockedUntil, now))),
    );
  return row.lockedUntil !== null && row.lockedUntil > now;
}

/**
 * Counts one failed sign-in for the e-mail and for the pair, and answers the refusal the next attempt from this
 * address will get (null: it may try again at once).
 */
export async function recordSignInFailure(
  db: Db,
  keys: SignInKeys,
  limits: SignInLimits,
): Promise<SignInRefusal | null> {
  const now = new Date();
  const accountOver = await countAccountFailure(db, keys.email, limits, now);
  const t = signInAddressFailures;
  const forgotten = sql`coalesce(${t.lastFailureAt}, '-infinity'::timestamptz) <= ${new Date(now.getTime() - PAIR_MEMORY_MS).toISOString()}::timestamptz`;
  const [pair] = await db
    .insert(t)
    .values({ pairKey: keys.pair, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: t.pairKey,
      set: {
        failures: sql`case when ${forgotten} then 1 else ${t.failures} + 1 end`,
        lastFailureAt: now,
      },
    })
    .returning();
  // Over the e-mail's ceiling, the user's own addresses have no free failures left: each one waits.
  const known = isKnown(pair, now);
  const free = accountOver && known ? 0 : limits.addressMaxFailures;
  const over = pair.failures - free;
  await purgeDeadPairs(db, now);
  if (over > 0) {
    const minutes = Math.min(2 ** (over - 1), limits.addressMaxLockMinutes);
    const until = new Date(now.getTime() + minutes * 60_000);
    await db
      .update(t)
      .set({
        lockedUntil: sql`greatest(coalesce(${t.lockedUntil}, ${until.toISOString()}::timestamptz), ${until.toISOString()}::timestamptz)`,
      })
      .where(eq(t.pairKey, keys.pair));
    return { scope: 'address', minutes };
  }
  return accountOver && !known ? { scope: 'account', minutes: limits.accountWindowMinutes } : null;
}

/** Pairs with nothing to remember (failures forgotten, no lock, no recent sign-in) are dead weight. */
async function purgeDeadPairs(db: Db, now: Date) {
  const t = signInAddressFailures;
  await db
    .delete(t)
    .where(
      and(
        or(isNull(t.lastFailureAt), lte(t.lastFailureAt, new Date(now.getTime() - PAIR_MEMORY_MS))),
        or(isNull(t.lockedUntil), lte(t.lockedUntil, now)),
        or(isNull(t.succeededAt), lte(t.succeededAt, new Date(now.getTime() - KNOWN_ADDRESS_MS))),
      ),
    );
}

/**
 * A successful sign-in clears the pair's failures and remembers the address as the user's. The e-mail's count
 * from all addresses stays: the user signing in does not end an attack from elsewhere.
 */
export async function recordSignInSuccess(db: Db, keys: SignInKeys): Promise<void> {
  const now = new Date();
  const cleared = { failures: 0, lastFailureAt: null, lockedUntil: null, succeededAt: now };
  await db
    .insert(signInAddressFailures)
    .values({ pairKey: keys.pair, ...cleared })
    .onConflictDoUpdate({ target: signInAddressFailures.pairKey, set: cleared });
}
