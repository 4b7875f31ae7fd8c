import { createHash, randomBytes } from 'node:crypto';
import type { AuditActionOf } from '@lp/contract/audit/actions';
import { type VendorRole, vendorRoles } from '@lp/contract/user/schemas';
import { isValidEmail, normaliseEmail } from '@lp/domain/contacts';
import { and, eq, gt, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { idpAccounts, passwordLinks, users } from '../../db/schema.ts';
import { revokeApiTokens } from '../api-tokens/service.ts';
import { type AuditActor, recordAudit } from '../audit/service.ts';
import { removeContactEverywhere } from '../portal-access/service.ts';
import { hashPassword } from './password.ts';
import { deleteUserSessions } from './sessions.ts';

/**
 * What an operator does to people with the CLI (issue 20 §2-3, decision 042): add a built-in provider user with a
 * set-password link, disable, enable, remove and re-link users. Each is one transaction with its audit entries.
 */

export class UserAdminError extends Error {}

/** A set-password link stays usable this long; a newer link replaces older ones. */
export const passwordLinkHours = 24;
export const passwordLinkPath = '/oidc/set-password';

const hashLinkSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

const userAudit = (
  tx: Db,
  actor: AuditActor,
  action: AuditActionOf<'auth.user.'>,
  email: string,
  change: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {},
) =>
  recordAudit(tx, actor, [{ customerNumber: null, action, object: { type: 'user', id: email }, ...change }]);

/** Roles as the operator typed them; unknown ones are refused (a typo must not grant nothing silently). */
export function checkVendorRoles(roles: readonly string[]): VendorRole[] {
  const unknown = roles.filter((r) => !(vendorRoles as readonly string[]).includes(r));
  if (unknown.length)
    throw new UserAdminError(`Unknown vendor role ${unknown.join(', ')}: use ${vendorRoles.join(', ')}`);
  return [...new Set(roles)] as VendorRole[];
}

/** Makes a set-password link for a built-in provider account; older links of the account stop working. */
async function newPasswordLink(tx: Db, accountId: string, publicUrl: string) {
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + passwordLinkHours * 3_600_000);
  await tx.delete(passwordLinks).where(eq(passwordLinks.idpAccountId, accountId));
  await tx
    .insert(passwordLinks)
    .values({ tokenHash: hashLinkSecret(secret), idpAccountId: accountId, expiresAt });
  return { url: `${publicUrl}${passwordLinkPath}/${secret}`, expiresAt };
}

/**
 * A new user of the built-in provider (the first vendor administrator of a production installation): no password
 * anybody knows (a random one, never shown), and a set-password link printed once.
 */
export async function addBuiltInUser(
  db: Db,
  actor: AuditActor,
  input: { email: string; name?: string; roles: VendorRole[]; publicUrl: string },
) {
  const email = normaliseEmail(input.email);
  if (!isValidEmail(email)) throw new UserAdminError(`Not an e-mail address: ${input.email}`);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(idpAccounts).where(eq(idpAccounts.email, email));
    if (existing)
      throw new UserAdminError(`${email} already has a built-in sign-in; use users password-link.`);
    const [account] = await tx
      .insert(idpAccounts)
      .values({
        email,
        name: input.name ?? email,
        roles: input.roles,
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
      })
      .returning();
    await userAudit(tx, actor, 'auth.user.added', email, {
      after: { name: account.name, vendorRoles: input.roles },
    });
    return newPasswordLink(tx, account.id, input.publicUrl);
  });
}

/** A fresh set-password link for a built-in provider user (a forgotten password, or the first link expired). */
export async function passwordLinkFor(db: Db, actor: AuditActor, email: string, publicUrl: string) {
  const wanted = normaliseEmail(email);
  return db.transaction(async (tx) => {
    const [account] = await tx.select().from(idpAccounts).where(eq(idpAccounts.email, wanted));
    if (!account)
      throw new UserAdminError(`No built-in sign-in for ${wanted}. See: npm run cli -- users list`);
    await userAudit(tx, actor, 'auth.user.password-link-issued', wanted);
    return newPasswordLink(tx, account.id, publicUrl);
  });
}

/** The account a set-password link opens, if the link is known and not expired. */
export async function accountOfPasswordLink(db: Db, secret: string) {
  const [row] = await db
    .select({ id: idpAccounts.id, email: idpAccounts.email })
    .from(passwordLinks)
    .innerJoin(idpAccounts, eq(idpAccounts.id, passwordLinks.idpAccountId))
    .where(and(eq(passwordLinks.tokenHash, hashLinkSecret(secret)), gt(passwordLinks.expiresAt, new Date())));
  return row ?? null;
}

/** Sets the password through a link, which is used up; false when the link is unknown or expired. */
export async function setPasswordWithLink(db: Db, secret: string, password: string): Promise<boolean> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [link] = await tx
      .delete(passwordLinks)
      .where(
        and(eq(passwordLinks.tokenHash, hashLinkSecret(secret)), gt(passwordLinks.expiresAt, new Date())),
      )
      .returning();
    if (!link) return false;
    const [account] = await tx
      .update(idpAccounts)
      .set({ passwordHash })
      .where(eq(idpAccounts.id, link.idpAccountId))
      .returning({ email: idpAccounts.email });
    await recordAudit(tx, { kind: 'user', id: null, name: account.email, requestId: null, clientIp: null }, [
      { customerNumber: null, action: 'auth.user.password-set', object: { type: 'user', id: account.email } },
    ]);
    return true;
  });
}

