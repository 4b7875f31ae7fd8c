/**
 * Audit log benchmark (issue 13 §3: the Audit Log page block at 5M entries ≤ 30 ms p95). The harness is
 * bench/fsa.ts's: the real server runs as its own process (`server/src/main.ts`) on a free port, called over HTTP
 * with a real session; each number has a baseline measured in the same run, the two timed in turns (the order
 * swapped every round, warm-up rounds dropped). Measured, each a POST /api/audit block of 100 rows (the grid's
 * block size), newest first:
 *  first       an account's first block (its administrator)
 *  filtered    the same account filtered on an action and the last 30 days
 *  deep        the same account's block at offset 10 000 (paging by offset, as the grid's pager does)
 *  all         the cross-account view's first block (vendor staff)
 *  count       /api/audit/count of the filtered block's filter (the pager's total; no target)
 * Baseline: a bare authenticated POST /api/activatedelasticservers of the same account.
 *
 * The log is filled with one generate_series INSERT per slice (the chain's seq and a placeholder hash, not a real
 * hash chain: reading does not look at the hashes, and `audit verify` is not part of this bench).
 *
 *   npx tsx bench/audit.ts [--engines pglite,postgres] [--entries N] [--pglite-entries N] [--rounds N]
 *   (also `npm run bench:audit -w @lp/bench -- ...`)
 *
 * Defaults: 5 000 000 entries on PostgreSQL, 1 000 000 on PGlite (filling 5M there takes too long for a run),
 * over ACCOUNTS accounts, 200 rounds. PostgreSQL: a fresh database on BENCH_DATABASE_URL, dropped afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { auditApi } from '@lp/contract/audit/api';
import { ipRulesApi } from '@lp/contract/ip-rules/api';
import { contactRoles } from '@lp/domain/policy';
import { type Db, openDatabase } from '@lp/server/db/database';
import { addContact, buildAccount } from '@lp/server/test/factories';
import { signInAs } from '@lp/server/test/sign-in';
import { sql } from 'drizzle-orm';
import { openBenchDatabase } from './bench-database.ts';
import { inTurns, int, pair, ratios, row, table } from './measure.ts';
import { caller, startServer, stopServer } from './server-process.ts';

const { values: opt } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    entries: { type: 'string', default: '5000000' },
    'pglite-entries': { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '200' },
  },
});
const ROUNDS = Number(opt.rounds);
const WARMUP = 20;
const ACCOUNTS = 5;
const SLICE = 250_000;
const BLOCK = 100;
const account = (k: number) => `73${String(k + 1).padStart(5, '0')}`;
const ADMIN = 'bench-audit-admin@example.com';
const STAFF = 'bench-audit-staff@example.com';
const ACTIONS = [
  'ip-rules.changed',
  'portal-access.contact.changed',
  'hosts.added',
  'fulfillments.created',
  'api-tokens.created',
  'elastic.balance.adjusted',
];

/**
 * Entries seq from..to of account k, one every `step` seconds up to now (the accounts interleave in time), with
 * varied actors, actions, objects and a small before/after.
 */
const fill = (k: number, from: number, to: number, perAccount: number, step: number) => sql`
  insert into audit_entries (chain, seq, at, customer_number, actor_kind, actor_id, actor_name, action,
    object_type, object_id, before, after, request_id, client_ip, prev_hash, hash)
  select ${account(k)}, g,
    now() - ((${perAccount} - g) * ${step} + ${k}) * interval '1 second',
    ${account(k)}, 'user', 'u-' || (g % 40), 'user' || (g % 40) || '@bench.example',
    (${sql.raw(`array[${ACTIONS.map((a) => `'${a}'`).join(',')}]`)})[1 + g % ${ACTIONS.length}],
    split_part((${sql.raw(`array[${ACTIONS.map((a) => `'${a}'`).join(',')}]`)})[1 + g % ${ACTIONS.length}], '.', 1),
    'obj-' || (g % 5000), jsonb_build_object('n', g - 1), jsonb_build_object('n', g),
    'req-' || g, '203.0.113.' || (g % 250), repeat('0', 64), md5(g::text)
  from generate_series(${from}::bigint, ${to}::bigint) g`;

