/**
 * Query-engine benchmark: usage_sessions with N rows over 50 accounts, then p50/p95 of the engine's
 * page (20-row block with filter + sort for one account), next page by token, count and distinct, each
 * next to the very same compiled SQL run raw through the driver in the same run (ratio engine/raw).
 *
 *   npx tsx bench/query-engine.ts [--engine postgres|pglite] [--rows N] [--iterations N] [--budget-seconds S]
 *     [--extra-sql "create index ..."]   (DDL to try, run after the load and before VACUUM ANALYZE)
 *
 * Prints the size of the table and of each of its indexes after the load, and the plans of the blocks, the
 * filtered count and the distinct.
 *
 * postgres: a fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test),
 * dropped afterwards. pglite: a temporary data folder, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import type { Database } from '@lp/server/db/database';
import { usageSessionsResource } from '@lp/server/features/transactions/resource';
import {
  compileCountQuery,
  compileDistinctQuery,
  compilePageQuery,
  queryCount,
  queryDistinct,
  queryPage,
} from '@lp/server/platform/query/engine';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { openBenchDatabase } from './bench-database.ts';

const { values: args } = parseArgs({
  options: {
    engine: { type: 'string', default: 'postgres' },
    rows: { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '200' },
    'budget-seconds': { type: 'string', default: '60' },
    // e.g. an index to try before measuring: --extra-sql "create index ... on usage_sessions ..."
    'extra-sql': { type: 'string' },
  },
});
const engine = args.engine === 'pglite' ? 'pglite' : 'postgres';
const totalRows = Number(args.rows);
const iterations = Number(args.iterations);
const budgetMs = Number(args['budget-seconds']) * 1000;
const ACCOUNTS = 50;
const dialect = new PgDialect();

/** Deterministic data: row g of N belongs to account g % 50, starts within 13 months before the end date. */
async function fill(database: Database) {
  const { db } = database;
  const indexes = (await db.execute(
    sql`select indexname, indexdef from pg_indexes where tablename = 'usage_sessions' and indexname not like '%pkey'`,
  )) as unknown as { rows: { indexname: string; indexdef: string }[] };
  // Building the secondary indexes once after the load is much faster than maintaining them per row.
  for (const i of indexes.rows) await db.execute(sql.raw(`drop index ${i.indexname}`));
  const chunk = 1_000_000;
  const started = Date.now();
  for (let from = 1; from <= totalRows; from += chunk) {
    const to = Math.min(totalRows, from + chunk - 1);
    await db.execute(sql`
      insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
        product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id, server_id)
      select (100000 + g % ${ACCOUNTS})::text,
        'S' || g,
        st,
        case when g % 500 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
        (array['Fluent','Mechanical','CFX','HFSS','LS-DYNA','Maxwell'])[1 + g % 6],
        '2025.R' || (1 + g % 3),
        1 + g % 8,
        round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8,
        round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8,
        case when g % 7 = 0 then 'EUR' else 'USD' end,
        'user' || (g / ${ACCOUNTS}) % 40,
        'host-' || g % 25,
        'project-' || g % 12,
        case when g % 500 = 0 then 'Active' else 'Closed' end,
        '10.0.' || g % 250 || '.1',
        case when g % 3 = 0 then 'job-' || g end,
        'SRV' || g % ${ACCOUNTS}
      from generate_series(${from}::bigint, ${to}::bigint) g,
        lateral (select timestamptz '2026-11-01 00:00:00+00' - make_interval(secs => (g * 7919) % 34000000) as st) t`);
    process.stdout.write(`  loaded ${to} rows (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  for (const i of indexes.rows) await db.execute(sql.raw(i.indexdef));
  if (args['extra-sql']) await db.execute(sql.raw(args['extra-sql']));
  // VACUUM sets the visibility map as autovacuum would on a live server, enabling index-only scans.
  await db.execute(sql`vacuum analyze usage_sessions`);
  return (Date.now() - started) / 1000;
}

/** Storage of the table and of each of its indexes after the load (what an index costs on disk). */
async function printSizes(database: Database) {
  const sizes = (await database.db.execute(
    sql`select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size,
          coalesce(pg_get_indexdef(c.oid), 'heap') as def
        from pg_class c
        where c.oid = 'usage_sessions'::regclass
          or c.oid in (select indexrelid from pg_index where indrelid = 'usage_sessions'::regclass)
        order by pg_relation_size(c.oid) desc`,
  )) as unknown as { rows: { name: string; size: string; def: string }[] };
  console.log('sizes after the load:');
  for (const r of sizes.rows) console.log(`  ${r.name}: ${r.size}  (${r.def})`);
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

interface Case {
  name: string;
  engine: (i: number) => Promise<unknown>;
  raw: (i: number) => { sql: string; params: unknown[] };
}

async function main() {
  const t0 = Date.now();
  const { database, raw, cleanup } = await openBenchDatabase(engine, 4);
  try {
    console.log(
      `engine=${engine} rows=${totalRows} iterations=${iterations} extra-sql=${args['extra-sql'] ?? 'none'}`,
    );
    const loadSeconds = await fill(database);
    await printSizes(database);
    const { db } = database;
    const secret = randomBytes(32);
    const account = (i: number) => String(100000 + ((i * 7) % ACCOUNTS));
    const scope = (i: number): SQL => sql`u.customer_number = ${account(i)}`;
    // A typical screen request: last 3 months, a username filter, newest first.
    const filter: FilterRule = {
      condition: 'ALL',
      criteria: [
        { name: 'StartTime', method: 'DATERANGE', value: ['2026-08-01T00:00:00Z', '2026-11-01T00:00:00Z'] },
        { name: 'User', method: 'CONTAINS', value: 'USER1', casefold: true },
      ],
    };
    const dateOnly: FilterRule = { condition: 'ALL', criteria: [filter.criteria[0]] };
    const sorting: SortRule[] = [{ name: 'StartTime', direction: 'desc' }];
    const request = { filter, sorting, limit: 20 };
    // Tokens for the second block, one per account, made outside the timed loop.
    const tokens = new Map<string, string | null>();
    for (let i = 0; i < ACCOUNTS; i++) {
      const first = await queryPage(db, usageSessionsResource, {
        scope: scope(i),
        request: { ...request, token: null },
        secret,
      });
      tokens.set(account(i), first.token);
    }
    const toQuery = (q: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(q);
      return { sql: text, params };
    };
    const cases: Case[] = [
      {
        name: 'block (20 rows, filter+sort, offset 0)',
        engine: (i) => queryPage(db, usageSessionsResource, { scope: scope(i), request, secret }),
        raw: (i) =>
          toQuery(compilePageQuery(usageSessionsResource, { scope: scope(i), request, secret }).query),
      },
      {
        name: 'next block by token',
        engine: (i) =>
          queryPage(db, usageSessionsResource, {
            scope: scope(i),
            request: { ...request, token: tokens.get(account(i)) },
            secret,
          }),
        raw: (i) =>
          toQuery(
            compilePageQuery(usageSessionsResource, {
              scope: scope(i),
              request: { ...request, token: tokens.get(account(i)) },
              secret,
            }).query,
          ),
      },
      {
        name: 'count (cap 30000)',
        engine: (i) => queryCount(db, usageSessionsResource, { scope: scope(i), filter, cap: 30_000 }),
        raw: (i) =>
          toQuery(compileCountQuery(usageSessionsResource, { scope: scope(i), filter, cap: 30_000 })),
      },
      {
        name: 'count, date range only (cap 100000)',
        engine: (i) =>
          queryCount(db, usageSessionsResource, { scope: scope(i), filter: dateOnly, cap: 100_000 }),
        raw: (i) =>
          toQuery(
            compileCountQuery(usageSessionsResource, { scope: scope(i), filter: dateOnly, cap: 100_000 }),
          ),
      },
      {
        name: 'distinct Product (3 months)',
        engine: (i) =>
          queryDistinct(db, usageSessionsResource, {
            scope: scope(i),
            filter: dateOnly,
            key: 'Product',
          }),
        raw: (i) =>
          toQuery(
            compileDistinctQuery(usageSessionsResource, {
              scope: scope(i),
              filter: dateOnly,
              key: 'Product',
            }),
          ),
      },
    ];

    // Plans of the blocks, the filtered count and the distinct (index-only scans show their heap fetches).
    for (const c of [cases[0], cases[1], cases[2], cases[4]]) {
      const q = c.raw(0);
      const plan = (await raw(`explain (analyze, costs off) ${q.sql}`, q.params)) as {
        rows: Record<string, string>[];
      };
      console.log(`plan of ${c.name}:`);
      for (const r of plan.rows) console.log(`  ${Object.values(r)[0]}`);
    }

    const results: string[] = [];
    for (const c of cases) {
      const eng: number[] = [];
      const rawTimes: number[] = [];
      const started = performance.now();
      // Slow cases (count and distinct over ~50k scattered rows at 10M) stop after a time budget.
      for (let i = 0; i < iterations + 50 && (i < 70 || performance.now() - started < budgetMs); i++) {
        // Engine and raw alternate, and swap order each iteration, so both see the same cache, GC and
        // machine state.
        const q = c.raw(i);
        let te = 0;
        let tr = 0;
        for (const which of i % 2 === 0 ? ['engine', 'raw'] : ['raw', 'engine']) {
          const t = performance.now();
          if (which === 'engine') await c.engine(i);
          else await raw(q.sql, q.params);
          if (which === 'engine') te = performance.now() - t;
          else tr = performance.now() - t;
        }
        if (i >= 50) {
          eng.push(te);
          rawTimes.push(tr);
        }
      }
      const [e50, e95, r50, r95] = [
        percentile(eng, 50),
        percentile(eng, 95),
        percentile(rawTimes, 50),
        percentile(rawTimes, 95),
      ];
      results.push(
        `| ${engine} | ${totalRows.toLocaleString('en-US')} | ${c.name} (n=${eng.length}) | ${e50.toFixed(2)} | ${e95.toFixed(2)} | ${r50.toFixed(2)} | ${r95.toFixed(2)} | ${(e50 / r50).toFixed(2)} | ${(e95 / r95).toFixed(2)} |`,
      );
    }
    console.log(
      `\nload ${loadSeconds.toFixed(0)} s (insert + index build + vacuum analyze), total ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
    console.log(
      '| engine | rows | query | engine p50 ms | engine p95 ms | raw p50 ms | raw p95 ms | p50 ratio | p95 ratio |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const r of results) console.log(r);
  } finally {
    await cleanup();
  }
}

await main();
