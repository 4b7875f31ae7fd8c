import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { apiTest } from '../../test/api-fixture.ts';
import { jobRuns } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import { type Job, runDueJobs, utcDay } from './jobs.ts';
import { createMetrics } from './metrics.ts';

/*
 * The database-backed job runner (decision 040): a run is done by one node however many poll, a finished run
 * never repeats, a run whose node died is taken over after its lease, and a failed run is retried later.
 */

/** What the runner is given: the fixture's context, and the job metrics. */
const test = apiTest.extend(
  'ctx',
  { scope: 'file' },
  async ({ appContext, database }): Promise<AppContext> => ({
    ...appContext,
    metrics: createMetrics(database),
  }),
);

const at = (iso: string) => () => new Date(iso);
const MINUTE = 60_000;

/** A daily job that counts its runs per key, optionally failing the first `failures` times. */
function countingJob(name: string, failures = 0) {
  const runs: string[] = [];
  let failed = 0;
  const job: Job = {
    name,
    runKeyOf: utcDay,
    run: async (_ctx, runKey) => {
      // Let the other pollers reach the claim while this one works.
      await new Promise((resolve) => setImmediate(resolve));
      if (failed < failures) {
        failed += 1;
        throw new Error(`failure ${failed}`);
      }
      runs.push(runKey);
    },
  };
  return { job, runs };
}

const rowOf = async (db: AppContext['db'], name: string, runKey: string) =>
  (
    await db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.name, name), eq(jobRuns.runKey, runKey)))
  )[0];

describe('runDueJobs', () => {
  test('runs a daily job once however many nodes poll, and again the next day', async ({ ctx }) => {
    const { job, runs } = countingJob('daily-once');
    const noon = at('2026-11-25T12:00:00Z');
    const polls = ['node-a', 'node-b', 'node-c', 'node-a', 'node-b'].map((node) =>
      runDueJobs(ctx, [job], { node, now: noon }),
    );
    const done = (await Promise.all(polls)).flat();
    expect(done).toEqual([{ name: 'daily-once', runKey: '2026-11-25', ok: true }]);
    expect(runs).toEqual(['2026-11-25']);
    // Later the same day, after a restart: nothing.
    expect(await runDueJobs(ctx, [job], { node: 'node-d', now: at('2026-11-25T23:59:00Z') })).toEqual([]);
    expect(await runDueJobs(ctx, [job], { node: 'node-d', now: at('2026-11-26T00:01:00Z') })).toEqual([
      { name: 'daily-once', runKey: '2026-11-26', ok: true },
    ]);
    expect(runs).toEqual(['2026-11-25', '2026-11-26']);
    expect(await rowOf(ctx.db, 'daily-once', '2026-11-25')).toMatchObject({ attempts: 1, error: null });
  });

  test('takes over a run whose node died, once the lease has passed', async ({ ctx }) => {
    const { job, runs } = countingJob('taken-over');
    // node-a claimed at 10:00 and died: no finish.
    await ctx.db.insert(jobRuns).values({
      name: 'taken-over',
      runKey: '2026-11-25',
      node: 'node-a',
      claimedAt: new Date('2026-11-25T10:00:00Z'),
      leaseUntil: new Date('2026-11-25T10:15:00Z'),
    });
    expect(await runDueJobs(ctx, [job], { node: 'node-b', now: at('2026-11-25T10:10:00Z') })).toEqual([]);
    expect(await runDueJobs(ctx, [job], { node: 'node-b', now: at('2026-11-25T10:16:00Z') })).toEqual([
      { name: 'taken-over', runKey: '2026-11-25', ok: true },
    ]);
    expect(runs).toEqual(['2026-11-25']);
    expect(await rowOf(ctx.db, 'taken-over', '2026-11-25')).toMatchObject({ node: 'node-b', attempts: 2 });
  });

  test('retries a failed run after the retry delay and records the error meanwhile', async ({ ctx }) => {
    const { job, runs } = countingJob('retried', 1);
    const options = { node: 'node-a', retryDelayMs: 10 * MINUTE };
    expect(await runDueJobs(ctx, [job], { ...options, now: at('2026-11-25T08:00:00Z') })).toEqual([
      { name: 'retried', runKey: '2026-11-25', ok: false },
    ]);
    expect(await rowOf(ctx.db, 'retried', '2026-11-25')).toMatchObject({
      error: 'failure 1',
      finishedAt: null,
    });
    expect(await runDueJobs(ctx, [job], { ...options, now: at('2026-11-25T08:05:00Z') })).toEqual([]);
    expect(await runDueJobs(ctx, [job], { ...options, now: at('2026-11-25T08:11:00Z') })).toEqual([
      { name: 'retried', runKey: '2026-11-25', ok: true },
    ]);
    expect(runs).toEqual(['2026-11-25']);
    expect(await rowOf(ctx.db, 'retried', '2026-11-25')).toMatchObject({ error: null, attempts: 2 });
    // Each run is counted by its outcome (decision 055).
    const counted = (await ctx.metrics!.jobRuns.get()).values.filter((v) => v.labels.job === 'retried');
    expect(counted.map((v) => [v.labels.outcome, v.value]).sort()).toEqual([
      ['failed', 1],
      ['succeeded', 1],
    ]);
  });
});
