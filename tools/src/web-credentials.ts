import type { Db } from '@lp/server/db/database';
import {
  issueWebCredential,
  listWebCredentials,
  revokeWebCredential,
} from '@lp/server/features/web-sessions/web-credentials';
import { cliActor } from './cli-actor.ts';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

/** Vendor staff's per-product credentials of the web-license API (/web/v1, decision 071). */
export const webCredentials = {
  /** Issues a credential for the product's part numbers; prints only the token (shown this once). */
  async issue(db: Db, product: string, partNumbers: string[], say: Output) {
    try {
      const { id, token } = await issueWebCredential(
        db,
        { product, partNumbers, createdBy: 'cli' },
        cliActor(),
      );
      say.out(token);
      say.err(
        `Credential ${id} for ${product} (${partNumbers.join(', ')}). Send it as "Authorization: Bearer <token>" to /web/v1/*.`,
      );
      return 0;
    } catch (e) {
      throw new CommandError((e as Error).message);
    }
  },

  async list(db: Db, json: boolean, say: Output) {
    const rows = await listWebCredentials(db);
    if (json) {
      say.out(JSON.stringify(rows, null, 2));
      return 0;
    }
    for (const r of rows)
      say.out(
        `${r.id}  ${r.product}  ${r.partNumbers.join(',')}  issued ${r.createdAt.toISOString()} by ${r.createdBy}${r.revokedAt ? `  revoked ${r.revokedAt.toISOString()}` : ''}`,
      );
    if (!rows.length) say.err('No web-license credentials.');
    return 0;
  },

  async revoke(db: Db, id: string, say: Output) {
    if (!(await revokeWebCredential(db, id, cliActor())))
      throw new CommandError(`No active web-license credential ${id}.`);
    say.out(`Revoked web-license credential ${id}.`);
    return 0;
  },
};
