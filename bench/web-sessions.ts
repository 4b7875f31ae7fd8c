/**
 * Web-licensing sessions benchmark (issue 24 §5), on PostgreSQL, every number next to a baseline of the same run
 * (this shared 2-core machine is noisy):
 *  latency       POST /web/v1/checkout (a shared seat, released again untimed) and POST /web/v1/heartbeat over HTTP
 *                against the real server, in turns with the bare credential-authenticated call: a checkout of a
 *                part number the credential is not issued for, refused 403 after the credential is looked up.
 *  throughput    two server processes on one database, `--clients` concurrent clients spread over both, each
 *                checking out seats for people of `--pools` accounts (one shared pool each, sized so most are
 *                granted); a share of the checkouts is retried with the same operation key on the other node at
 *                the same time. Checkouts/s, then SQL: open leases per pool never above its seats, every granted
 *                answer has exactly one lease row, no lease or denial without an answer, retries answered alike.
 *  transactions  web_leases with `--leases` rows (generate_series, bench/web-leases.ts): the /web-transactions
 *                block (POST /api/web/transactions, 20 rows) through the server vs the very same compiled SQL sent
 *                raw, as bench/query-engine.ts does for usage sessions.
 *
 *   npx tsx bench/web-sessions.ts [--only latency,throughput,transactions] [--rounds N] [--checkouts N]
 *     [--clients N] [--pools N] [--leases N] [--iterations N]
 *
 * Each stage has its own fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * dropped afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import type { Database } from '@lp/server/db/database';
import {
  transactionsScope,
  webTransactionsResource,
} from '@lp/server/features/web-sessions/transactions-resource';
import { issueWebCredential } from '@lp/server/features/web-sessions/web-credentials';
import { compilePageQuery } from '@lp/server/platform/query/engine';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type BenchDatabase, openBenchDatabase } from './bench-database.ts';
import { fmt, int, row, table } from './measure.ts';
import { loadAverage, startServer, stopServer } from './server-process.ts';
import {
  accountNumber,
  BIG,
  benchSession,
  fillLeases,
  NAMED,
  SHARED,
  seedAccount,
  seedProducts,
} from './web-leases.ts';

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string', default: 'latency,throughput,transactions' },
    rounds: { type: 'string', default: '300' },
    checkouts: { type: 'string', default: '20000' },
    clients: { type: 'string', default: '64' },
    pools: { type: 'string', default: '50' },
    leases: { type: 'string', default: '10000000' },
    iterations: { type: 'string', default: '200' },
  },
});
const stages = new Set(opt.only.split(','));
const ROUNDS = Number(opt.rounds);
const WARMUP = 30;
const CHECKOUTS = Number(opt.checkouts);
const CLIENTS = Number(opt.clients);
const POOLS = Number(opt.pools);
const LEASES = Number(opt.leases);
const ITERATIONS = Number(opt.iterations);

// ---- helpers -----------------------------------------------------------------------------------------------

interface Quantiles {
  p50: number;
  p95: number;
  p99: number;
  n: number;
}
function quantiles(samples: number[]): Quantiles {
  const s = samples.toSorted((x, y) => x - y);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), n: s.length };
}
const triple = (q: Quantiles) => `${fmt(q.p50)} / ${fmt(q.p95)} / ${fmt(q.p99)}`;
const ratio3 = (a: Quantiles, b: Quantiles) =>
  `${(a.p50 / b.p50).toFixed(2)} / ${(a.p95 / b.p95).toFixed(2)} / ${(a.p99 / b.p99).toFixed(2)}`;

/** `subject` and `base` in turns, the one going first swapped every round; the first WARMUP rounds dropped. */
async function turns(rounds: number, subject: (i: number) => Promise<unknown>, base: () => Promise<unknown>) {
  const times: [number[], number[]] = [[], []];
  const runs = [subject, base];
  for (let i = 0; i < WARMUP + rounds; i++)
    for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const started = performance.now();
      await runs[side](i);
      if (i >= WARMUP) times[side].push(performance.now() - started);
    }
  return { subject: quantiles(times[0]), base: quantiles(times[1]) };
}

