/**
 * Elastic benchmark (issue 4 §7). Every number comes with a baseline measured in the same run, because this
 * shared 2-core machine is noisy:
 *  ingest     events/s through ingestUsage (rating + ledger): batches of 1000 events, a session's start in one
 *             batch and its end in the next, 1 stream and N concurrent streams (one account each).
 *             Baseline: the same rows stored without rating or ledger (one INSERT + one UPDATE per batch).
 *  latency    POST /cls/v1/usage (1000 events) until POST /api/fetchUsage returns the batch's newest session
 *             and /api/getEntitlements shows the higher Used, over HTTP against the real app; idle and while
 *             two other license servers post batches back to back. Baseline: GET /healthz.
 *  statement  getStatement (what POST /api/statements calls) for one year of one account whose sessions were
 *             all posted through ingestUsage; also over HTTP. Baseline: `select 1`.
 *  block      the /api/fetchUsage block (20 rows, one account, 3 months, default sort StartTime asc with the
 *             StartTime/EndTime tie-breakers) at N rows: engine vs the very same SQL raw, plus the service
 *             (authorization + presentation) and the whole HTTP request.
 *  csv        30 000 rows as the CSV export asks them (service, limit 30000) turned into CSV with papaparse
 *             as the browser does; also over HTTP. Baseline: the same SQL raw.
 *  freshness  (issue 25 §3; only when named) a primary and a streaming standby of their own (initdb,
 *             pg_basebackup -R) and the app reading the standby (DATABASE_REPLICA_URL), then the primary alone:
 *             while N license servers post batches back to back for --freshness-seconds, a probe server posts
 *             a batch and a reader polls /api/fetchUsage until its newest session shows, again and again.
 *             Reports the reader's ingest-to-visible p50/p95/p99 and the app's own lp_usage_visible_seconds.
 *
 *   npx tsx bench/elastic.ts [--engine postgres|pglite] [--only ingest,latency,statement,block,csv,freshness]
 *     [--events N] [--streams N] [--statement-sessions N] [--rows N] [--iterations N] [--profile]
 *     [--freshness-seconds N]
 *     [--extra-sql "DDL"]   (run on the ingest/latency/statement database before measuring)
 *
 * ingest/latency/statement share one database, block/csv another (usage_sessions filled with N synthetic rows
 * like bench/query-engine.ts). postgres: fresh databases on BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), dropped afterwards; pglite: temporary folders, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { UsageEventInput } from '@lp/contract/cls/schemas';
import type { FilterRule } from '@lp/contract/query/schemas';
import { CSV_EXPORT_MAX, type UsageAttribute, type UsageRow } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import { type Database, migrateDatabase, openPostgres, queryRows } from '@lp/server/db/database';
import { ensureUsagePartitions } from '@lp/server/db/partitions';
import { type ElasticServer, ingestUsage } from '@lp/server/features/cls-api/ingest';
import { issueServerCredential } from '@lp/server/features/cls-api/server-credentials';
import { Rng } from '@lp/server/features/demo/prng';
import { getStatement } from '@lp/server/features/statements/service';
import { accountScope, usageSessionsResource } from '@lp/server/features/transactions/resource';
import { listUsage, usageSorting } from '@lp/server/features/transactions/service';
import { buildRateTable, usageEvents } from '@lp/server/harness/elastic-factories';
import { addContact, buildAccount } from '@lp/server/harness/factories';
import { startReplicaCluster } from '@lp/server/harness/replica-cluster';
import { signInAs } from '@lp/server/harness/sign-in';
import { createTestApp } from '@lp/server/harness/test-app';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import type { Principal } from '@lp/server/platform/principal';
import { compilePageQuery, queryPage } from '@lp/server/platform/query/engine';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import pg from 'pg';
import { type BenchDatabase, openBenchDatabase } from './bench-database.ts';
import {
  BATCH,
  DAY,
  day,
  elasticAccount,
  eventBatches,
  RATE_TABLE,
  RATES,
  sessionSpecs,
} from './usage-traffic.ts';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    only: { type: 'string', default: 'ingest,latency,statement,block,csv' },
    /** events per ingest configuration (1 stream, then N streams share the same total) */
    events: { type: 'string', default: '200000' },
    streams: { type: 'string', default: '4' },
    'statement-sessions': { type: 'string', default: '1000000' },
    rows: { type: 'string', default: '10000000' },
    iterations: { type: 'string', default: '200' },
    'freshness-seconds': { type: 'string', default: '120' },
    /** time spent per SQL statement during the 1-stream ingest */
    profile: { type: 'boolean', default: false },
    // DDL to try on the ingest/latency/statement database before measuring, e.g. "alter table ... set (fillfactor = 80)"
    'extra-sql': { type: 'string' },
  },
});
const engine = args.engine === 'pglite' ? 'pglite' : 'postgres';
const stages = new Set(args.only.split(','));
const ingestEvents = Number(args.events);
const streams = Number(args.streams);
const statementSessions = Number(args['statement-sessions']);
const totalRows = Number(args.rows);
const iterations = Number(args.iterations);
const dialect = new PgDialect();

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const ms = (n: number) => n.toFixed(n < 10 ? 2 : 1);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(0);

