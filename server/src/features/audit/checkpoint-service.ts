import type { AuditCheckpointStatus } from '@lp/contract/audit/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { mayReadAllAuditLogs } from '@lp/domain/policy';
import type { AppContext } from '../../platform/context.ts';
import { defaultNodeName, type Job } from '../../platform/jobs.ts';
import { sendAccountEmail } from '../../platform/mail/mailer.ts';
import type { Principal } from '../../platform/principal.ts';
import {
  CHECKPOINT_FORMAT,
  type Checkpoint,
  type CheckpointProblem,
  checkpointDir,
  checkpointKey,
  latestCheckpoint,
  missingKeyText,
  signCheckpoint,
  writeCheckpointFile,
} from './checkpoint-file.ts';
import { authorizedScope } from './read-service.ts';
import { checkpointRunOfPeriod, insertCheckpointRun, lastCheckpointRuns } from './repository.ts';
import { verifySince } from './verify-service.ts';

/**
 * Audit checkpoints (decision 044): a periodic job (and `npm run cli -- audit checkpoint`) checks the chains
 * against the previous checkpoint, then anchors every chain's head in a new signed file, optionally e-mailed to
 * an audit address. The outcome is kept in audit_checkpoints for the Audit Log page.
 */

type CheckpointContext = Pick<AppContext, 'db' | 'config' | 'log'>;

/** A checkpoint lists at most this many problems (the first of each chain; `audit verify` lists them all). */
const MAX_PROBLEMS = 50;

export interface CheckpointOutcome {
  at: string;
  /** The file written, or null when no head moved and the verdict is unchanged since the previous checkpoint */
  file: string | null;
  dir: string;
  chains: number;
  entries: number;
  verification: Checkpoint['verification'];
}

const sameProblem = (a: CheckpointProblem, b: CheckpointProblem) =>
  a.chain === b.chain && a.seq === b.seq && a.reason === b.reason;

const sameAnchors = (a: Checkpoint['chains'], b: Checkpoint['chains']) =>
  a.length === b.length &&
  a.every((x, i) => x.chain === b[i].chain && x.seq === b[i].seq && x.hash === b[i].hash);

function emailHtml(outcome: { at: string; chains: number; entries: number; ok: boolean }, file: string) {
  return (
    `<p>Audit checkpoint of ${outcome.at}: ${outcome.chains} chains, ${outcome.entries} entries. ` +
    `Verification against the previous checkpoint ${outcome.ok ? 'passed' : '<strong>failed</strong>'}.</p>` +
    `<p>Keep the attached file (${file}) where the portal's database login cannot change it: ` +
    '<code>npm run cli -- audit verify --checkpoints FOLDER</code> checks the log against it.</p>'
  );
}

