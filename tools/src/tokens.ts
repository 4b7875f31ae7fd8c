import type { Db } from '@lp/server/db/database';
import { createApiToken, revokeApiTokens } from '@lp/server/features/api-tokens/service';
import { findOrCreateUser } from '@lp/server/features/auth/user-admin';
import { cliActor } from './cli-actor.ts';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';
import { admin } from './users.ts';

export const tokens = {
  async create(db: Db, options: { email: string; name?: string; expiresInDays: number }, say: Output) {
    const user = await admin(() => findOrCreateUser(db, options.email));
    if (user.disabledAt) throw new CommandError(`${user.email} is disabled: enable the user first.`);
    const { row, token } = await createApiToken(
      db,
      user.id,
      { name: options.name ?? 'command line', expiresInDays: options.expiresInDays },
      cliActor(),
    );
    say.out(token);
    say.err(
      `Token ${row.id} for ${user.email}, expires ${row.expiresAt?.toISOString().slice(0, 10)} (in ${options.expiresInDays} days). Use it as "Authorization: Bearer <token>".`,
    );
    return 0;
  },

  async revoke(db: Db, by: { user?: string; id?: string }, say: Output) {
    if (by.id) {
      const n = await revokeApiTokens(db, { tokenId: by.id }, cliActor());
      if (n === 0) throw new CommandError(`No active token with id ${by.id}.`);
      say.out(`Revoked token ${by.id}.`);
      return 0;
    }
    const user = await admin(() => findOrCreateUser(db, by.user!));
    const n = await revokeApiTokens(db, { userId: user.id }, cliActor());
    say.out(`Revoked ${n} token${n === 1 ? '' : 's'} of ${user.email}.`);
    return 0;
  },
};