async function findUserRow(tx: Db, email: string) {
  const [user] = await tx
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)))
    .for('update');
  return user;
}

/**
 * The portal user with this e-mail; a built-in provider user who never signed in gets the row now, with the roles the
 * operator gave the sign-in (confirmed now: the operator is the one asking).
 */
export async function findOrCreateUser(tx: Db, email: string) {
  const user = await findUserRow(tx, email);
  if (user) return user;
  const [account] = await tx
    .select()
    .from(idpAccounts)
    .where(eq(idpAccounts.email, normaliseEmail(email)));
  if (!account)
    throw new UserAdminError(`No user with e-mail ${normaliseEmail(email)}. See: npm run cli -- users list`);
  const [created] = await tx
    .insert(users)
    .values({
      email: account.email,
      name: account.name,
      vendorRoles: account.roles,
      rolesConfirmedAt: new Date(),
    })
    .returning();
  return created;
}

/** Disables a user: every session ends and every token stops now; the user cannot sign in until enabled. */
export async function disableUser(db: Db, actor: AuditActor, email: string) {
  return db.transaction(async (tx) => {
    // A built-in provider user who never signed in gets the row that carries the block.
    const user = await findOrCreateUser(tx, email);
    if (user.disabledAt) return { alreadyDisabled: true, sessions: 0, tokens: 0 };
    await tx.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const sessionsEnded = await deleteUserSessions(tx, user.id);
    const tokens = await revokeApiTokens(tx, { userId: user.id }, actor);
    await userAudit(tx, actor, 'auth.user.disabled', user.email, {
      before: { disabled: false },
      after: { disabled: true, sessionsEnded, tokensRevoked: tokens },
    });
    return { alreadyDisabled: false, sessions: sessionsEnded, tokens };
  });
}

export async function enableUser(db: Db, actor: AuditActor, email: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const user = await findUserRow(tx, email);
    if (!user)
      throw new UserAdminError(
        `No user with e-mail ${normaliseEmail(email)}. See: npm run cli -- users list`,
      );
    if (!user.disabledAt) return false;
    await tx.update(users).set({ disabledAt: null }).where(eq(users.id, user.id));
    await userAudit(tx, actor, 'auth.user.enabled', user.email, {
      before: { disabled: true },
      after: { disabled: false },
    });
    return true;
  });
}

/**
 * Removes a person: the user (sessions, tokens, saved views go with it), the built-in provider's sign-in and their
 * contact entry on every account, so signing in again through the provider brings back no access.
 */
export async function removeUser(db: Db, actor: AuditActor, email: string) {
  const wanted = normaliseEmail(email);
  return db.transaction(async (tx) => {
    const user = await findUserRow(tx, wanted);
    const [account] = await tx.delete(idpAccounts).where(eq(idpAccounts.email, wanted)).returning();
    const accounts = await removeContactEverywhere(tx, actor, wanted);
    if (!user && !account && accounts.length === 0)
      throw new UserAdminError(`No user with e-mail ${wanted}. See: npm run cli -- users list`);
    let tokens = 0;
    if (user) {
      tokens = await revokeApiTokens(tx, { userId: user.id }, actor);
      await tx.delete(users).where(eq(users.id, user.id));
    }
    await userAudit(tx, actor, 'auth.user.removed', wanted, {
      before: {
        name: user?.name ?? account?.name ?? null,
        vendorRoles: user?.vendorRoles ?? account?.roles ?? [],
      },
      after: { tokensRevoked: tokens, accounts },
    });
    return { accounts, tokens };
  });
}

/**
 * Forgets the provider identity a user is bound to (one user, or all: after moving to another provider); the next
 * sign-in with a verified e-mail binds again. Returns how many users were unbound.
 */
export async function relinkUsers(db: Db, actor: AuditActor, who: { email?: string; all?: boolean }) {
  return db.transaction(async (tx) => {
    const where = who.all ? isNotNull(users.idpSubject) : eq(users.email, normaliseEmail(who.email ?? ''));
    const rows = await tx
      .select({ email: users.email, issuer: users.idpIssuer, subject: users.idpSubject })
      .from(users)
      .where(where);
    if (!who.all && rows.length === 0)
      throw new UserAdminError(
        `No user with e-mail ${normaliseEmail(who.email ?? '')}. See: npm run cli -- users list`,
      );
    const bound = rows.filter((r) => r.subject !== null);
    if (!bound.length) return 0;
    await tx
      .update(users)
      .set({ idpIssuer: null, idpSubject: null })
      .where(and(where, isNotNull(users.idpSubject)));
    for (const r of bound)
      await userAudit(tx, actor, 'auth.user.relinked', r.email, {
        before: { issuer: r.issuer, subject: r.subject },
        after: { issuer: null, subject: null },
      });
    return bound.length;
  });
}
