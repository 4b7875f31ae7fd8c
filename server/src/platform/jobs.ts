import { hostname } from 'node:os';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { jobRuns } from '../db/schema.ts';
import type { AppContext } from './context.ts';

/**
 * Database-backed jobs (decision 040). API nodes are stateless and several run at once: each polls, and a run —
 * a job name plus a run key such as the UTC day — is claimed by one node with a lease. A finished run never runs
 * again; a run whose node died (lease passed, not finished) or failed (lease set to the retry time) is claimed
 * again by whichever node polls next. Jobs must still be safe to repeat: a node can die after the work's last
 * write and before it marks the run finished.
 */

export interface Job {
  name: string;
  /** The run `now` belongs to; one run per key (a daily job: the UTC day) */
  runKeyOf: (now: Date) => string;
  run: (ctx: AppContext, runKey: string, now: Date) => Promise<void>;
}

export interface JobRunnerOptions {
  /** This node's name in job_runs (default: host name and process id) */
  node?: string;
  pollIntervalMs?: number;
  /** How long a claim holds before another node may take the run over */
  leaseMs?: number;
  /** When a failed run is tried again */
  retryDelayMs?: number;
  now?: () => Date;
}

const defaults = {
  pollIntervalMs: 5 * 60_000,
  leaseMs: 15 * 60_000,
  retryDelayMs: 10 * 60_000,
};

export const defaultNodeName = () => `${hostname()}:${process.pid}`;

/** Claims the run unless it is finished or another node's lease still holds; true when this node has it. */
export async function claimRun(
  db: Db,
  name: string,
  runKey: string,
  node: string,
  now: Date,
  leaseMs: number,
) {
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const claimed = await db
    .insert(jobRuns)
    .values({ name, runKey, node, claimedAt: now, leaseUntil })
    .onConflictDoUpdate({
      target: [jobRuns.name, jobRuns.runKey],
      set: { node, claimedAt: now, leaseUntil, attempts: sql`${jobRuns.attempts} + 1` },
      setWhere: and(isNull(jobRuns.finishedAt), lt(jobRuns.leaseUntil, now)),
    })
    .returning({ node: jobRuns.node });
  return claimed.length === 1;
}

async function settleRun(
  db: Db,
  name: string,
  runKey: string,
  node: string,
  outcome: Partial<typeof jobRuns.$inferInsert>,
) {
  await db
    .update(jobRuns)
    .set(outcome)
    .where(and(eq(jobRuns.name, name), eq(jobRuns.runKey, runKey), eq(jobRuns.node, node)));
}

/** One poll: every job whose current run is free is claimed, run and settled. Answers the runs this node did. */
export async function runDueJobs(ctx: AppContext, jobs: readonly Job[], options: JobRunnerOptions = {}) {
  const o = { ...defaults, ...options };
  const node = o.node ?? defaultNodeName();
  const now = o.now?.() ?? new Date();
  const ran: { name: string; runKey: string; ok: boolean }[] = [];
  for (const job of jobs) {
    const runKey = job.runKeyOf(now);
    if (!(await claimRun(ctx.db, job.name, runKey, node, now, o.leaseMs))) continue;
    const started = performance.now();
    const count = (outcome: 'succeeded' | 'failed') => {
      ctx.metrics?.jobRuns.inc({ job: job.name, outcome });
      ctx.metrics?.jobDuration.observe({ job: job.name }, (performance.now() - started) / 1000);
    };
    try {
      await job.run(ctx, runKey, now);
      count('succeeded');
      await settleRun(ctx.db, job.name, runKey, node, { finishedAt: o.now?.() ?? new Date(), error: null });
      ran.push({ name: job.name, runKey, ok: true });
    } catch (e) {
      count('failed');
      ctx.log.error({ err: e, job: job.name, runKey }, 'job run failed');
      const retryAt = new Date((o.now?.() ?? new Date()).getTime() + o.retryDelayMs);
      await settleRun(ctx.db, job.name, runKey, node, {
        leaseUntil: retryAt,
        error: e instanceof Error ? e.message : String(e),
      });
      ran.push({ name: job.name, runKey, ok: false });
    }
  }
  return ran;
}

/** Polls until stopped; the returned function stops it and waits for a poll in progress. */
export function startJobRunner(ctx: AppContext, jobs: readonly Job[], options: JobRunnerOptions = {}) {
  const o = { ...defaults, ...options };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const poll = () => runDueJobs(ctx, jobs, o).catch((e) => ctx.log.error({ err: e }, 'job poll failed'));
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll().finally(schedule);
    }, o.pollIntervalMs);
    timer.unref?.();
  };
  running = poll().finally(schedule);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

/** The run key of a daily job: the UTC day. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);
