/**
 * Issue 25 §4: usage at the scale of the largest customers, on a PostgreSQL server of the bench's own.
 *
 *  generate   --rows usage sessions (default 100M) over --accounts accounts (default 10 000), one of them holding
 *             --big (default 10M), spread over the last --months months (default 13) in their month partitions,
 *             made in the database (INSERT … SELECT generate_series, two connections at once, keys and indexes
 *             built after the load), and daily rollups for every account's statements. Kept in --dir for the
 *             next run (the other stages reuse it); --drop removes it at the end.
 *  queries    on the big account and on small ones, the usage grid's 20-row block (--days back, default 92;
 *             the page's own default is 1, spec 001) with the default sort, and
 *             the next block by token, engine (queryPage) against the very same SQL sent raw in the same run;
 *             the service (listUsage: gate + presentation); count and distinct values over that window.
 *  statement  a one-year statement of the big account (getStatement) against `select 1`.
 *  ingest     --streams license servers (one account each) posting batches of 1000 events through ingestUsage
 *             (rating and ledger) into the partitioned table for --ingest-seconds (default 600): events/s per
 *             minute and overall.
 *  Always: bytes per million sessions (table and indexes).
 *
 *   npx tsx bench/scale.ts [--only generate,queries,statement,ingest] [--rows N] [--accounts N] [--big N]
 *     [--months N] [--dir PATH] [--drop] [--iterations N] [--streams N] [--ingest-seconds N]
 *
 * The server: Debian's PostgreSQL binaries (as the postgres user when run as root) on a free port, with
 * shared_buffers 4 GB, effective_cache_size 16 GB, maintenance_work_mem 2 GB, max_wal_size 8 GB; fsync and
 * synchronous commit on, as in production.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { FilterRule } from '@lp/contract/query/schemas';
import { contactRoles } from '@lp/domain/policy';
import { type Database, migrateDatabase, openPostgres, queryRows } from '@lp/server/db/database';
import { ensureMonthPartitions, monthStart } from '@lp/server/db/partitions';
import { type ElasticServer, ingestUsage } from '@lp/server/features/cls-api/ingest';
import { getStatement } from '@lp/server/features/statements/service';
import { accountScope, usageSessionsResource } from '@lp/server/features/transactions/resource';
import { countUsage, distinctUsage, listUsage, usageSorting } from '@lp/server/features/transactions/service';
import { buildRateTable } from '@lp/server/harness/elastic-factories';
import { addContact } from '@lp/server/harness/factories';
import { freePort } from '@lp/server/harness/free-port';
import { signInAs } from '@lp/server/harness/sign-in';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import type { Principal } from '@lp/server/platform/principal';
import {
  compileCountQuery,
  compilePageQuery,
  queryCount,
  queryDistinct,
  queryPage,
} from '@lp/server/platform/query/engine';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { pino } from 'pino';
import { fmt, inTurns, int, pair, ratios, row, spread, table } from './measure.ts';
import { DAY, day, elasticServerOf, eventBatches, RATE_TABLE, RATES } from './usage-traffic.ts';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'generate,queries,statement,ingest' },
    rows: { type: 'string', default: '100000000' },
    accounts: { type: 'string', default: '10000' },
    big: { type: 'string', default: '10000000' },
    months: { type: 'string', default: '13' },
    dir: { type: 'string', default: '/work/lp-scale' },
    drop: { type: 'boolean', default: false },
    iterations: { type: 'string', default: '200' },
    streams: { type: 'string', default: '4' },
    'ingest-seconds': { type: 'string', default: '600' },
    /** the grid's StartTime window, back from now: 92 (3 months), or 1 (the page's default, spec 001) */
    days: { type: 'string', default: '92' },
  },
});
const stages = new Set(args.only.split(','));
const ROWS = Number(args.rows);
const ACCOUNTS = Number(args.accounts);
const BIG_ROWS = Number(args.big);
const MONTHS = Number(args.months);
const ITERATIONS = Number(args.iterations);
const WINDOW_DAYS = Number(args.days);
const span = WINDOW_DAYS === 1 ? 'the last day' : `the last ${WINDOW_DAYS} days`;
const BIG = '3000000';
/** Small account number i (1 … ACCOUNTS-1). */
const small = (i: number) => String(3_000_000 + 1 + (i % (ACCOUNTS - 1)));
const dialect = new PgDialect();
const run = promisify(execFile);
const elapsed = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