/** Result lines, printed together at the end as one Markdown table. */
const report: string[] = [];
function record(what: string, value: string, baseline: string, ratio: string, target: string, met?: boolean) {
  report.push(
    `| ${what} | ${value} | ${baseline} | ${ratio} | ${target} | ${met === undefined ? '' : met ? 'met' : '**missed**'} |`,
  );
  console.log(`  ${what}: ${value} (baseline ${baseline}, ratio ${ratio})`);
}

/** Times `measure` and `baseline` alternately (order swapped each round) so both see the same machine state. */
async function paired(
  rounds: number,
  warmup: number,
  measure: (i: number) => Promise<unknown>,
  baseline: (i: number) => Promise<unknown>,
) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds + warmup; i++) {
    let ta = 0;
    let tb = 0;
    for (const which of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const t = performance.now();
      if (which === 0) await measure(i);
      else await baseline(i);
      if (which === 0) ta = performance.now() - t;
      else tb = performance.now() - t;
    }
    if (i >= warmup) {
      a.push(ta);
      b.push(tb);
    }
  }
  return {
    p50: percentile(a, 50),
    p95: percentile(a, 95),
    base50: percentile(b, 50),
    base95: percentile(b, 95),
    n: a.length,
  };
}

async function ingestOrThrow(db: Database['db'], server: ElasticServer, events: readonly UsageEventInput[]) {
  const result = await ingestUsage(db, server, events);
  if (result.rejected.length)
    throw new Error(`ingest rejected ${JSON.stringify(result.rejected.slice(0, 3))}`);
}

/** Wall time per SQL statement (first words) while it runs: patches pg.Client.prototype.query. */
function profileQueries() {
  const totals = new Map<string, { n: number; ms: number }>();
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...params: unknown[]) {
    const first = params[0] as string | { text: string };
    const label = (typeof first === 'string' ? first : first.text).replace(/\s+/g, ' ').trim().slice(0, 70);
    const started = performance.now();
    const result = (original as (...a: unknown[]) => unknown).apply(this, params);
    if (result instanceof Promise)
      result.then(
        () => {
          const t = totals.get(label) ?? { n: 0, ms: 0 };
          t.n += 1;
          t.ms += performance.now() - started;
          totals.set(label, t);
        },
        () => {},
      );
    return result;
  } as typeof original;
  return {
    totals,
    stop: () => {
      pg.Client.prototype.query = original;
    },
  };
}

