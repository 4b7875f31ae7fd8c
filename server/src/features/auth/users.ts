import type { VendorRole } from '@lp/contract/user/schemas';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema.ts';
import type { ProviderIdentity } from './claims.ts';
import { decideSignIn, type KnownUser, type SignInDecision } from './sign-in-identity.ts';

export interface SignedInUser {
  email: string;
  name: string;
  vendorRoles: VendorRole[];
}

/** The binding key of the built-in provider: its issuer URL follows PUBLIC_URL, the users it knows do not. */
export const builtInIssuerKey = 'built-in';

const known = (row: typeof users.$inferSelect | undefined): KnownUser | null =>
  row
    ? {
        id: row.id,
        email: row.email,
        idpIssuer: row.idpIssuer,
        idpSubject: row.idpSubject,
        disabled: row.disabledAt !== null,
      }
    : null;

/**
 * Lands a completed sign-in on a portal user (decision 042), in the caller's transaction: creates the user or binds
 * it to (issuer, subject) on its first sign-in, then takes the provider's vendor roles (confirmed now) and, for a
 * verified address, its name. A refused sign-in changes nothing.
 */
export async function signInUser(
  tx: Db,
  issuer: string,
  identity: ProviderIdentity,
  options: { acceptMissingEmailVerified: boolean },
): Promise<{ decision: SignInDecision; userId: string | null }> {
  const email = identity.email;
  const [byEmail] = email ? await tx.select().from(users).where(eq(users.email, email)).for('update') : [];
  const [bySubject] = await tx
    .select()
    .from(users)
    .where(and(eq(users.idpIssuer, issuer), eq(users.idpSubject, identity.subject)));
  const decision = decideSignIn(identity, issuer, options, known(byEmail), known(bySubject));
  if (!decision.ok || !email) return { decision, userId: null };
  const now = new Date();
  const roles = { vendorRoles: identity.vendorRoles, rolesConfirmedAt: now, lastLoginAt: now };
  const binding = decision.bind ? { idpIssuer: issuer, idpSubject: identity.subject } : {};
  const name = decision.updateName && identity.name ? { name: identity.name } : {};
  if (!decision.userId) {
    const [created] = await tx
      .insert(users)
      .values({ email, name: identity.name ?? email, ...roles, ...binding })
      .returning({ id: users.id });
    return { decision, userId: created.id };
  }
  await tx
    .update(users)
    .set({ ...roles, ...binding, ...name })
    .where(eq(users.id, decision.userId));
  return { decision, userId: decision.userId };
}

/**
 * Creates or refreshes a user directly (test fixtures, the CLI's built-in accounts): name and vendor roles as given,
 * roles confirmed now. Email is the stable key (lowercased).
 */
export async function upsertUser(db: Db, user: SignedInUser): Promise<{ id: string }> {
  const email = user.email.trim().toLowerCase();
  const now = new Date();
  const [row] = await db
    .insert(users)
    .values({
      email,
      name: user.name,
      vendorRoles: user.vendorRoles,
      lastLoginAt: now,
      rolesConfirmedAt: now,
    })
    .onConflictDoUpdate({
      target: users.email,
      set: {
        name: sql`excluded.name`,
        vendorRoles: sql`excluded.vendor_roles`,
        lastLoginAt: sql`excluded.last_login_at`,
        rolesConfirmedAt: sql`excluded.roles_confirmed_at`,
      },
    })
    .returning({ id: users.id });
  return row;
}
