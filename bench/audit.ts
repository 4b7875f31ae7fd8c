import os from 'node:os';
import { parseArgs } from 'node:util';
import { auditApi } from '@lp/contract/audit/api';
import { ipRulesApi } from '@lp/contract/ip-rules/api';
import { contactRoles } from '@lp/domain/policy';
import type { Db } from '@lp/server/db/database';
import { addContact, buildAccount } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { sql } from 'drizzle-orm';
import { inTurns, int, pair, ratios, row, table } from './measure.ts';
import { caller, loadAverage, withSeededServer } from './server-process.ts';

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
  await withSeededServer(
    engine,
    (database) => seed(database.db, entries),
    async (server, seeded) => {
      row(
        `${label}: fill (generate_series, ${ACCOUNTS} accounts)`,
        `${int(seeded.filled)} entries in ${seeded.seconds.toFixed(0)} s`,
        '',
        '',
      );
      await measure(
        label,
        seeded.filled,
        caller(server.base, seeded.admin),
        caller(server.base, seeded.staff),
      );
    },
  );
}

async function main() {
  const started = performance.now();
  console.log(
    `engines=${opt.engines} entries=${opt.entries} pglite-entries=${opt['pglite-entries']} rounds=${ROUNDS} (+${WARMUP} warm-up)`,
  );
  console.log(
    `nproc ${os.cpus().length}, node ${process.version}, ${new Date().toISOString()}, load average ${loadAverage()}`,
  );
  for (const engine of opt.engines.split(',')) await engineRun(engine === 'postgres' ? 'postgres' : 'pglite');
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s, load average at the end ${loadAverage()}`,
  );
  console.log('| measurement | value | baseline (same run) | ratio p50 / p95 | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