// ---- The bench's own PostgreSQL server ---------------------------------------------------------------------

const bin = (() => {
  const base = '/usr/lib/postgresql';
  const versions = fs.readdirSync(base).filter((v) => /^\d+$/.test(v));
  return path.join(base, String(Math.max(...versions.map(Number))), 'bin');
})();
const asRoot = process.getuid?.() === 0;
const pgBin = (cmd: string, cmdArgs: string[]) =>
  asRoot
    ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...cmdArgs], { maxBuffer: 1 << 24 })
    : run(path.join(bin, cmd), cmdArgs, { maxBuffer: 1 << 24 });

async function startServer(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const data = path.join(dir, 'data');
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    fs.mkdirSync(dir, { recursive: true });
    if (asRoot) await run('chown', ['postgres:postgres', dir]);
    await pgBin('initdb', ['-D', data, '--auth=trust', '-U', 'postgres']);
  }
  const port = await freePort();
  const settings = {
    port,
    listen_addresses: "'127.0.0.1'",
    unix_socket_directories: `'${dir}'`,
    shared_buffers: '4GB',
    effective_cache_size: '16GB',
    work_mem: '64MB',
    maintenance_work_mem: '2GB',
    max_wal_size: '8GB',
    checkpoint_timeout: '30min',
    wal_level: 'minimal',
    max_wal_senders: 0,
    max_parallel_maintenance_workers: 2,
    random_page_cost: 1.1,
    max_connections: 50,
  };
  const options = Object.entries(settings)
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  await pgBin('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/lp`,
    stop: async () => {
      await pgBin('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
  };
}

// ---- generate -----------------------------------------------------------------------------------------------

/** The first day of the month `months` before this one, as an instant. */
const monthsBack = (months: number) => new Date(monthStart(new Date(), -months));

async function generate(url: string, database: Database) {
  const { db } = database;
  const started = performance.now();
  await migrateDatabase(database, url);
  await buildRateTable(db, RATE_TABLE, RATES);
  await db.execute(sql`
    insert into accounts (customer_number, name, org_type)
    select (3000000 + i)::text, 'Scale ' || i, 'Direct' from generate_series(0, ${ACCOUNTS - 1}) i`);
  await elasticServerOf(db, BIG);
  const first = monthsBack(MONTHS - 1);
  await ensureMonthPartitions(db, 'usage_sessions', first, monthsBack(-3));
  // Keys and indexes are built once after the load: far faster than maintaining them row by row.
  const indexes = await queryRows<{ name: string; def: string }>(
    db,
    sql`select indexname as name, indexdef as def from pg_indexes
      where schemaname = 'public' and tablename = 'usage_sessions' and indexname <> 'usage_sessions_pkey'`,
  );
  for (const i of indexes) await db.execute(sql.raw(`drop index ${i.name}`));
  await db.execute(sql`alter table usage_sessions drop constraint usage_sessions_pkey`);

  // Row g (1 … ROWS) of month m: one in BIG_EVERY belongs to the big account, the others spread over the rest;
  // each month's rows start in time order over the month, as ingest writes them.
  const bigEvery = Math.round(ROWS / BIG_ROWS);
  const perMonth = Math.ceil(ROWS / MONTHS);
  const chunk = 2_000_000;
  const jobs: { from: number; to: number; month: Date }[] = [];
  for (let m = 0; m < MONTHS; m++) {
    const month = new Date(monthStart(first, m));
    for (let from = m * perMonth + 1; from <= Math.min(ROWS, (m + 1) * perMonth); from += chunk)
      jobs.push({ from, to: Math.min(ROWS, (m + 1) * perMonth, from + chunk - 1), month });
  }
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  let done = 0;
  const worker = async () => {
    for (let job = jobs.shift(); job; job = jobs.shift()) {
      const monthStartIso = job.month.toISOString();
      const monthEnd = new Date(monthStart(job.month, 1));
      // The current month is generated up to an hour ago only: ingest may not lie in the future.
      const end = Math.min(monthEnd.getTime(), Date.now() - 3_600_000);
      const span = (end - job.month.getTime()) / 1000;
      const base = Math.floor((job.from - 1) / perMonth) * perMonth + 1;
      await pool.query(
        `insert into usage_sessions (id, customer_number, session_id, start_time, end_time, product, product_version,
          product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
          server_id, rate_table_version, rate, charged_cents)
        select g,
          case when g % $3 = 0 then '${BIG}' else (3000001 + g % ($4 - 1))::text end,
          'S' || g,
          st,
          case when g % 500 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
          (array['Fluent','Mechanical','CFX','HFSS','LS-DYNA','Maxwell'])[1 + g % 6],
          '2025.R' || (1 + g % 3),
          1 + g % 4,
          round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8,
          round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8,
          'USD',
          'user' || (g * 7) % 400,
          'ws-' || g % 40,
          'project-' || g % 12,
          case when g % 500 = 0 then 'Active' else 'Closed' end,
          '10.0.' || g % 250 || '.1',
          case when g % 3 = 0 then 'job-' || g end,
          'CLS-' || case when g % $3 = 0 then '${BIG}' else (3000001 + g % ($4 - 1))::text end,
          '${RATE_TABLE}', 2, (g * 13) % 5000
        from generate_series($1::bigint, $2::bigint) g,
          lateral (select $5::timestamptz + make_interval(secs => (g - $6) * $7::float8 / $8) as st) t`,
        [job.from, job.to, bigEvery, ACCOUNTS, monthStartIso, base, span, perMonth],
      );
      done += job.to - job.from + 1;
      console.log(`  ${int(done)} sessions (${elapsed(started)})`);
    }
  };
  await Promise.all([worker(), worker()]);
  await pool.end();
  await db.execute(sql`select setval('usage_sessions_id_seq', ${ROWS})`);
  console.log(`loaded ${int(ROWS)} sessions in ${elapsed(started)}; building keys and indexes`);
  await db.execute(
    sql`alter table usage_sessions add constraint usage_sessions_pkey primary key (id, start_time)`,
  );
  for (const i of indexes) {
    // pg_indexes writes a partitioned table's index as ON ONLY (the parent alone): built here on every partition.
    await db.execute(sql.raw(i.def.replace(' ON ONLY ', ' ON ')));
    console.log(`  ${i.name} (${elapsed(started)})`);
  }

  // Daily rollups (what statements read): each account, each day of the period, three products a day.
  await db.execute(sql`
    insert into elastic_daily_usage (customer_number, day, entitlement_id, product, amount_cents)
    select a.customer_number, to_char(d, 'YYYY-MM-DD'), coalesce(e.id, 0), p, 100 + (abs(hashtext(a.customer_number || d::text || p)) % 5000)
    from accounts a
      cross join generate_series(${first.toISOString()}::timestamptz, now() - interval '1 day', interval '1 day') d
      cross join unnest(array['Fluent','Mechanical','CFX']) p
      left join lateral (select id from entitlements en where en.customer_number = a.customer_number
        and en.start_date <= to_char(d, 'YYYY-MM-DD') order by en.start_date desc limit 1) e on true
    where a.customer_number like '3%'
    on conflict do nothing`);
  console.log(`rollups (${elapsed(started)}); vacuum analyze`);
  await db.execute(sql`vacuum analyze`);
  console.log(`generated in ${elapsed(started)}`);
}

// ---- measure ------------------------------------------------------------------------------------------------

async function sizes(database: Database) {
  const [s] = await queryRows<{ heap: string; indexes: string; n: string; rollups: string }>(
    database.db,
    sql`select sum(pg_relation_size(c.oid) + pg_relation_size(coalesce(c.reltoastrelid, 0)))::bigint as heap,
          sum(pg_indexes_size(c.oid))::bigint as indexes,
          (select count(*) from usage_sessions)::bigint as n,
          pg_total_relation_size('elastic_daily_usage')::bigint as rollups
        from pg_inherits i join pg_class c on c.oid = i.inhrelid
        where i.inhparent = 'usage_sessions'::regclass`,
  );
  const n = Number(s.n);
  const mb = (bytes: number) => `${int(bytes / 1e6)} MB`;
  row(
    `usage_sessions at ${int(n)} rows: table + indexes (per million sessions)`,
    `${mb(Number(s.heap) + Number(s.indexes))} (${mb(((Number(s.heap) + Number(s.indexes)) / n) * 1e6)})`,
    `table ${mb(Number(s.heap))}, indexes ${mb(Number(s.indexes))}; rollups ${mb(Number(s.rollups))}`,
    '',
  );
}

async function benchContext(database: Database): Promise<AppContext> {
  return {
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() }),
    database,
    db: database.db,
    secret: randomBytes(32),
    log: pino({ level: 'silent' }),
  };
}

