/**
 * Web-licensing reports benchmark (issue 24 §5: a pool of 10 000 users over a year in <= 300 ms), on PostgreSQL:
 * one account with 10 000 people, a Named User pool (10 000 seats, each held) and a Shared Web pool (2 500 seats),
 * and `--leases` sessions and denials of the last year (generate_series, bench/web-leases.ts; by default 2.5M, a
 * session per person per working day). Each report over the whole year (365 days up to today) through the real
 * server, in turns with the cheapest authenticated read of the same session (POST /api/fulfillments/servers).
 *
 *   npx tsx bench/web-reporting.ts [--leases N] [--rounds N] [--no-profile] [--extra-sql "DDL"]
 *
 * After the load the reports' rollup (web-reporting's rollUpWebUsage, the web-usage-rollup job's work) runs over the
 * year, timed apart, then once more for the last hour only (what the hourly job does); `--no-rollup` leaves the
 * reports to read web_leases alone (as before migration 0017).
 *
 * A fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { webReportingApi } from '@lp/contract/web-reporting/api';
import {
  rollUpWebUsage,
  webDenials,
  webReclaim,
  webUsageHeatmap,
  webUtilisation,
} from '@lp/server/features/web-reporting/service';
import { signInAs } from '@lp/server/harness/sign-in';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import type { Principal } from '@lp/server/platform/principal';
import Fastify from 'fastify';
import { openBenchDatabase } from './bench-database.ts';
import { fmt, int, row, table } from './measure.ts';
import { caller, loadAverage, startServer, stopServer } from './server-process.ts';
import { BIG, benchSession, EMAIL, fillLeases, seedAccount, seedProducts } from './web-leases.ts';

const { values: opt } = parseArgs({
  allowNegative: true,
  options: {
    leases: { type: 'string', default: '2500000' },
    rounds: { type: 'string', default: '30' },
    // e.g. an index to try: --extra-sql "create index ... on web_leases ..." (run after the load, then ANALYZE)
    'extra-sql': { type: 'string' },
    rollup: { type: 'boolean', default: true },
    // The reports' services in-process on the bench's connection, without the server's 5 s statement deadline.
    profile: { type: 'boolean', default: true },
  },
});
const LEASES = Number(opt.leases);
const ROUNDS = Number(opt.rounds);
const WARMUP = 5;
const PEOPLE = 10_000;

function quantiles(samples: number[]) {
  const s = samples.toSorted((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}
type Quantiles = ReturnType<typeof quantiles>;
const triple = (q: Quantiles) => `${fmt(q.p50)} / ${fmt(q.p95)} / ${fmt(q.p99)}`;

async function main() {
  const started = performance.now();
  console.log(
    `leases=${LEASES} rounds=${ROUNDS} (+${WARMUP}) extra-sql=${opt['extra-sql'] ?? 'none'} rollup=${opt.rollup}`,
  );
  console.log(
    `nproc ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
  );
  const bench = await openBenchDatabase('postgres', 4);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-'));
  let child: Awaited<ReturnType<typeof startServer>>['child'] | undefined;
  try {
    await seedProducts(bench.database);
    await seedAccount(bench.database, BIG, { people: PEOPLE, namedSeats: PEOPLE, sharedSeats: 2500 });
    await fillLeases(bench.database, {
      total: LEASES,
      bigShare: 1,
      bigPeople: PEOPLE,
      accounts: 1,
      people: 1,
    });
    if (opt['extra-sql']) {
      await bench.raw(opt['extra-sql'], []);
      await bench.raw('analyze web_leases', []);
      console.log(`  ran ${opt['extra-sql']}`);
    }
    if (opt.rollup) {
      // The year's first rollup (a node's first run on this data: a week of hours per transaction).
      let t = performance.now();
      const year = await rollUpWebUsage(bench.database.db, new Date());
      const first = performance.now() - t;
      await bench.raw('analyze web_usage_hours', []);
      await bench.raw('analyze web_usage_people', []);
      const counted = (await bench.raw(
        'select (select count(*) from web_usage_hours)::int as hours, (select count(*) from web_usage_people)::int as people',
        [],
      )) as { rows: { hours: number; people: number }[] };
      const { hours, people } = counted.rows[0];
      // The hourly job's work: the last hour rolled up again (its rows replaced).
      await bench.raw("update web_usage_watermark set rolled_until = rolled_until - interval '1 hour'", []);
      t = performance.now();
      await rollUpWebUsage(bench.database.db, new Date());
      const hourly = performance.now() - t;
      row(
        `PostgreSQL, ${int(LEASES)} leases: the reports' rollup (rollUpWebUsage), the year ${year.from} to ${year.until} (${int(hours)} hour rows, ${int(people)} people-year rows); then one hour`,
        `${fmt(first)} ms; one hour ${fmt(hourly)} ms`,
        '',
        '',
      );
    }
    const headers = await benchSession(bench.database);
    const server = await startServer(dataDir, bench.url);
    child = server.child;
    const post = caller(server.base, headers);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const year = { customerNumber: BIG, from: day(-364), to: day(0) };
    const bare = () => post(licenseServersApi.list.path, { customerNumber: BIG });
    const reports = [
      {
        name: 'utilisation (POST /api/web/reports/utilisation)',
        path: webReportingApi.utilisation.path,
        body: year,
      },
      {
        name: 'heat map, all pools (POST /api/web/reports/heatmap)',
        path: webReportingApi.heatmap.path,
        body: year,
      },
      { name: 'denials (POST /api/web/reports/denials)', path: webReportingApi.denials.path, body: year },
      {
        name: 'reclaim, 90 days, first page of 100 (POST /api/web/reports/reclaim)',
        path: webReportingApi.reclaim.path,
        body: { customerNumber: BIG, inactiveDays: 90 },
      },
    ];
    for (const r of reports) {
      // A report past the server's statement deadline (DATABASE_STATEMENT_TIMEOUT_MS, 5 s) fails: said, not timed.
      const probe = performance.now();
      const answer = await post(r.path, r.body).catch((e: Error) => e);
      if (answer instanceof Error) {
        const ms = performance.now() - probe;
        row(
          `PostgreSQL, ${int(LEASES)} leases of a year, ${int(PEOPLE)} people: ${r.name}`,
          `fails after ${fmt(ms)} ms: ${answer.message.slice(0, 160)}`,
          '',
          '',
          '<= 300 ms',
          false,
        );
        continue;
      }
      const size = JSON.stringify(answer).length;
      const times: [number[], number[]] = [[], []];
      let failures = 0;
      for (let i = 0; i < WARMUP + ROUNDS; i++)
        for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
          const t = performance.now();
          const failed = await (side === 0 ? post(r.path, r.body) : bare()).then(
            () => false,
            () => true,
          );
          if (failed) failures += 1;
          if (i >= WARMUP) times[side].push(performance.now() - t);
        }
      const s = quantiles(times[0]);
      const b = quantiles(times[1]);
      row(
        `PostgreSQL, ${int(LEASES)} leases of a year, ${int(PEOPLE)} people: ${r.name}, ${r.body === year ? 'the last 365 days' : 'today'} (${int(size)} bytes of JSON; n=${s.n}; p50 / p95 / p99 ms${failures ? `; ${failures} of ${WARMUP + ROUNDS} calls failed 503 past the deadline, timed as they failed` : ''})`,
        triple(s),
        `${triple(b)} (POST /api/fulfillments/servers)`,
        `${(s.p50 / b.p50).toFixed(1)} / ${(s.p95 / b.p95).toFixed(1)} / ${(s.p99 / b.p99).toFixed(1)}`,
        '<= 300 ms',
        s.p95 <= 300 && failures === 0,
      );
    }
    if (opt.profile) {
      const ctx: AppContext = {
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() }),
        database: bench.database,
        db: bench.database.db,
        secret: randomBytes(32),
        log: Fastify({ logger: false }).log,
      };
      const { userId } = await signInAs(bench.database.db, EMAIL);
      const principal: Principal = { userId, email: EMAIL, name: 'bench', vendorRoles: [], via: 'session' };
      const services: [string, () => Promise<unknown>][] = [
        ['webUtilisation', () => webUtilisation(ctx, principal, year)],
        ['webUsageHeatmap', () => webUsageHeatmap(ctx, principal, year)],
        ['webDenials', () => webDenials(ctx, principal, year)],
        [
          'webReclaim (90 days)',
          () => webReclaim(ctx, principal, { customerNumber: BIG, inactiveDays: 90, offset: 0, limit: 100 }),
        ],
      ];
      const lines: string[] = [];
      for (const [name, run] of services) {
        const times: number[] = [];
        for (let i = 0; i < 3; i++) {
          const t = performance.now();
          await run();
          times.push(performance.now() - t);
        }
        lines.push(`${name} ${times.map(fmt).join(', ')}`);
        console.log(`  profile, in-process without a deadline (3 runs, ms): ${lines.at(-1)}`);
      }
      row(
        `PostgreSQL, ${int(LEASES)} leases: each report's service in-process, no statement deadline (3 runs, ms)`,
        lines.join('; '),
        '',
        '',
      );
    }
  } finally {
    if (child) await stopServer(child);
    await bench.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s, load average at the end ${loadAverage()}`,
  );
  console.log('| measurement | value | baseline (same run) | ratio p50 / p95 / p99 | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