async function seed(db: Db, entries: number) {
  const started = performance.now();
  const perAccount = Math.floor(entries / ACCOUNTS);
  // Spread over two years: one entry per account every `step` seconds.
  const step = Math.max(1, Math.floor((2 * 365 * 86_400) / perAccount));
  for (let k = 0; k < ACCOUNTS; k++) {
    await buildAccount(db, { customerNumber: account(k), name: `Bench Audit ${k + 1}`, orgType: 'Direct' });
    for (let from = 1; from <= perAccount; from += SLICE)
      await db.execute(fill(k, from, Math.min(perAccount, from + SLICE - 1), perAccount, step));
    console.log(
      `  account ${account(k)}: ${int(perAccount)} entries, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  await db.execute(sql`analyze audit_entries`);
  await addContact(db, account(0), ADMIN, contactRoles.admin);
  const admin = (await signInAs(db, ADMIN)).headers;
  const staff = (await signInAs(db, STAFF, { vendorRoles: ['support'] })).headers;
  const seconds = (performance.now() - started) / 1000;
  console.log(`  filled ${int(perAccount * ACCOUNTS)} entries in ${seconds.toFixed(0)} s`);
  return { admin, staff, filled: perAccount * ACCOUNTS, seconds };
}

type Post = ReturnType<typeof caller>;

const lastDays = (days: number) => [
  new Date(Date.now() - days * 86_400_000).toISOString(),
  new Date().toISOString(),
];

async function measure(label: string, filled: number, admin: Post, staff: Post) {
  const customerNumber = account(0);
  const filtered = {
    condition: 'ALL' as const,
    criteria: [
      { name: 'action', method: 'EQUALS' as const, value: 'ip-rules.changed' },
      { name: 'time', method: 'DATERANGE' as const, value: lastDays(30) },
    ],
  };
  const bare = () => admin(ipRulesApi.servers.path, { customerNumber });
  const sorting = [{ name: 'time', direction: 'desc' }];
  const stages: [string, (i: number) => Promise<unknown>, string][] = [
    [
      'first block of an account',
      () => admin(auditApi.page.path, { customerNumber, sorting, limit: BLOCK, offset: 0 }),
      '<= 30 ms p95',
    ],
    [
      'filtered block (one action, last 30 days)',
      () => admin(auditApi.page.path, { customerNumber, filter: filtered, sorting, limit: BLOCK, offset: 0 }),
      '<= 30 ms p95',
    ],
    [
      'block at offset 10 000',
      () => admin(auditApi.page.path, { customerNumber, sorting, limit: BLOCK, offset: 10_000 }),
      '',
    ],
    [
      'first block across accounts (staff)',
      () => staff(auditApi.page.path, { sorting, limit: BLOCK, offset: 0 }),
      '<= 30 ms p95',
    ],
    [
      'count of the filtered block (the pager total)',
      () => admin(auditApi.count.path, { customerNumber, filter: filtered }),
      '',
    ],
  ];
  for (const [what, call, target] of stages) {
    const answer = (await call(0)) as { data: unknown };
    const rows = Array.isArray(answer.data)
      ? `${answer.data.length} rows`
      : `= ${int(answer.data as number)}`;
    const result = await inTurns(ROUNDS, WARMUP, call, bare);
    row(
      `${label}, ${int(filled)} entries: ${what} (${rows}; n=${result.subject.n}, ms p50 / p95)`,
      pair(result.subject),
      `${pair(result.base)} (bare POST /api/activatedelasticservers)`,
      ratios(result.subject, result.base),
      target,
      target ? result.subject.p95 <= 30 : undefined,
    );
  }
}

async function engineRun(engine: 'pglite' | 'postgres') {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const entries = Number(engine === 'pglite' ? opt['pglite-entries'] : opt.entries);
  console.log(`${label}:`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-audit-'));
  const bench = engine === 'postgres' ? await openBenchDatabase('postgres', 4) : undefined;
  let child: ChildProcess | undefined;
  try {
    const database =
      bench?.database ??
      (await openDatabase({ pgliteDir: path.join(dataDir, 'pglite'), DATABASE_POOL_MAX: 1 }));
    const seeded = await seed(database.db, entries);
    if (!bench) await database.close();
    const server = await startServer(dataDir, bench?.url);
    child = server.child;
    row(
      `${label}: fill (generate_series, ${ACCOUNTS} accounts)`,
      `${int(seeded.filled)} entries in ${seeded.seconds.toFixed(0)} s`,
      '',
      '',
    );
    await measure(label, seeded.filled, caller(server.base, seeded.admin), caller(server.base, seeded.staff));
  } finally {
    if (child) await stopServer(child);
    await bench?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = performance.now();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `engines=${opt.engines} entries=${opt.entries} pglite-entries=${opt['pglite-entries']} rounds=${ROUNDS} (+${WARMUP} warm-up)`,
  );
  console.log(
    `nproc ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load average ${load()}`,
  );
  for (const engine of opt.engines.split(',')) await engineRun(engine === 'postgres' ? 'postgres' : 'pglite');
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s, load average at the end ${load()}`,
  );
  console.log('| measurement | value | baseline (same run) | ratio p50 / p95 | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
