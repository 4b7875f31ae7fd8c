import fs from 'node:fs';
import os from 'node:os';
import type { Db } from '@lp/server/db/database';
import {
  checkpointDir,
  checkpointFiles,
  checkpointKey,
  missingKeyText,
  publicKeyFromPem,
  readCheckpoints,
} from '@lp/server/features/audit/checkpoint-file';
import { makeCheckpoint } from '@lp/server/features/audit/checkpoint-service';
import { verifyAudit } from '@lp/server/features/audit/verify-service';
import type { Config } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

/** `audit verify` and `audit checkpoint` (decisions 039 and 044). */

/** What the server would log goes to stderr as lines: stdout is the command's answer. */
function stderrLog(say: Output): AppContext['log'] {
  const line = (level: string) => (fields: unknown, message?: string) =>
    say.err(`${level}: ${message ?? ''} ${JSON.stringify(fields)}`);
  return {
    info: line('info'),
    warn: line('warn'),
    error: line('error'),
    debug: () => {},
  } as unknown as AppContext['log'];
}

function readKey(config: Config, publicKeyFile: string | undefined) {
  if (publicKeyFile) {
    try {
      return publicKeyFromPem(fs.readFileSync(publicKeyFile, 'utf8'));
    } catch (e) {
      throw new CommandError(`--public-key ${publicKeyFile}: ${(e as Error).message}`);
    }
  }
  const key = checkpointKey(config, { create: false });
  if (!key)
    throw new CommandError(
      `${missingKeyText(config)}, or give the checkpoints' public key with --public-key FILE.`,
    );
  return key.publicKey;
}

export const audit = {
  /**
   * Walks every chain (or the account's) and checks it against every checkpoint of the folder; exit code 1
   * naming the first entry affected of each broken chain, and each checkpoint file that cannot be trusted.
   */
  async verify(
    db: Db,
    config: Config,
    args: { account?: string; checkpoints?: string; publicKey?: string; json: boolean },
    say: Output,
  ) {
    const out = say.out;
    const dir = args.checkpoints ?? checkpointDir(config);
    if (args.checkpoints && !fs.existsSync(dir)) throw new CommandError(`No folder ${dir}.`);
    const files = checkpointFiles(dir);
    const { checkpoints, refused } = files.length
      ? readCheckpoints(dir, readKey(config, args.publicKey))
      : { checkpoints: [], refused: [] };
    const checks = await verifyAudit(
      db,
      args.account,
      checkpoints.map((c) => c.checkpoint),
    );
    const bad = checks.filter((c) => !c.ok);
    const latest = checkpoints.at(-1)?.checkpoint.at ?? null;
    if (args.json) {
      out(
        JSON.stringify({ checks, checkpoints: { dir, used: checkpoints.length, latest, refused } }, null, 2),
      );
    } else {
      for (const c of bad)
        out(
          `chain ${c.chain}: ${c.problem?.reason} at entry ${c.problem?.seq} (${c.entries} entries verified before it)`,
        );
      for (const r of refused) out(`checkpoint ${r.file}: ${r.reason}`);
      const entries = checks.reduce((n, c) => n + c.entries, 0);
      out(
        bad.length
          ? `${bad.length} of ${checks.length} audit chains are broken.`
          : `All ${checks.length} audit chains verify (${entries} entries).`,
      );
      out(
        checkpoints.length
          ? `Checked against ${checkpoints.length} checkpoints in ${dir} (the latest of ${latest}).`
          : `No checkpoints in ${dir}: a truncated or rolled-back log, or history rewritten with the log's own hash, cannot be detected.`,
      );
      if (refused.length) out(`${refused.length} checkpoint files cannot be trusted.`);
    }
    return bad.length || refused.length ? 1 : 0;
  },

  /** Checks the chains against the previous checkpoint and writes a new one now; exit code 1 when the check fails. */
  async checkpoint(db: Db, config: Config, json: boolean, say: Output) {
    const out = say.out;
    let outcome: Awaited<ReturnType<typeof makeCheckpoint>>;
    try {
      outcome = await makeCheckpoint(
        { db, config, log: stderrLog(say) },
        { at: new Date(), period: null, node: `${os.hostname()}:cli` },
      );
    } catch (e) {
      throw new CommandError((e as Error).message);
    }
    if (json) out(JSON.stringify(outcome, null, 2));
    else {
      for (const p of outcome.verification.problems)
        out(p.chain ? `chain ${p.chain}: ${p.reason} at entry ${p.seq}` : p.reason);
      out(
        outcome.file
          ? `Checkpoint ${outcome.dir}/${outcome.file}: ${outcome.chains} chains, ${outcome.entries} entries.`
          : `No new checkpoint: nothing changed since the last one in ${outcome.dir}.`,
      );
      out(
        outcome.verification.ok
          ? 'The chains match the previous checkpoint.'
          : 'Verification failed: the log does not match its checkpoints.',
      );
    }
    return outcome.verification.ok ? 0 : 1;
  },
};