async function ingestStage(bench: BenchDatabase) {
  const { db } = bench.database;
  const to = Date.now() - 3 * DAY;
  const from = to - 30 * DAY;
  const sessionsPer = (n: number) => Math.floor(ingestEvents / n / 2);
  // Batches are built before timing; generating them is the license server's work, not the portal's.
  const plan = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, s) => [
      ...eventBatches(1000 + s, `${prefix}${s}`, sessionsPer(n), from, to),
    ]);

  const run = async (servers: ElasticServer[], batches: UsageEventInput[][][]) => {
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      servers.map(async (server, s) => {
        for (const batch of batches[s]) {
          const t = performance.now();
          await ingestOrThrow(db, server, batch);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const wall = performance.now() - started;
    const events = batches.flat(2).length;
    return {
      wall,
      events,
      rate: events / (wall / 1000),
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
    };
  };

  // Baseline: only storing what the batch says (new sessions inserted, ended ones updated), no rating/ledger.
  await db.execute(sql`create table bench_sessions (like usage_sessions including all)`);
  const store = async (server: ElasticServer, batch: UsageEventInput[]) => {
    const starts = batch.filter((e) => e.type === 'start');
    const ends = batch.filter((e) => e.type === 'end');
    await db.transaction(async (tx) => {
      if (starts.length)
        await tx.execute(sql`insert into bench_sessions (customer_number, session_id, start_time, last_seen_at,
            product, product_version, product_count, hours, charge, currency, username, host, project,
            session_status, referer_ip, server_id)
          select ${server.customerNumber}, "sessionId", "startTime", "time", product, "productVersion", "productCount",
            0, 0, 'USD', "user", host, project, 'Active', ip, ${server.elasticServerId}
          from jsonb_to_recordset(${JSON.stringify(starts)}::jsonb) as t("sessionId" text, "startTime" timestamptz,
            "time" timestamptz, product text, "productVersion" text, "productCount" int, "user" text, host text,
            project text, ip text)`);
      if (ends.length)
        await tx.execute(sql`update bench_sessions b set end_time = t."time", last_seen_at = t."time",
            session_status = 'Completed'
          from jsonb_to_recordset(${JSON.stringify(ends)}::jsonb) as t("sessionId" text, "time" timestamptz)
          where b.server_id = ${server.elasticServerId} and b.session_id = t."sessionId"`);
    });
  };
  const runBaseline = async (servers: ElasticServer[], batches: UsageEventInput[][][]) => {
    const started = performance.now();
    await Promise.all(
      servers.map(async (server, s) => {
        for (const batch of batches[s]) await store(server, batch);
      }),
    );
    return batches.flat(2).length / ((performance.now() - started) / 1000);
  };

  for (const n of [1, streams]) {
    const servers: ElasticServer[] = [];
    for (let s = 0; s < n; s++) servers.push(await elasticAccount(db, String(2_000_000 + n * 100 + s)));
    const batches = plan(`i${n}-`, n);
    const profiler = args.profile && n === 1 && engine === 'postgres' ? profileQueries() : null;
    const result = await run(servers, batches);
    profiler?.stop();
    const base = await runBaseline(servers, plan(`b${n}-`, n));
    console.log(
      `ingest ${n} stream(s): ${result.events} events in ${(result.wall / 1000).toFixed(1)} s, batch p50 ${ms(result.p50)} ms p95 ${ms(result.p95)} ms`,
    );
    record(
      `ingest, ${n} stream${n > 1 ? 's' : ''} (events/s; batch of ${BATCH} p50/p95 ${ms(result.p50)}/${ms(result.p95)} ms)`,
      Math.round(result.rate).toLocaleString('en-US'),
      `${Math.round(base).toLocaleString('en-US')} (store only)`,
      (result.rate / base).toFixed(2),
      '>= 20,000 events/s',
      result.rate >= 20_000,
    );
    if (profiler) {
      const dbTime = [...profiler.totals.values()].reduce((s, t) => s + t.ms, 0);
      console.log(
        `profile (1 stream): wall ${(result.wall / 1000).toFixed(2)} s, in SQL ${(dbTime / 1000).toFixed(2)} s, the rest (JS: validation, rating, building JSON) ${((result.wall - dbTime) / 1000).toFixed(2)} s`,
      );
      for (const [label, t] of [...profiler.totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12))
        console.log(`  ${(t.ms / 1000).toFixed(2).padStart(7)} s  ${String(t.n).padStart(6)}x  ${label}`);
    }
  }
  await db.execute(sql`drop table bench_sessions`);
}

// ---- HTTP against the real app ---------------------------------------------------------------------------

interface RunningApp {
  app: FastifyInstance;
  url: string;
  ctx: AppContext;
}

async function startApp(database: Database): Promise<RunningApp> {
  const app = await createTestApp(database);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The services' context as buildApp makes it (the HMAC secret only signs continuation tokens here).
  const ctx: AppContext = {
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() }),
    database,
    db: database.db,
    secret: randomBytes(32),
    log: app.log,
  };
  return { app, url: `http://127.0.0.1:${port}`, ctx };
}