async function benchUser(database: Database, customerNumbers: readonly string[]): Promise<Principal> {
  const email = `scale-${randomBytes(3).toString('hex')}@example.com`;
  for (const cn of customerNumbers) await addContact(database.db, cn, email, contactRoles.admin);
  const { userId } = await signInAs(database.db, email);
  return { userId, email, name: 'bench', vendorRoles: [], via: 'session' };
}

async function queries(database: Database, raw: pg.Pool) {
  const ctx = await benchContext(database);
  const smallOnes = Array.from({ length: 50 }, (_, i) => small(i * 197));
  const principal = await benchUser(database, [BIG, ...smallOnes]);
  const filter: FilterRule = {
    condition: 'ALL',
    criteria: [
      {
        name: 'StartTime',
        method: 'DATERANGE',
        value: [new Date(Date.now() - WINDOW_DAYS * DAY).toISOString(), new Date().toISOString()],
      },
    ],
  };
  const sorting = usageSorting(undefined);
  const rawOf = (q: SQL) => {
    const { sql: text, params } = dialect.sqlToQuery(q);
    return raw.query(text, params as unknown[]);
  };
  for (const [label, accountOf] of [
    [`the big account (${int(BIG_ROWS)} sessions)`, () => BIG],
    [
      `50 small accounts in turn (about ${int((ROWS - BIG_ROWS) / (ACCOUNTS - 1))} sessions each)`,
      (i: number) => smallOnes[i % 50],
    ],
  ] as const) {
    const page = (i: number, token?: string | null) => ({
      scope: accountScope(accountOf(i)),
      request: { filter, sorting, limit: 20, ...(token === undefined ? {} : { token }) },
      secret: ctx.secret,
    });
    const plan = await rawOf(
      sql`explain (analyze, buffers, costs off) ${compilePageQuery(usageSessionsResource, page(0)).query}`,
    );
    console.log(
      `plan of the block, ${label}:\n${plan.rows.map((r) => `  ${Object.values(r)[0]}`).join('\n')}`,
    );
    const block = await inTurns(
      ITERATIONS,
      20,
      (i) => queryPage(database.db, usageSessionsResource, page(i)),
      (i) => rawOf(compilePageQuery(usageSessionsResource, page(i)).query),
    );
    row(
      `usage grid block (20 rows, ${span}, default sort), ${label}: engine vs the same SQL raw (p50 / p95 ms)`,
      pair(block.subject),
      `${pair(block.base)} (raw)`,
      ratios(block.subject, block.base),
      '<= 30 ms p95, <= 1.5x raw',
      block.subject.p95 <= 30 && block.subject.p95 / block.base.p95 <= 1.5,
    );
    const tokens = new Map<number, string | null>();
    for (let i = 0; i < 50; i++)
      tokens.set(i, (await queryPage(database.db, usageSessionsResource, page(i))).token);
    const next = await inTurns(
      ITERATIONS,
      20,
      (i) => queryPage(database.db, usageSessionsResource, page(i, tokens.get(i % 50))),
      (i) => rawOf(compilePageQuery(usageSessionsResource, page(i, tokens.get(i % 50))).query),
    );
    row(
      `next block by token, ${label} (p50 / p95 ms)`,
      pair(next.subject),
      `${pair(next.base)} (raw)`,
      ratios(next.subject, next.base),
      '<= 30 ms p95, <= 1.5x raw',
      next.subject.p95 <= 30 && next.subject.p95 / next.base.p95 <= 1.5,
    );
    const serviceTimes: number[] = [];
    for (let i = 0; i < ITERATIONS + 20; i++) {
      const t = performance.now();
      await listUsage(ctx, principal, { customerNumber: accountOf(i), filter, limit: 20, offset: 0 });
      if (i >= 20) serviceTimes.push(performance.now() - t);
    }
    const service = spread(serviceTimes);
    row(
      `usage grid block through the service (gate + presentation), ${label} (p50 / p95 ms)`,
      pair(service),
      '',
      '',
      '<= 30 ms p95',
      service.p95 <= 30,
    );

    const countScope = (i: number) => ({ scope: accountScope(accountOf(i)), filter });
    const countPlan = await rawOf(
      sql`explain (analyze, buffers, costs off) ${compileCountQuery(usageSessionsResource, countScope(0))}`,
    );
    console.log(
      `plan of the count, ${label}:\n${countPlan.rows.map((r) => `  ${Object.values(r)[0]}`).join('\n')}`,
    );
    const count = await inTurns(
      ITERATIONS / 4,
      5,
      (i) => queryCount(database.db, usageSessionsResource, countScope(i)),
      (i) => rawOf(compileCountQuery(usageSessionsResource, countScope(i))),
    );
    row(
      `count of the raw rows over ${span} (queryCount), ${label} (p50 / p95 ms)`,
      pair(count.subject),
      `${pair(count.base)} (raw)`,
      ratios(count.subject, count.base),
    );
    const served = await inTurns(
      ITERATIONS / 4,
      5,
      (i) => countUsage(ctx, principal, { customerNumber: accountOf(i), filter }),
      (i) => rawOf(compileCountQuery(usageSessionsResource, countScope(i))),
    );
    row(
      `count over ${span} as the API answers it (countUsage: whole days from usage_daily_counts, raw rows at the edges), ${label} (p50 / p95 ms)`,
      pair(served.subject),
      `${pair(served.base)} (the raw count's SQL)`,
      ratios(served.subject, served.base),
      '<= 150 ms p95',
      served.subject.p95 <= 150,
    );
    for (const key of ['User', 'Product']) {
      const distinctOf = (i: number) => ({ ...countScope(i), key, limit: 500 });
      const distinct = await inTurns(
        ITERATIONS / 4,
        5,
        (i) => distinctUsage(ctx, principal, { customerNumber: accountOf(i), filter, key, limit: 500 }),
        (i) => queryDistinct(database.db, usageSessionsResource, distinctOf(i)),
      );
      row(
        `distinct ${key} over ${span} as the API answers it (distinctUsage: ${key === 'User' ? 'a loose index scan' : 'whole days from usage_daily_counts, raw rows at the edges'}), ${label}, against the engine over the raw rows (p50 / p95 ms)`,
        pair(distinct.subject),
        `${pair(distinct.base)} (raw rows)`,
        ratios(distinct.subject, distinct.base),
        '<= 150 ms p95',
        distinct.subject.p95 <= 150,
      );
    }
  }
}

