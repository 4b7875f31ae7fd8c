import type { Db } from '@lp/server/db/database';
import { idpAccounts, users } from '@lp/server/db/schema';
import { createApiToken, revokeApiTokens } from '@lp/server/features/api-tokens/service';
import { eq, sql } from 'drizzle-orm';
import { cliActor } from './cli-actor.ts';
import { CommandError } from './errors.ts';

/**
 * The portal user with this e-mail; a built-in IdP account that never signed in gets its user row now, its roles
 * confirmed by the operator who asked. A disabled user gets no token.
 */
async function findUser(db: Db, email: string) {
  const wanted = email.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, wanted));
  if (user) return user;
  const [account] = await db
    .select()
    .from(idpAccounts)
    .where(eq(sql`lower(${idpAccounts.email})`, wanted));
  if (!account) throw new CommandError(`No user with e-mail ${email}. See: npm run cli -- users list`);
  const [created] = await db
    .insert(users)
    .values({
      email: account.email.toLowerCase(),
      name: account.name,
      vendorRoles: account.roles,
      rolesConfirmedAt: new Date(),
    })
    .returning();
  return created;
}

export const tokens = {
  async create(
    db: Db,
    options: { email: string; name?: string; expiresInDays: number },
    out: (line: string) => void,
  ) {
    const user = await findUser(db, options.email);
    if (user.disabledAt) throw new CommandError(`${user.email} is disabled: enable the user first.`);
    const { row, token } = await createApiToken(
      db,
      user.id,
      { name: options.name ?? 'command line', expiresInDays: options.expiresInDays },
      cliActor(),
    );
    out(token);
    process.stderr.write(
      `Token ${row.id} for ${user.email}, expires ${row.expiresAt?.toISOString().slice(0, 10)} (in ${options.expiresInDays} days). Use it as "Authorization: Bearer <token>".\n`,
    );
    return 0;
  },

  async revoke(db: Db, by: { user?: string; id?: string }, out: (line: string) => void) {
    if (by.id) {
      const n = await revokeApiTokens(db, { tokenId: by.id }, cliActor());
      if (n === 0) throw new CommandError(`No active token with id ${by.id}.`);
      out(`Revoked token ${by.id}.`);
      return 0;
    }
    const user = await findUser(db, by.user!);
    const n = await revokeApiTokens(db, { userId: user.id }, cliActor());
    out(`Revoked ${n} token${n === 1 ? '' : 's'} of ${user.email}.`);
    return 0;
  },
};