async function post<T>(url: string, headers: Record<string, string>, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as T & { status?: string };
  if (!response.ok || json.status !== 'SUCCESS')
    throw new Error(`${url}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** A signed-in contact (portal administrator) of these accounts, as a principal and as cookie headers. */
async function benchUser(db: Database['db'], customerNumbers: readonly string[]) {
  const email = `bench-${randomBytes(3).toString('hex')}@example.com`;
  for (const cn of customerNumbers) await addContact(db, cn, email, contactRoles.admin);
  const { userId, headers } = await signInAs(db, email);
  const principal: Principal = { userId, email, name: 'bench', vendorRoles: [], via: 'session' };
  return { principal, headers };
}

async function latencyStage(bench: BenchDatabase, running: RunningApp) {
  const { db } = bench.database;
  const server = await elasticAccount(db, '2100001');
  const { token } = await issueServerCredential(db, { ...server, createdBy: 'bench' });
  const { headers } = await benchUser(db, [server.customerNumber]);
  const auth = { authorization: `Bearer ${token}` };
  const totalUsed = async () => {
    const answer = await post<{ data: { Used: number }[] }>(`${running.url}/api/getEntitlements`, headers, {
      customerNumber: server.customerNumber,
    });
    return answer.data.reduce((s, e) => s + e.Used, 0);
  };
  const visible = async (sessionId: string) => {
    const answer = await post<{ data: unknown[] }>(`${running.url}/api/fetchUsage`, headers, {
      customerNumber: server.customerNumber,
      filter: { condition: 'ALL', criteria: [{ name: 'DeviceID', method: 'EQUALS', value: sessionId }] },
      limit: 20,
    });
    return answer.data.length > 0;
  };

  // Background: other license servers posting full batches back to back over HTTP.
  let loadOn = false;
  let loadBatches = 0;
  const background = async (s: number) => {
    const other = await elasticAccount(db, String(2_100_010 + s));
    const credential = await issueServerCredential(db, { ...other, createdBy: 'bench' });
    const to = Date.now() - 3 * DAY;
    for (const events of eventBatches(50 + s, `bg${s}`, 1_000_000, to - 30 * DAY, to)) {
      if (!loadOn) return;
      await post(`${running.url}/cls/v1/usage`, { authorization: `Bearer ${credential.token}` }, { events });
      loadBatches += 1;
    }
  };

  const rounds = 20;
  for (const underLoad of [false, true]) {
    loadOn = underLoad;
    const load = underLoad ? [background(0), background(1)] : [];
    const toTransactions: number[] = [];
    const toBalance: number[] = [];
    const health: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const t = performance.now();
      await fetch(`${running.url}/healthz`).then((r) => r.json());
      health.push(performance.now() - t);
      // A full batch of finished sessions (events may not lie in the future, sessions last up to 2 days); the
      // user looks for the newest one.
      const end = Date.now() - 2 * DAY - 10 * 60_000;
      const specs = sessionSpecs(
        new Rng(9000 + i),
        `lat${underLoad ? 'l' : 'i'}${i}`,
        0,
        BATCH / 2,
        BATCH / 2,
        end - 3_600_000,
        end,
      );
      const events = usageEvents(specs);
      const marker = specs[specs.length - 1].sessionId as string;
      const usedBefore = await totalUsed();
      const started = performance.now();
      const answer = await post<{ accepted: number }>(`${running.url}/cls/v1/usage`, auth, { events });
      if (answer.accepted !== events.length)
        throw new Error(`accepted ${answer.accepted} of ${events.length}`);
      const poll = async (done: () => Promise<boolean>) => {
        while (!(await done())) {
          if (performance.now() - started > 60_000) throw new Error(`${marker} not visible after 60 s`);
          await new Promise((r) => setTimeout(r, 10));
        }
      };
      await poll(() => visible(marker));
      toTransactions.push(performance.now() - started);
      await poll(async () => (await totalUsed()) > usedBefore);
      toBalance.push(performance.now() - started);
    }
    loadOn = false;
    await Promise.all(load);
    const label = underLoad ? `while 2 other servers post (${loadBatches} batches)` : 'idle';
    const p95 = percentile(toTransactions, 95);
    record(
      `ingest-to-visible in /api/fetchUsage, ${label} (n=${rounds}; p50 / p95 / max ms)`,
      `${ms(percentile(toTransactions, 50))} / ${ms(p95)} / ${ms(Math.max(...toTransactions))}`,
      `${ms(percentile(health, 50))} / ${ms(percentile(health, 95))} (GET /healthz)`,
      '',
      '<= 5000 ms',
      Math.max(...toTransactions) <= 5000,
    );
    record(
      `ingest-to-visible in /api/getEntitlements Used, ${label} (p50 / p95 / max ms)`,
      `${ms(percentile(toBalance, 50))} / ${ms(percentile(toBalance, 95))} / ${ms(Math.max(...toBalance))}`,
      '',
      '',
      '<= 5000 ms',
      Math.max(...toBalance) <= 5000,
    );
  }
}

/** The le bound of the histogram bucket holding the p-th percentile of a Prometheus text exposition's metric. */
function bucketPercentile(text: string, metric: string, p: number): { count: number; le: string } {
  const buckets = [...text.matchAll(new RegExp(`^${metric}_bucket\\{le="([^"]+)"\\} (\\d+)$`, 'gm'))].map(
    (m) => ({ le: m[1], n: Number(m[2]) }),
  );
  const count = buckets.at(-1)?.n ?? 0;
  return { count, le: buckets.find((b) => b.n >= (p / 100) * count)?.le ?? 'none' };
}

/**
 * Issue 25 §3: ingest-to-visible as a reader of the usage grid sees it, through a streaming replica and on the
 * primary alone, while other license servers keep posting.
 */