async function statement(database: Database, raw: pg.Pool) {
  const ctx = await benchContext(database);
  const principal = await benchUser(database, [BIG]);
  const request = { customerNumber: BIG, from: day(-365), to: day(0) };
  const check = await getStatement(ctx, principal, request);
  console.log(
    `statement ${request.from}..${request.to}: ${check.Records.length} purchase orders, ${check.Products.length} products`,
  );
  const timed = await inTurns(
    ITERATIONS,
    20,
    () => getStatement(ctx, principal, request),
    () => raw.query('select 1'),
  );
  row(
    `one-year statement of the big account (getStatement: gate, entitlements, rollups, presentation) (p50 / p95 ms)`,
    pair(timed.subject),
    `${pair(timed.base)} (select 1)`,
    ratios(timed.subject, timed.base),
    '<= 100 ms p95',
    timed.subject.p95 <= 100,
  );
}

async function ingest(database: Database) {
  const streams = Number(args.streams);
  const seconds = Number(args['ingest-seconds']);
  const servers: ElasticServer[] = [];
  for (let s = 0; s < streams; s++) {
    const cn = small(7_000 + s * 13);
    const [{ n }] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from license_servers where host_identity = ${`CLS-${cn}`}`,
    );
    servers.push(
      n ? { customerNumber: cn, elasticServerId: `CLS-${cn}` } : await elasticServerOf(database.db, cn),
    );
  }
  const until = performance.now() + seconds * 1000;
  const perMinute: number[] = [];
  let events = 0;
  let minuteEvents = 0;
  let minuteStart = performance.now();
  const started = performance.now();
  const tag = randomBytes(3).toString('hex');
  await Promise.all(
    servers.map(async (server, s) => {
      const to = Date.now() - 3_600_000;
      for (const batch of eventBatches(300 + s, `in${tag}-${s}`, 100_000_000, to - 20 * DAY, to)) {
        if (performance.now() > until) return;
        const result = await ingestUsage(database.db, server, batch);
        if (result.rejected.length)
          throw new Error(`rejected ${JSON.stringify(result.rejected.slice(0, 2))}`);
        events += batch.length;
        minuteEvents += batch.length;
        if (performance.now() - minuteStart >= 60_000) {
          perMinute.push(minuteEvents / ((performance.now() - minuteStart) / 1000));
          console.log(`  minute ${perMinute.length}: ${int(perMinute.at(-1) ?? 0)} events/s`);
          minuteEvents = 0;
          minuteStart = performance.now();
        }
      }
    }),
  );
  const rate = events / ((performance.now() - started) / 1000);
  row(
    `ingest through ingestUsage (rating + ledger), ${streams} streams for ${fmt((performance.now() - started) / 1000)} s into the ${int(ROWS)}-row partitioned table: overall (slowest minute … fastest)`,
    `${int(rate)} events/s (${int(Math.min(...perMinute))} … ${int(Math.max(...perMinute))})`,
    '',
    '',
    '>= 20,000 events/s sustained',
    Math.min(...perMinute) >= 20_000,
  );
}

async function main() {
  const t0 = performance.now();
  console.log(
    `stages=${[...stages].join(',')} rows=${int(ROWS)} accounts=${int(ACCOUNTS)} big=${int(BIG_ROWS)} months=${MONTHS} dir=${args.dir} cpus=${os.cpus().length} load=${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const server = await startServer(args.dir);
  const admin = new pg.Client({ connectionString: server.url.replace(/\/lp$/, '/postgres') });
  await admin.connect();
  const exists = (await admin.query(`select 1 from pg_database where datname = 'lp'`)).rowCount;
  if (!exists) await admin.query('create database lp');
  await admin.end();
  const database = await openPostgres(server.url, Math.max(8, Number(args.streams) + 4));
  const raw = new pg.Pool({ connectionString: server.url, max: 2 });
  try {
    const [{ n }] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from pg_tables where tablename = 'accounts'`,
    );
    if (stages.has('generate') && !n) await generate(server.url, database);
    // A database generated by an earlier commit gets the migrations since (0021 counts its sessions by day).
    else if (n) {
      const started = performance.now();
      await migrateDatabase(database, server.url);
      console.log(`migrations checked (${elapsed(started)})`);
    }
    await sizes(database);
    if (stages.has('queries')) await queries(database, raw);
    if (stages.has('statement')) await statement(database, raw);
    if (stages.has('ingest')) await ingest(database);
    await sizes(database);
  } finally {
    await raw.end();
    await database.close();
    await server.stop();
    if (args.drop) fs.rmSync(args.dir, { recursive: true, force: true });
  }
  console.log(`\ntotal ${elapsed(t0)}`);
  console.log('| measurement | value | baseline (same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