export async function makeCheckpoint(
  ctx: CheckpointContext,
  run: { at: Date; period: string | null; node: string },
): Promise<CheckpointOutcome> {
  const dir = checkpointDir(ctx.config);
  const key = checkpointKey(ctx.config, { create: true });
  if (!key) return recordMissingKey(ctx, run, dir);
  const { latest, refused } = latestCheckpoint(dir, key.publicKey);
  const previous = latest?.checkpoint;
  const { checks, heads } = await verifySince(ctx.db, previous);

  const found: CheckpointProblem[] = [
    ...refused.map((r) => ({ chain: null, seq: null, reason: `checkpoint ${r.file}: ${r.reason}` })),
    ...checks.flatMap((c) => (c.problem ? [{ chain: c.chain, ...c.problem }] : [])),
  ];
  // A failure stays on record: the next checkpoint anchors the log as found, which is no clean bill.
  const earlier = previous?.verification.ok === false ? previous.verification.problems : [];
  const problems = [...earlier, ...found.filter((p) => !earlier.some((e) => sameProblem(e, p)))];
  const verification = { ok: problems.length === 0, problems: problems.slice(0, MAX_PROBLEMS) };

  const chains = heads.filter((h) => h.seq > 0).map((h) => ({ chain: h.chain, seq: h.seq, hash: h.hash }));
  const entries = chains.reduce((n, c) => n + c.seq, 0);
  const at = run.at.toISOString();
  const unchanged =
    previous !== undefined &&
    sameAnchors(previous.chains, chains) &&
    previous.verification.ok === verification.ok &&
    previous.verification.problems.length === verification.problems.length &&
    refused.length === 0;
  let file: string | null = null;
  let content = '';
  if (!unchanged) {
    content = signCheckpoint(key, {
      format: CHECKPOINT_FORMAT,
      at,
      period: run.period,
      node: run.node,
      keyId: key.keyId,
      chainCount: chains.length,
      chains,
      verification,
    });
    file = writeCheckpointFile(dir, at, content);
  }
  await ctx.db.transaction(async (tx) => {
    await insertCheckpointRun(tx, {
      at: run.at,
      period: run.period,
      node: run.node,
      file,
      chains: chains.length,
      entries,
      ok: verification.ok,
      problems: verification.problems,
    });
    const to = ctx.config.AUDIT_CHECKPOINT_EMAIL;
    if (file && to)
      await sendAccountEmail(
        ctx,
        {
          customerNumber: null,
          to,
          subject: `Audit checkpoint ${at}${verification.ok ? '' : ' (verification failed)'}`,
          html: emailHtml({ at, chains: chains.length, entries, ok: verification.ok }, file),
          attachments: [{ filename: file, contentType: 'application/json', content }],
        },
        tx,
      );
  });
  if (!verification.ok)
    ctx.log.error({ problems: verification.problems }, 'audit log verification failed at the checkpoint');
  return { at, file, dir, chains: chains.length, entries, verification };
}

/** In prod the operator provides the key: without it nothing can be anchored, and the page says why. */
async function recordMissingKey(
  ctx: CheckpointContext,
  run: { at: Date; period: string | null; node: string },
  dir: string,
): Promise<CheckpointOutcome> {
  const verification = {
    ok: false,
    problems: [{ chain: null, seq: null, reason: missingKeyText(ctx.config) }],
  };
  await insertCheckpointRun(ctx.db, {
    ...run,
    file: null,
    chains: 0,
    entries: 0,
    ok: false,
    problems: verification.problems,
  });
  ctx.log.error({ dir }, verification.problems[0].reason);
  return { at: run.at.toISOString(), file: null, dir, chains: 0, entries: 0, verification };
}

/** The period `now` belongs to, named by its start: '2026-05-01T13:00Z' for an hourly checkpoint. */
export function checkpointPeriod(now: Date, minutes: number): string {
  const length = minutes * 60_000;
  return `${new Date(Math.floor(now.getTime() / length) * length).toISOString().slice(0, 16)}Z`;
}

/** One checkpoint per period across every API node (decision 040). */
export function auditCheckpointJob(minutes: number): Job {
  return {
    name: 'audit-checkpoint',
    runKeyOf: (now) => checkpointPeriod(now, minutes),
    run: async (ctx, period, now) => {
      // A node that died after recording its checkpoint and before finishing the run: done already.
      if (await checkpointRunOfPeriod(ctx.db, period)) return;
      await makeCheckpoint(ctx, { at: now, period, node: defaultNodeName() });
    },
  };
}

/**
 * The Audit Log page's line: the last checkpoint and the last check's verdict. Vendor staff see every problem;
 * an account's readers those of their account's chain.
 */
export async function checkpointStatus(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber?: string },
): Promise<AuditCheckpointStatus> {
  await authorizedScope(ctx, principal, request);
  const { checked, written } = await lastCheckpointRuns(ctx.db);
  const everything = mayReadAllAuditLogs(principal.vendorRoles);
  return {
    lastCheckpoint: written ? formatDateTime(written.at) : null,
    checkedAt: checked ? formatDateTime(checked.at) : null,
    ok: checked ? checked.ok : null,
    problems: (checked?.problems ?? []).filter((p) => everything || p.chain === request.customerNumber),
  };
}