async function freshnessStage() {
  const cluster = await startReplicaCluster();
  const primary = await openPostgres(cluster.primaryUrl, Math.max(8, streams + 4));
  const metricsToken = 'bench-metrics-token-0123456789';
  try {
    await migrateDatabase(primary, cluster.primaryUrl);
    const { db } = primary;
    await buildRateTable(db, RATE_TABLE, RATES);
    await ensureUsagePartitions(db, new Date(), 90);
    const probe = await elasticAccount(db, '2300001');
    const { token } = await issueServerCredential(db, { ...probe, createdBy: 'bench' });
    const { headers } = await benchUser(db, [probe.customerNumber]);
    const loaders = [];
    for (let s = 0; s < streams; s++) {
      const server = await elasticAccount(db, String(2_300_010 + s));
      loaders.push({
        server,
        token: (await issueServerCredential(db, { ...server, createdBy: 'bench' })).token,
      });
    }
    const duration = Number(args['freshness-seconds']) * 1000;
    for (const [mode, env] of [
      ['through the replica', { DATABASE_REPLICA_URL: cluster.replicaUrl }],
      ['on the primary alone', {}],
    ] as const) {
      const app = await createTestApp(primary, {
        DATABASE_URL: cluster.primaryUrl,
        METRICS_TOKEN: metricsToken,
        ...env,
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
      try {
        if (mode === 'through the replica') {
          const ready = async () => (await (await fetch(`${url}/readyz`)).json()).replica?.state;
          // The router's first poll (at the app's start) decides; a bench gives up rather than wait for ever.
          const deadline = performance.now() + 60_000;
          while ((await ready()) !== 'ok') {
            if (performance.now() > deadline) throw new Error('the replica was not in use after 60 s');
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        const until = performance.now() + duration;
        let loadEvents = 0;
        const load = loaders.map(async ({ token: bearer }, s) => {
          const to = Date.now() - 3 * DAY;
          const prefix = `fr${mode.length}-${s}`;
          for (const events of eventBatches(70 + s, prefix, 10_000_000, to - 30 * DAY, to)) {
            if (performance.now() > until) return;
            await post(`${url}/cls/v1/usage`, { authorization: `Bearer ${bearer}` }, { events });
            loadEvents += events.length;
          }
        });
        const visibleAfter: number[] = [];
        const started = performance.now();
        for (let i = 0; performance.now() < until; i++) {
          const end = Date.now() - 2 * DAY - 10 * 60_000;
          const specs = sessionSpecs(
            new Rng(9500 + i),
            `fp${mode.length}-${i}`,
            0,
            50,
            50,
            end - 3_600_000,
            end,
          );
          const marker = specs[specs.length - 1].sessionId as string;
          const t = performance.now();
          await post(
            `${url}/cls/v1/usage`,
            { authorization: `Bearer ${token}` },
            { events: usageEvents(specs) },
          );
          for (;;) {
            const answer = await post<{ data: unknown[] }>(`${url}/api/fetchUsage`, headers, {
              customerNumber: probe.customerNumber,
              filter: { condition: 'ALL', criteria: [{ name: 'DeviceID', method: 'EQUALS', value: marker }] },
              limit: 20,
            });
            if (answer.data.length > 0) break;
            if (performance.now() - t > 300_000) throw new Error(`${marker} not visible after 300 s`);
            // The measured reader's own cadence: a page refreshing every 20 ms (the bench's resolution).
            await new Promise((r) => setTimeout(r, 20));
          }
          visibleAfter.push(performance.now() - t);
        }
        await Promise.all(load);
        const wall = (performance.now() - started) / 1000;
        const metrics = await (
          await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
        ).text();
        const own = bucketPercentile(metrics, 'lp_usage_visible_seconds', 99);
        const reads = [...metrics.matchAll(/^lp_replica_reads_total\{target="(\w+)"\} (\d+)$/gm)]
          .map((m) => `${m[1]} ${m[2]}`)
          .join(', ');
        const p99 = percentile(visibleAfter, 99);
        const target = mode === 'through the replica' ? 60_000 : 5_000;
        record(
          `ingest-to-visible ${mode}, reader of /api/fetchUsage, ${streams} servers posting ${Math.round(loadEvents / wall).toLocaleString('en-US')} events/s for ${wall.toFixed(0)} s (n=${visibleAfter.length}; p50 / p95 / p99 / max ms)`,
          `${ms(percentile(visibleAfter, 50))} / ${ms(percentile(visibleAfter, 95))} / ${ms(p99)} / ${ms(Math.max(...visibleAfter))}`,
          `the app's lp_usage_visible_seconds: p99 <= ${own.le} s of ${own.count} batches; reads ${reads || 'primary only'}`,
          '',
          `p99 <= ${target} ms`,
          p99 <= target,
        );
      } finally {
        await app.close();
      }
    }
  } finally {
    await primary.close();
    await cluster.stop();
  }
}

async function statementStage(bench: BenchDatabase, running: RunningApp) {
  const { db } = bench.database;
  const server = await elasticAccount(db, '2200001');
  const to = Date.now() - 3 * DAY;
  const started = performance.now();
  let events = 0;
  // Batches of 5000 events (the API's maximum): 2500 sessions start, the previous 2500 end; over the last year.
  let batch = 0;
  for (const b of eventBatches(7, 'st', statementSessions, to - 362 * DAY, to, 5000)) {
    await ingestOrThrow(db, server, b);
    events += b.length;
    if (++batch % 40 === 0) console.log(`  statement data: ${events} events (${seconds(started)} s)`);
  }
  const loadSeconds = (performance.now() - started) / 1000;
  console.log(
    `statement data: ${statementSessions} sessions (${events} events) in ${loadSeconds.toFixed(0)} s`,
  );
  await db.execute(sql`vacuum analyze`);
  const [{ n }] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from elastic_daily_usage where customer_number = ${server.customerNumber}`,
  );
  const { principal, headers } = await benchUser(db, [server.customerNumber]);
  const request = { customerNumber: server.customerNumber, from: day(-365), to: day(0) };
  const check = await getStatement(running.ctx, principal, request);
  console.log(
    `statement ${request.from}..${request.to}: ${check.Records.length} purchase orders, ${check.Products.length} products, rollup rows ${n}`,
  );
  const service = await paired(
    iterations,
    30,
    () => getStatement(running.ctx, principal, request),
    () => db.execute(sql`select 1`),
  );
  record(
    `statement service, 1 year, ${statementSessions.toLocaleString('en-US')} sessions (n=${service.n}; p50 / p95 ms)`,
    `${ms(service.p50)} / ${ms(service.p95)}`,
    `${ms(service.base50)} / ${ms(service.base95)} (select 1)`,
    `${(service.p50 / service.base50).toFixed(1)} / ${(service.p95 / service.base95).toFixed(1)}`,
    '<= 100 ms',
    service.p95 <= 100,
  );
  const http = await paired(
    iterations,
    30,
    () => post(`${running.url}/api/statements`, headers, request),
    () => fetch(`${running.url}/healthz`).then((r) => r.json()),
  );
  record(
    `POST /api/statements over HTTP, same (p50 / p95 ms)`,
    `${ms(http.p50)} / ${ms(http.p95)}`,
    `${ms(http.base50)} / ${ms(http.base95)} (GET /healthz)`,
    `${(http.p50 / http.base50).toFixed(1)} / ${(http.p95 / http.base95).toFixed(1)}`,
    '<= 100 ms',
    http.p95 <= 100,
  );
  record(
    `(statement data load through ingestUsage, 1 stream, batches of 5000)`,
    `${Math.round(events / loadSeconds).toLocaleString('en-US')} events/s`,
    '',
    '',
    '',
  );
}

// ---- Transactions block and CSV at N rows ----------------------------------------------------------------

const ACCOUNTS = 50;
const ANCHOR = '2026-11-01T00:00:00Z';
const account = (i: number) => String(100000 + ((i * 7) % ACCOUNTS));

/** bench/query-engine.ts's loader: row g belongs to account g % 50 and starts within 13 months before ANCHOR. */
async function fill(database: Database) {
  const { db } = database;
  const indexes = (await db.execute(
    sql`select indexname, indexdef from pg_indexes where tablename = 'usage_sessions' and indexname not like '%pkey'`,
  )) as unknown as { rows: { indexname: string; indexdef: string }[] };
  // Building the secondary indexes once after the load is much faster than maintaining them per row.
  for (const i of indexes.rows) await db.execute(sql.raw(`drop index ${i.indexname}`));
  const chunk = 1_000_000;
  const started = performance.now();
  for (let from = 1; from <= totalRows; from += chunk) {
    const to = Math.min(totalRows, from + chunk - 1);
    await db.execute(sql`
      insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
        product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
        server_id, rate_table_version, rate, charged_cents)
      select (100000 + g % ${ACCOUNTS})::text,
        'S' || g,
        st,
        case when g % 500 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
        (array['Fluent','Mechanical','CFX','HFSS','LS-DYNA','Maxwell'])[1 + g % 6],
        '2025 R' || (1 + g % 2),
        1 + g % 8,
        round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8,
        round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8,
        case when g % 7 = 0 then 'EUR' else 'USD' end,
        'user' || (g / ${ACCOUNTS}) % 40,
        'host-' || g % 25,
        'project-' || g % 12,
        case when g % 500 = 0 then 'Active' else 'Completed' end,
        '10.0.' || g % 250 || '.1',
        case when g % 3 = 0 then 'job-' || g end,
        'SRV' || g % ${ACCOUNTS},
        '2025.1.0', 2, (g * 13) % 5000
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select ${ANCHOR}::timestamptz - make_interval(secs => (g * 7919) % 34000000) as st) t`);
    console.log(`  loaded ${to} rows (${seconds(started)} s)`);
  }
  for (const i of indexes.rows) await db.execute(sql.raw(i.indexdef));
  // VACUUM sets the visibility map as autovacuum would on a live server, enabling index-only scans.
  await db.execute(sql`vacuum analyze usage_sessions`);
  return (performance.now() - started) / 1000;
}

/** The grid's columns in grid order (web usage-columns.ts) with their titles: what the CSV export writes. */
const CSV_COLUMNS: [UsageAttribute & keyof UsageRow, string][] = [
  ['StartTime', 'Start Time'],
  ['EndTime', 'End Time'],
  ['Product', 'Product'],
  ['ProductCount', 'Count'],
  ['Hours', 'Hours'],
  ['Charge', 'Cost'],
  ['Currency', 'Currency'],
  ['User', 'Username'],
  ['Host', 'Hostname'],
  ['Project', 'Project'],
  ['DeviceID', 'Session ID'],
  ['SessionStatus', 'Session Status'],
  ['REFERER_IP_ADDRESS', 'External IP'],
  ['productVersion', 'Version'],
  ['CloudJobId', 'Cloud Job Id'],
];
/** As the browser writes it (web usage-csv.ts). */
const toCsv = (rows: readonly UsageRow[]) =>
  Papa.unparse(
    {
      fields: CSV_COLUMNS.map(([, title]) => title),
      data: rows.map((r) => CSV_COLUMNS.map(([f]) => r[f] ?? '')),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );

async function blockAndCsvStage(bench: BenchDatabase) {
  const { database, raw } = bench;
  const { db } = database;
  const loadSeconds = await fill(database);
  console.log(`block/csv data: ${totalRows} rows over ${ACCOUNTS} accounts in ${loadSeconds.toFixed(0)} s`);
  const numbers = Array.from({ length: ACCOUNTS }, (_, i) => String(100000 + i));
  for (const cn of numbers) await buildAccount(db, { customerNumber: cn, name: `Bench ${cn}` });
  const { principal, headers } = await benchUser(db, numbers);
  const running = await startApp(database);
  try {
    const { ctx } = running;
    // The screen's request: last 3 months, default sort (the service appends StartTime/EndTime ascending).
    const filter: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'StartTime', method: 'DATERANGE', value: ['2026-08-01T00:00:00Z', ANCHOR] }],
    };
    const sorting = usageSorting(undefined);
    const scope = (i: number): SQL => accountScope(account(i));
    const page = (i: number, token: string | null | undefined, limit = 20) => ({
      scope: scope(i),
      request: { filter, sorting, limit, ...(token === undefined ? {} : { token }) },
      secret: ctx.secret,
    });
    const rawOf = (q: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(q);
      return raw(text, params);
    };
    const request = (i: number, limit: number, attributes?: UsageAttribute[]) => ({
      customerNumber: account(i),
      filter,
      limit,
      offset: 0,
      ...(attributes ? { attributes } : {}),
    });
    if (stages.has('block')) {
      const tokens = new Map<string, string | null>();
      for (let i = 0; i < ACCOUNTS; i++)
        tokens.set(account(i), (await queryPage(db, usageSessionsResource, page(i, null))).token);
      for (const [name, token] of [
        ['block', undefined],
        ['next block', tokens.get(account(0))],
      ] as const) {
        const { sql: text, params } = dialect.sqlToQuery(
          compilePageQuery(usageSessionsResource, page(0, token)).query,
        );
        const plan = (await raw(`explain (analyze, costs off) ${text}`, params)) as {
          rows: Record<string, string>[];
        };
        console.log(`plan of ${name}:\n${plan.rows.map((r) => `  ${Object.values(r)[0]}`).join('\n')}`);
      }

      const rowsLabel = totalRows.toLocaleString('en-US');
      const block = await paired(
        iterations,
        50,
        (i) => queryPage(db, usageSessionsResource, page(i, undefined)),
        (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, undefined)).query),
      );
      record(
        `transactions block at ${rowsLabel} rows, engine (queryPage) vs raw SQL (n=${block.n}; p50 / p95 ms)`,
        `${ms(block.p50)} / ${ms(block.p95)}`,
        `${ms(block.base50)} / ${ms(block.base95)} (raw)`,
        `${(block.p50 / block.base50).toFixed(2)} / ${(block.p95 / block.base95).toFixed(2)}`,
        '<= 30 ms, <= 1.5x raw',
        block.p95 <= 30 && block.p95 / block.base95 <= 1.5,
      );
      const next = await paired(
        iterations,
        50,
        (i) => queryPage(db, usageSessionsResource, page(i, tokens.get(account(i)))),
        (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, tokens.get(account(i)))).query),
      );
      record(
        `next block by token, engine vs raw (p50 / p95 ms)`,
        `${ms(next.p50)} / ${ms(next.p95)}`,
        `${ms(next.base50)} / ${ms(next.base95)} (raw)`,
        `${(next.p50 / next.base50).toFixed(2)} / ${(next.p95 / next.base95).toFixed(2)}`,
        '<= 30 ms, <= 1.5x raw',
        next.p95 <= 30 && next.p95 / next.base95 <= 1.5,
      );
      const service = await paired(
        iterations,
        50,
        (i) => listUsage(ctx, principal, request(i, 20)),
        (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, undefined)).query),
      );
      record(
        `block through the service (authorization + presentation) vs raw (p50 / p95 ms)`,
        `${ms(service.p50)} / ${ms(service.p95)}`,
        `${ms(service.base50)} / ${ms(service.base95)} (raw)`,
        `${(service.p50 / service.base50).toFixed(2)} / ${(service.p95 / service.base95).toFixed(2)}`,
        '',
      );
      const http = await paired(
        iterations,
        50,
        (i) => post(`${running.url}/api/fetchUsage`, headers, request(i, 20)),
        () => fetch(`${running.url}/healthz`).then((r) => r.json()),
      );
      record(
        `POST /api/fetchUsage over HTTP, 20 rows (p50 / p95 ms)`,
        `${ms(http.p50)} / ${ms(http.p95)}`,
        `${ms(http.base50)} / ${ms(http.base95)} (GET /healthz)`,
        `${(http.p50 / http.base50).toFixed(1)} / ${(http.p95 / http.base95).toFixed(1)}`,
        '',
      );
    }
    if (stages.has('csv')) {
      const attributes = CSV_COLUMNS.map(([f]) => f);
      const csvRounds = Math.max(10, Math.floor(iterations / 10));
      let bytes = 0;
      let rowCount = 0;
      const parts = { query: [] as number[], unparse: [] as number[] };
      const csv = await paired(
        csvRounds,
        3,
        async (i) => {
          const t = performance.now();
          const { rows } = await listUsage(ctx, principal, request(i, CSV_EXPORT_MAX, attributes));
          const t2 = performance.now();
          const text = toCsv(rows);
          parts.query.push(t2 - t);
          parts.unparse.push(performance.now() - t2);
          bytes = text.length;
          rowCount = rows.length;
        },
        (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, undefined, CSV_EXPORT_MAX)).query),
      );
      record(
        `CSV ${rowCount.toLocaleString('en-US')} rows (${(bytes / 1e6).toFixed(1)} MB): service query + papaparse unparse (n=${csv.n}; p50 / p95 ms; query p50 ${ms(percentile(parts.query, 50))}, unparse p50 ${ms(percentile(parts.unparse, 50))})`,
        `${ms(csv.p50)} / ${ms(csv.p95)}`,
        `${ms(csv.base50)} / ${ms(csv.base95)} (raw SQL)`,
        `${(csv.p50 / csv.base50).toFixed(2)} / ${(csv.p95 / csv.base95).toFixed(2)}`,
        '<= 1000 ms',
        csv.p95 <= 1000,
      );
      const csvHttp = await paired(
        csvRounds,
        3,
        async (i) => {
          const { data } = await post<{ data: UsageRow[] }>(
            `${running.url}/api/fetchUsage`,
            headers,
            request(i, CSV_EXPORT_MAX, attributes),
          );
          toCsv(data);
        },
        (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, undefined, CSV_EXPORT_MAX)).query),
      );
      record(
        `CSV ${rowCount.toLocaleString('en-US')} rows over HTTP: POST /api/fetchUsage + JSON parse + unparse (p50 / p95 ms)`,
        `${ms(csvHttp.p50)} / ${ms(csvHttp.p95)}`,
        `${ms(csvHttp.base50)} / ${ms(csvHttp.base95)} (raw SQL)`,
        `${(csvHttp.p50 / csvHttp.base50).toFixed(2)} / ${(csvHttp.p95 / csvHttp.base95).toFixed(2)}`,
        '<= 1000 ms',
        csvHttp.p95 <= 1000,
      );
    }
  } finally {
    await running.app.close();
  }
}

async function main() {
  const t0 = performance.now();
  console.log(
    `engine=${engine} extra-sql=${args['extra-sql'] ?? 'none'} stages=${[...stages].join(',')} events=${ingestEvents} streams=${streams} statement-sessions=${statementSessions} rows=${totalRows} iterations=${iterations}`,
  );
  if (stages.has('ingest') || stages.has('latency') || stages.has('statement')) {
    const bench = await openBenchDatabase(engine, Math.max(8, streams + 2));
    try {
      await buildRateTable(bench.database.db, RATE_TABLE, RATES);
      if (args['extra-sql']) await bench.database.db.execute(sql.raw(args['extra-sql']));
      if (stages.has('ingest')) await ingestStage(bench);
      if (stages.has('latency') || stages.has('statement')) {
        const running = await startApp(bench.database);
        try {
          if (stages.has('latency')) await latencyStage(bench, running);
          if (stages.has('statement')) await statementStage(bench, running);
        } finally {
          await running.app.close();
        }
      }
    } finally {
      await bench.cleanup();
    }
  }
  if (stages.has('freshness')) await freshnessStage();
  if (stages.has('block') || stages.has('csv')) {
    const bench = await openBenchDatabase(engine, 4);
    try {
      await blockAndCsvStage(bench);
    } finally {
      await bench.cleanup();
    }
  }
  console.log(`\ntotal ${seconds(t0)} s`);
  console.log('| measurement | value | baseline (same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of report) console.log(line);
}

await main();