type Json = Record<string, unknown>;
/** One POST; answers status and body (a refusal is no exception here: the baseline is one). */
async function post(base: string, url: string, headers: Record<string, string>, body: object) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Json };
}
const ok = (what: string, answer: { status: number; json: Json }) => {
  if (answer.status !== 200 || answer.json.status !== 'SUCCESS')
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.json).slice(0, 300)}`);
  return answer.json.data as Json;
};

/** A fresh database with the products and a credential for both pools, and `nodes` server processes on it. */
async function withServers(
  nodes: number,
  seed: (database: Database) => Promise<void>,
  run: (bases: string[], bench: BenchDatabase, bearer: Record<string, string>) => Promise<void>,
  poolMax = 10,
) {
  const dataDirs: string[] = [];
  const bench = await openBenchDatabase('postgres', 4);
  const children: Awaited<ReturnType<typeof startServer>>['child'][] = [];
  try {
    await seedProducts(bench.database);
    const credential = await issueWebCredential(bench.database.db, {
      product: 'Bench Web App',
      partNumbers: [NAMED, SHARED],
      createdBy: 'bench',
    });
    await seed(bench.database);
    const bases: string[] = [];
    for (let n = 0; n < nodes; n++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-'));
      dataDirs.push(dir);
      const server = await startServer(dir, bench.url, () => ({ DATABASE_POOL_MAX: String(poolMax) }));
      children.push(server.child);
      bases.push(server.base);
    }
    await run(bases, bench, { authorization: `Bearer ${credential.token}` });
  } finally {
    for (const child of children) await stopServer(child);
    await bench.cleanup();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

// ---- latency -----------------------------------------------------------------------------------------------

async function latencyStage() {
  const people = 1000;
  await withServers(
    1,
    (database) => seedAccount(database, BIG, { people, namedSeats: 0, sharedSeats: people }),
    async ([base], _bench, bearer) => {
      const email = (i: number) => `u${i % people}@${BIG}.example`;
      const checkout = (i: number) =>
        post(base, webSessionsApi.checkout.path, bearer, {
          customerNumber: BIG,
          partNumber: SHARED,
          email: email(i),
          client: 'bench',
          operationKey: `bench-${randomBytes(8).toString('hex')}`,
        });
      // The bare authenticated call: the credential is looked up, then the part number is refused (403).
      const refused = async () => {
        const answer = await post(base, webSessionsApi.checkout.path, bearer, {
          customerNumber: BIG,
          partNumber: 'WB-NOT-ISSUED',
          email: email(0),
        });
        if (answer.status !== 403) throw new Error(`baseline: ${answer.status}`);
      };
      const release = (leaseId: unknown) => post(base, webSessionsApi.release.path, bearer, { leaseId });
      const checkouts = await turns(
        ROUNDS,
        async (i) => {
          const data = ok('checkout', await checkout(i));
          if (!data.granted) throw new Error(`checkout refused: ${data.reason}`);
          // Held until the series ends (the pool has a seat per person), then released untimed.
          pendingRelease.push(data.leaseId);
        },
        refused,
      );
      for (const leaseId of pendingRelease.splice(0)) await release(leaseId);
      row(
        `PostgreSQL: POST /web/v1/checkout, a shared seat of a 1 000-seat pool (n=${checkouts.subject.n}; p50 / p95 / p99 ms)`,
        triple(checkouts.subject),
        `${triple(checkouts.base)} (checkout refused 403 after the credential: part number not issued)`,
        ratio3(checkouts.subject, checkouts.base),
        '<= 20 ms p95, <= 3x',
        checkouts.subject.p95 <= 20 && checkouts.subject.p95 / checkouts.base.p95 <= 3,
      );
      // Heartbeats on 100 open leases in turn.
      const leases: unknown[] = [];
      for (let i = 0; i < 100; i++) leases.push(ok('checkout', await checkout(i)).leaseId);
      const heartbeats = await turns(
        ROUNDS,
        async (i) => {
          ok(
            'heartbeat',
            await post(base, webSessionsApi.heartbeat.path, bearer, {
              leaseId: leases[i % leases.length],
              active: i % 2 === 0,
            }),
          );
        },
        refused,
      );
      row(
        `PostgreSQL: POST /web/v1/heartbeat of an open lease (n=${heartbeats.subject.n}; p50 / p95 / p99 ms)`,
        triple(heartbeats.subject),
        `${triple(heartbeats.base)} (checkout refused 403 after the credential)`,
        ratio3(heartbeats.subject, heartbeats.base),
        '<= 20 ms p95, <= 3x',
        heartbeats.subject.p95 <= 20 && heartbeats.subject.p95 / heartbeats.base.p95 <= 3,
      );
    },
  );
}
/** Leases the latency stage's checkouts opened, released between the timed calls' batches. */
const pendingRelease: unknown[] = [];

// ---- throughput --------------------------------------------------------------------------------------------

async function throughputStage() {
  // Each person checks out once (one session per user, none released): a pool of `people` people and 90 % as
  // many seats grants about 90 % and refuses the rest pool-full, right at the edge where a lost lock would show.
  const people = Math.ceil(CHECKOUTS / POOLS);
  const seats = Math.floor(people * 0.9);
  await withServers(
    2,
    async (database) => {
      for (let a = 0; a < POOLS; a++)
        await seedAccount(database, accountNumber(100 + a), { people, namedSeats: 0, sharedSeats: seats });
    },
    async (bases, bench, bearer) => {
      const jobs = Array.from({ length: CHECKOUTS }, (_, i) => ({
        customerNumber: accountNumber(100 + (i % POOLS)),
        email: `u${Math.floor(i / POOLS)}@${accountNumber(100 + (i % POOLS))}.example`,
        key: `tp-${i}-${randomBytes(6).toString('hex')}`,
      }));
      const answers = new Map<string, Json>();
      const retried: { key: string; answer: Json }[] = [];
      let next = 0;
      let failures = 0;
      const send = async (node: number, job: (typeof jobs)[number]) => {
        const answer = await post(bases[node], webSessionsApi.checkout.path, bearer, {
          customerNumber: job.customerNumber,
          partNumber: SHARED,
          email: job.email,
          client: 'bench',
          operationKey: job.key,
        });
        if (answer.status !== 200) {
          failures += 1;
          if (failures < 5)
            console.log(`  checkout ${answer.status}: ${JSON.stringify(answer.json).slice(0, 200)}`);
          return undefined;
        }
        return answer.json.data as Json;
      };
      const lane = async (c: number) => {
        while (next < jobs.length) {
          const i = next++;
          const job = jobs[i];
          // Every 20th checkout is sent to both nodes at once with the same key: a client's retry racing the first.
          if (i % 20 === 0) {
            const [a, b] = await Promise.all([send(c % 2, job), send((c + 1) % 2, job)]);
            if (a) answers.set(job.key, a);
            if (a && b) retried.push({ key: job.key, answer: b });
            else if (b) answers.set(job.key, b);
          } else {
            const a = await send(c % 2, job);
            if (a) answers.set(job.key, a);
          }
        }
      };
      const load = loadAverage();
      const started = performance.now();
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => lane(c)));
      const seconds = (performance.now() - started) / 1000;
      const requests = CHECKOUTS + Math.ceil(CHECKOUTS / 20);
      const granted = [...answers.values()].filter((a) => a.granted);
      const rate = CHECKOUTS / seconds;
      // The SQL checks.
      const q = async <T>(text: string, params: unknown[] = []) =>
        ((await bench.raw(text, params)) as { rows: T[] }).rows;
      const [over] = await q<{ n: number }>(`
        select count(*)::int as n from (
          select l.customer_number, count(*) as open from web_leases l
          where l.outcome = 'open' group by 1) o
        where o.open > ${seats}`);
      const [maxOpen] = await q<{ n: number }>(`
        select max(open)::int as n from (select count(*) as open from web_leases where outcome = 'open'
          group by customer_number) o`);
      const grantedIds = granted.map((a) => String(a.leaseId));
      const [rows] = await q<{ matched: number; open: number; denied: number; all: number }>(
        `select (select count(*) from web_leases where lease_id = any($1::uuid[]) and outcome = 'open')::int as matched,
          (select count(*) from web_leases where outcome = 'open')::int as open,
          (select count(*) from web_leases where outcome = 'denied')::int as denied,
          (select count(*) from web_leases)::int as all`,
        [grantedIds],
      );
      const deniedAnswers = answers.size - granted.length;
      // A replayed answer comes from the stored JSON, its keys in another order: compared key by key.
      const canonical = (a: Json | undefined) => JSON.stringify(Object.entries(a ?? {}).sort());
      const sameRetries = retried.filter((r) => canonical(r.answer) === canonical(answers.get(r.key))).length;
      const sound =
        failures === 0 &&
        over.n === 0 &&
        new Set(grantedIds).size === grantedIds.length &&
        rows.matched === grantedIds.length &&
        rows.open === grantedIds.length &&
        rows.denied === deniedAnswers &&
        sameRetries === retried.length;
      console.log(
        `  ${int(CHECKOUTS)} checkouts (+${int(requests - CHECKOUTS)} same-key retries) in ${seconds.toFixed(1)} s; ${int(granted.length)} granted, ${int(deniedAnswers)} refused, ${failures} failed; most open in a pool ${maxOpen.n} of ${seats}; pools over their seats ${over.n}; lease rows open ${int(rows.open)} (granted answers matched ${int(rows.matched)}), denied rows ${int(rows.denied)}; retries answered alike ${sameRetries} of ${retried.length}`,
      );
      row(
        `PostgreSQL, two server processes: checkouts/s, ${CLIENTS} concurrent clients, ${POOLS} shared pools of ${seats} seats for ${people} people each, every 20th checkout retried on the other node at once (${int(CHECKOUTS)} checkouts, ${int(requests)} requests, ${seconds.toFixed(1)} s; load average at the start ${load})`,
        `${int(rate)} checkouts/s (${int(requests / seconds)} requests/s)`,
        '',
        '',
        '>= 1000/s',
        rate >= 1000,
      );
      row(
        `PostgreSQL, two server processes: seats after the run (SQL): ${int(granted.length)} granted, ${int(deniedAnswers)} refused pool-full; most open leases in a pool ${maxOpen.n} of ${seats}; granted answers with exactly one open lease row ${int(rows.matched)} of ${int(grantedIds.length)}; open lease rows ${int(rows.open)}; denial rows ${int(rows.denied)}; same-key retries answered alike ${sameRetries} of ${retried.length}`,
        sound ? 'no seat lost or doubled' : '**seats lost or doubled**',
        '',
        '',
        'none lost or doubled',
        sound,
      );
    },
    20,
  );
}

// ---- transactions ------------------------------------------------------------------------------------------

const dialect = new PgDialect();
const toQuery = (q: SQL) => dialect.sqlToQuery(q);

async function transactionsStage() {
  await withServers(
    1,
    async (database) => {
      await seedAccount(database, BIG, { people: 10_000, namedSeats: 3000, sharedSeats: 2500 });
      for (let a = 1; a < 50; a++)
        await seedAccount(database, accountNumber(a), { people: 200, namedSeats: 50, sharedSeats: 40 });
      await fillLeases(database, {
        total: LEASES,
        bigShare: 0.25,
        bigPeople: 10_000,
        accounts: 50,
        people: 200,
      });
    },
    async ([base], bench, _bearer) => {
      const headers = await benchSession(bench.database);
      const secret = randomBytes(32);
      const small = accountNumber(7);
      const threeMonths: FilterRule = {
        condition: 'ALL',
        criteria: [
          {
            name: 'Start',
            method: 'DATERANGE',
            value: [new Date(Date.now() - 92 * 86_400_000).toISOString(), new Date().toISOString()],
          },
          { name: 'Email', method: 'CONTAINS', value: 'U12', casefold: true },
        ],
      };
      const sorting: SortRule[] = [{ name: 'Start', direction: 'desc' }];
      const cases: { name: string; customerNumber: string; request: Json }[] = [
        {
          name: `${BIG} (${int(LEASES / 4)} rows), default sort`,
          customerNumber: BIG,
          request: { limit: 20 },
        },
        {
          name: `${BIG}, last 3 months + Email contains, Start desc`,
          customerNumber: BIG,
          request: { filter: threeMonths, sorting, limit: 20 },
        },
        {
          name: `${small} (${int((LEASES * 0.75) / 49)} rows), default sort`,
          customerNumber: small,
          request: { limit: 20 },
        },
      ];
      // Twice over (runs A and B): the first case of a run meets the checkpoint and autovacuum after the load.
      for (const [pass, c] of ['A', 'B'].flatMap((p) => cases.map((c) => [p, c] as const))) {
        const { sql: text, params } = toQuery(
          compilePageQuery(webTransactionsResource, {
            scope: transactionsScope(c.customerNumber),
            request: c.request,
            secret,
          }).query,
        );
        const plan = (await bench.raw(`explain (analyze, costs off) ${text}`, params)) as {
          rows: Record<string, string>[];
        };
        if (pass === 'A') {
          console.log(`plan of ${c.name}:`);
          for (const r of plan.rows) console.log(`  ${Object.values(r)[0]}`);
        }
        const body = { customerNumber: c.customerNumber, ...c.request };
        // Three sides in rotating order: the block through the server, its SQL raw, and the cheapest session read
        // over HTTP (POST /api/fulfillments/servers: session, account gate, one small query) for the HTTP share.
        const times: number[][] = [[], [], []];
        const sides = [
          async () => {
            const data = ok('page', await post(base, webSessionsApi.page.path, headers, body));
            if ((data as unknown as unknown[]).length === 0) throw new Error(`${c.name}: no rows`);
          },
          () => bench.raw(text, params),
          async () =>
            ok('bare', await post(base, licenseServersApi.list.path, headers, { customerNumber: BIG })),
        ];
        for (let i = 0; i < ITERATIONS + WARMUP; i++)
          for (let k = 0; k < 3; k++) {
            const side = (i + k) % 3;
            const started = performance.now();
            await sides[side]();
            if (i >= WARMUP) times[side].push(performance.now() - started);
          }
        const [s, r, b] = times.map(quantiles);
        row(
          `PostgreSQL, ${int(LEASES)} leases, run ${pass}: /web-transactions block (POST /api/web/transactions, 20 rows) of ${c.name} (n=${s.n}; p50 / p95 / p99 ms; bare session call ${triple(b)}; load average ${loadAverage()})`,
          triple(s),
          `${triple(r)} (the same SQL raw)`,
          ratio3(s, r),
          '<= 30 ms p95',
          s.p95 <= 30,
        );
      }
    },
  );
}

async function main() {
  const started = performance.now();
  console.log(
    `stages=${[...stages].join(',')} rounds=${ROUNDS} (+${WARMUP}) checkouts=${CHECKOUTS} clients=${CLIENTS} pools=${POOLS} leases=${LEASES} iterations=${ITERATIONS}`,
  );
  console.log(
    `nproc ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
  );
  if (stages.has('latency')) await latencyStage();
  if (stages.has('throughput')) await throughputStage();
  if (stages.has('transactions')) await transactionsStage();
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s, load average at the end ${loadAverage()}`,
  );
  console.log('| measurement | value | baseline (same run) | ratio p50 / p95 / p99 | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
