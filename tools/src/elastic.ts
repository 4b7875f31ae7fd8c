import type { Db } from '@lp/server/db/database';
import {
  issueServerCredential,
  revokeServerCredential,
} from '@lp/server/features/cls-api/server-credentials';
import { reconcile } from '@lp/server/features/ledger/service';
import { elasticServersOf } from '@lp/server/features/license-servers/service';
import { cliActor } from './cli-actor.ts';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

export const elastic = {
  /** Issues a license-server credential; prints only the token. */
  async issue(db: Db, customerNumber: string, elasticServerId: string | undefined, say: Output) {
    const servers = await elasticServersOf(db, customerNumber);
    const target = elasticServerId ?? servers[0]?.hostIdentity;
    if (!target) throw new CommandError(`Account ${customerNumber} has no active elastic license server.`);
    try {
      const { id, token } = await issueServerCredential(
        db,
        { customerNumber, elasticServerId: target, createdBy: 'cli' },
        cliActor(),
      );
      say.out(token);
      say.err(
        `Credential ${id} for elastic license server ${target} of account ${customerNumber}. Send it as "Authorization: Bearer <token>" to /cls/v1/*.`,
      );
      return 0;
    } catch (e) {
      throw new CommandError((e as Error).message);
    }
  },

  async revoke(db: Db, id: string, say: Output) {
    if (!(await revokeServerCredential(db, id, cliActor())))
      throw new CommandError(`No active credential ${id}.`);
    say.out(`Revoked credential ${id}.`);
    return 0;
  },

  /** Prints the ledger invariants per account; exit code 1 when any account does not balance. */
  async reconcile(db: Db, customerNumber: string | undefined, json: boolean, say: Output) {
    const out = say.out;
    const rows = await reconcile(db, customerNumber);
    if (json) out(JSON.stringify(rows, null, 2));
    else {
      out('account    sessions        drawn      overage  adjustments  ent. used    rollups  balanced');
      const n = (x: number) => x.toFixed(2).padStart(12);
      for (const r of rows)
        out(
          `${r.customerNumber.padEnd(9)}${n(r.sessions)} ${n(r.drawn)} ${n(r.overage)} ${n(r.adjustments)} ${n(r.entitlementUsed)} ${n(r.rollups)}  ${r.balanced ? 'yes' : 'NO'}`,
        );
      const bad = rows.filter((r) => !r.balanced).length;
      out(bad ? `${bad} of ${rows.length} accounts do not balance.` : `All ${rows.length} accounts balance.`);
    }
    return rows.every((r) => r.balanced) ? 0 : 1;
  },
};
