/**
 * Entitlements benchmark (issue 10 §8). Each number has a baseline measured in the same run (2 shared cores):
 *  block   the /api/fetchEntitlements/active block (20 rows, default sort EndDate asc, one account) at N SSL
 *          entitlements over M accounts: queryPage on leasesResource/leasesScope (what listLeases runs) vs the
 *          very same compiled SQL sent raw through the driver; then the whole route through app.inject vs
 *          GET /healthz. PostgreSQL only (a fresh database, dropped afterwards).
 *  race    C parallel POST /api/fulfillments/create (app.inject, different users and hosts) of 1 seat each on an
 *          entitlement with only its last 10 seats free: creates/s and overdraws (must be 0). Baseline: the same
 *          C creates on an entitlement with enough free seats for all. PGlite and PostgreSQL.
 *  files   generateLicenseFiles + sign for a shared host (K customers x F fulfillments) and the merged and
 *          per-daemon shared files; verifyLicenseText of a file of L physical lines. Baselines: the bare
 *          Ed25519 sign / verify of the same canonical lines.
 *
 *   npx tsx bench/entitlements.ts [--only block,race,files] [--full]
 *     [--entitlements N] [--accounts M] [--iterations N] [--extra-sql "DDL"]
 *     [--race-engines postgres,pglite] [--creates C] [--rounds R] [--pool N]
 *     [--customers K] [--fulfillments F] [--verify-lines L]
 *   (also `npm run bench:entitlements -w @lp/bench -- ...`)
 *
 * Defaults are small (20 000 entitlements over 200 accounts); --full sets the issue's sizes (1 000 000 over
 * 10 000, 300 iterations, 5 race rounds). --extra-sql runs on the block database after the load, before
 * VACUUM ANALYZE (e.g. an index to try).
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { formatDate } from '@lp/domain/dates';
import {
  canonicalFeatureLine,
  generateLicenseFiles,
  type LicenseFeature,
  type LicenseFiles,
  mergeLicenseFiles,
  readSignValue,
  sharedLicenseFiles,
} from '@lp/domain/license-file';
import { parseLicenseText } from '@lp/domain/license-file-parse';
import { createSigningKey, signer, verifyLicenseText } from '@lp/domain/license-signature';
import { contactRoles } from '@lp/domain/policy';
import type { Db } from '@lp/server/db/database';
import { products } from '@lp/server/db/schema';
import { listLeases } from '@lp/server/features/entitlements/service';
import { addContact, buildAccount, buildEntitlement } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { createTestApp } from '@lp/server/harness/test-app';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import type { Principal } from '@lp/server/platform/principal';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type BenchDatabase, openBenchDatabase } from './bench-database.ts';
import { fmt, inTurns, int, pair, ratios, row, spread, table } from './measure.ts';

const { values: opt } = parseArgs({
  options: {
    only: { type: 'string', default: 'block,race,files' },
    full: { type: 'boolean', default: false },
    entitlements: { type: 'string' },
    accounts: { type: 'string' },
    iterations: { type: 'string' },
    'extra-sql': { type: 'string' },
    'race-engines': { type: 'string', default: 'postgres,pglite' },
    creates: { type: 'string', default: '100' },
    rounds: { type: 'string' },
    pool: { type: 'string', default: '10' },
    customers: { type: 'string', default: '3' },
    fulfillments: { type: 'string', default: '300' },
    'verify-lines': { type: 'string', default: '1000' },
  },
});
const size = (given: string | undefined, small: number, full: number) =>
  Number(given ?? (opt.full ? full : small));
const stages = new Set(opt.only.split(','));
const ENTITLEMENTS = size(opt.entitlements, 20_000, 1_000_000);
const ACCOUNTS = size(opt.accounts, 200, 10_000);
const ITERATIONS = size(opt.iterations, 100, 300);
const ROUNDS = size(opt.rounds, 2, 5);
const CREATES = Number(opt.creates);
const CUSTOMERS = Number(opt.customers);
const FULFILLMENTS = Number(opt.fulfillments);
const VERIFY_LINES = Number(opt['verify-lines']);
const DAY_MS = 86_400_000;
const today = () => formatDate(new Date());
const dayFromNow = (days: number) => formatDate(Date.now() + days * DAY_MS);
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

// ---- block: /api/fetchEntitlements/active at N entitlements -------------------------------------------------

const CN_BASE = 5_000_000;
const PARTS = 12;

/**
 * N deterministic SSL entitlements, entitlement g in account g % M: a tenth perpetual, 1 in 25 not Deployed,
 * starts spread over the last 4 years, leases of 1-3 years (about half of them active today).
 */
async function loadEntitlements(db: Db) {
  const started = performance.now();
  await db.execute(sql`insert into accounts (customer_number, name, org_type)
    select (${CN_BASE} + a)::text, 'Bench ' || a, 'Direct' from generate_series(0, ${ACCOUNTS - 1}::int) a`);
  await db.execute(sql`insert into products (part_number, name, family, daemon, feature_name)
    select 'BP-' || p, 'Bench product ' || p, 'Bench', (array['ansyslmd','simlmd','cdlmd'])[1 + p % 3], 'feat_' || p
    from generate_series(1, ${PARTS}::int) p`);
  const step = 250_000;
  for (let first = 0; first < ENTITLEMENTS; first += step) {
    const last = Math.min(ENTITLEMENTS, first + step) - 1;
    // h: a hash of g, so that an entitlement's model, state and dates do not follow its account (g % M).
    await db.execute(sql`insert into entitlements (customer_number, activation_id, kind, license_model, state,
        part_number, quantity, activated, start_date, end_date, version_date, is_evaluation)
      select (${CN_BASE} + g % ${ACCOUNTS})::text, 'BENCH-' || g, 'SSL',
        case when h % 10 = 0 then 'Perpetual' else (array['Lease','Network','Network Borrow'])[1 + h % 3] end,
        case when h % 25 = 1 then 'Inactive' else 'Deployed' end,
        'BP-' || (1 + h % ${PARTS}), 1 + h % 50, (h % 50) / 3,
        to_char(s, 'YYYY-MM-DD'),
        case when h % 10 = 0 then null
          else to_char(s + (365 * (1 + (h / 7) % 3)) * interval '1 day', 'YYYY-MM-DD') end,
        case when h % 10 = 0 then to_char(s + interval '2 years', 'YYYY-MM-DD') end,
        h % 40 = 3
      from generate_series(${first}::bigint, ${last}::bigint) g,
        lateral (select (g * 2654435761) % 1000003 as h) m,
        lateral (select current_date - ((h / 11) % 1460) * interval '1 day' as s) d`);
    console.log(
      `  loaded ${int(last + 1)} entitlements (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  if (opt['extra-sql']) await db.execute(sql.raw(opt['extra-sql']));
  await db.execute(sql`vacuum analyze entitlements`);
  await db.execute(sql`analyze`);
  return (performance.now() - started) / 1000;
}

async function printStorage(db: Db) {
  const sizes = rowsOf<{ name: string; size: string; def: string }>(
    await db.execute(sql`select c.relname as name, pg_size_pretty(pg_relation_size(c.oid)) as size,
        coalesce(pg_get_indexdef(c.oid), 'table') as def
      from pg_class c where c.oid = 'entitlements'::regclass
        or c.oid in (select indexrelid from pg_index where indrelid = 'entitlements'::regclass)
      order by pg_relation_size(c.oid) desc`),
  );
  for (const s of sizes) console.log(`  ${s.name} ${s.size}: ${s.def}`);
}

/** A signed-in admin contact of these accounts (cookie and anti-CSRF headers for app.inject). */
async function adminOf(db: Db, customerNumbers: readonly string[], email: string) {
  for (const cn of customerNumbers) await addContact(db, cn, email, contactRoles.admin);
  return signInAs(db, email);
}

interface Statement {
  text: string;
  values: unknown[];
}

/** The statements the driver is sent while `run` runs (nothing else may use the database meanwhile). */
async function statementsOf(run: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...params: unknown[]) {
    const first = params[0] as string | { text: string; values?: unknown[] };
    // query(text, values), query(config) or, as drizzle calls it, query(config, values).
    const values = (typeof first === 'string' ? undefined : first.values) ?? params[1];
    seen.push({
      text: typeof first === 'string' ? first : first.text,
      values: Array.isArray(values) ? values : [],
    });
    return (query as (...p: unknown[]) => unknown).apply(this, params);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}

/**
 * The active block as the route runs it: `listLeases` (the 'ssl' account gate, then queryPage on the leases
 * resource and scope, then the records) against the very same statements, captured from the driver, sent raw.
 * The bench may not import the entitlements repository (decision 026), so the resource is reached through the
 * service; the page statement's own raw time is reported too. Then the whole route through app.inject.
 */
async function blockStage() {
  const bench = await openBenchDatabase('postgres', 4);
  let app: FastifyInstance | undefined;
  try {
    const { db } = bench.database;
    const loadSeconds = await loadEntitlements(db);
    console.log(
      `block data: ${int(ENTITLEMENTS)} entitlements over ${int(ACCOUNTS)} accounts in ${loadSeconds.toFixed(0)} s`,
    );
    await printStorage(db);
    app = await createTestApp(bench.database);
    const served = app;
    // 50 accounts spread over the range, taken in turn, with one admin contact of all of them.
    const picked = Array.from({ length: 50 }, (_, k) => String(CN_BASE + ((k * 7919) % ACCOUNTS)));
    const account = (i: number) => picked[i % picked.length];
    const email = 'bench-leases@example.com';
    const { userId, headers } = await adminOf(db, picked, email);
    const principal: Principal = { userId, email, name: 'bench', vendorRoles: [], via: 'session' };
    const ctx: AppContext = {
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() }),
      database: bench.database,
      db,
      secret: randomBytes(32),
      log: served.log,
    };
    // The screen's first block: 20 rows, no filter, default sort (EndDate asc, perpetuals last).
    const block = (i: number) =>
      listLeases(ctx, principal, 'active', { customerNumber: account(i), limit: 20, offset: 0 });
    const captured = new Map<string, Statement[]>();
    for (const cn of picked) captured.set(cn, await statementsOf(() => block(picked.indexOf(cn))));
    const first = captured.get(account(0))!;
    const pageIndex = first.findIndex((q) => q.text.includes('from entitlements e left join products'));
    if (pageIndex < 0) throw new Error(`no page statement among ${first.map((q) => q.text).join(' | ')}`);
    const page = first[pageIndex];
    console.log(`statements of one block: ${first.length} (the page statement is #${pageIndex + 1})`);
    for (const q of first) console.log(`  ${q.text.replace(/\s+/g, ' ').slice(0, 160)}`);
    const plan = rowsOf<Record<string, string>>(
      await bench.raw(`explain (analyze, buffers, costs off) ${page.text}`, page.values),
    );
    console.log(
      `page statement:\n  ${page.text}\nplan:\n${plan.map((p) => `  ${Object.values(p)[0]}`).join('\n')}`,
    );
    const rows = (await block(0)).rows.length;

    const pageOnly: number[] = [];
    const service = await inTurns(ITERATIONS, 50, block, async (i) => {
      for (const [k, q] of captured.get(account(i))!.entries()) {
        const started = performance.now();
        await bench.raw(q.text, q.values);
        if (k === pageIndex && i >= 50) pageOnly.push(performance.now() - started);
      }
    });
    const label = `${int(ENTITLEMENTS)} entitlements / ${int(ACCOUNTS)} accounts`;
    row(
      `active block (${rows} rows) at ${label}: listLeases (gate + queryPage + records) vs its ${first.length} statements sent raw (n=${service.subject.n}; p50 / p95 ms; the page statement alone raw: ${pair(spread(pageOnly))})`,
      pair(service.subject),
      `${pair(service.base)} (raw)`,
      ratios(service.subject, service.base),
      '<= 30 ms p95 and <= 1.5x raw',
      service.subject.p95 <= 30 && service.subject.p95 / service.base.p95 <= 1.5,
    );

    const http = await inTurns(
      ITERATIONS,
      50,
      async (i) => {
        const res = await served.inject({
          method: 'POST',
          url: '/api/fetchEntitlements/active',
          headers,
          payload: { customerNumber: account(i), type: 'SSL', state: 'Deployed', limit: 20, offset: 0 },
        });
        if (res.statusCode !== 200)
          throw new Error(`fetchEntitlements/active: ${res.statusCode} ${res.body.slice(0, 200)}`);
      },
      () => served.inject({ method: 'GET', url: '/healthz' }),
    );
    row(
      'POST /api/fetchEntitlements/active through app.inject (session, gate, engine, records, JSON)',
      pair(http.subject),
      `${pair(http.base)} (GET /healthz)`,
      ratios(http.subject, http.base),
      '<= 30 ms p95',
      http.subject.p95 <= 30,
    );
  } finally {
    await app?.close();
    await bench.cleanup();
  }
}

// ---- race: parallel creates on the last seats --------------------------------------------------------------

const RACE_CN = '6100001';
const RACE_PART = 'BENCH-RACE';

async function raceStage(engine: 'postgres' | 'pglite') {
  const bench: BenchDatabase = await openBenchDatabase(engine, Number(opt.pool));
  let app: FastifyInstance | undefined;
  try {
    const { db } = bench.database;
    app = await createTestApp(bench.database);
    const served = app;
    await db.insert(products).values({
      partNumber: RACE_PART,
      name: 'Race solver',
      family: 'Bench',
      daemon: 'simlmd',
      featureName: 'race_solver',
    });
    await buildAccount(db, { customerNumber: RACE_CN, name: 'Race', orgType: 'Direct' });
    const users: Record<string, string>[] = [];
    for (let u = 0; u < 20; u++) users.push((await adminOf(db, [RACE_CN], `racer${u}@example.com`)).headers);
    let hosts = 0;
    const nextHost = () => (++hosts).toString(16).padStart(12, '0').match(/../g)!.join(':').toUpperCase();
    const create = (user: Record<string, string>, activationId: string, count: number) =>
      served.inject({
        method: 'POST',
        url: '/api/fulfillments/create',
        headers: user,
        payload: {
          customerNumber: RACE_CN,
          serverIdType: 'ETHERNET',
          serverName: `race-${hosts + 1}`,
          serverId: nextHost(),
          type: 'new',
          activations: [{ id: activationId, count }],
        },
      });
    const entitlement = (activationId: string, quantity: number) =>
      buildEntitlement(db, RACE_CN, {
        activationId,
        kind: 'SSL',
        state: 'Deployed',
        licenseModel: 'Network',
        partNumber: RACE_PART,
        quantity,
        startDate: dayFromNow(-100),
        endDate: dayFromNow(200),
      });
    /** All C creates at once; the wall time and the answers by status. */
    const burst = async (activationId: string) => {
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: CREATES }, (_, k) => create(users[k % users.length], activationId, 1)),
      );
      const seconds = (performance.now() - started) / 1000;
      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
      return { rate: CREATES / seconds, ok: statuses.get(200) ?? 0, statuses };
    };
    const seatsOf = async (activationId: string) =>
      rowsOf<{ quantity: number; activated: number; fulfilled: number }>(
        await db.execute(sql`select e.quantity::int as quantity, e.activated::int as activated,
            coalesce((select sum(f.count) from fulfillments f where f.entitlement_id = e.id), 0)::int as fulfilled
          from entitlements e where e.activation_id = ${activationId}`),
      )[0];

    const contested: number[] = [];
    const free: number[] = [];
    let overdraws = 0;
    const granted: number[] = [];
    const others: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Last seats: 10 of 50 left after 4 creates of 10 seats each on other hosts.
      const last = `RACE-LAST-${r}`;
      await entitlement(last, 50);
      for (let k = 0; k < 4; k++) {
        const res = await create(users[k], last, 10);
        if (res.statusCode !== 200) throw new Error(`pre-fill: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      const roomy = `RACE-FREE-${r}`;
      await entitlement(roomy, CREATES * 2);
      for (const which of r % 2 === 0 ? ['last', 'free'] : ['free', 'last']) {
        const result = await burst(which === 'last' ? last : roomy);
        (which === 'last' ? contested : free).push(result.rate);
        if (which === 'last') granted.push(result.ok);
        const unexpected = [...result.statuses].filter(
          ([s]) => s !== 200 && !(which === 'last' && s === 409),
        );
        if (unexpected.length) others.push(`${which} round ${r}: ${JSON.stringify(unexpected)}`);
      }
      const seats = await seatsOf(last);
      overdraws +=
        Math.max(0, seats.fulfilled - seats.quantity) +
        Math.max(0, seats.activated - seats.quantity) +
        Math.max(0, granted[r] - 10);
      if (seats.activated !== seats.fulfilled)
        others.push(`round ${r}: activated ${seats.activated} != fulfilled ${seats.fulfilled}`);
    }
    const median = (v: number[]) => spread(v).p50;
    row(
      `${engine}: ${CREATES} parallel creates (app.inject, ${users.length} users, new hosts) on the last 10 seats, creates/s (median of ${ROUNDS} rounds; min ${int(Math.min(...contested))})`,
      int(median(contested)),
      `${int(median(free))} (all ${CREATES} granted, seats to spare)`,
      (median(contested) / median(free)).toFixed(2),
      '',
    );
    row(
      `${engine}: overdraws over ${ROUNDS} rounds (granted per round: ${granted.join(', ')}; refused 409 the rest)`,
      String(overdraws),
      '',
      '',
      '0',
      overdraws === 0 && granted.every((g) => g === 10),
    );
    if (others.length) console.log(`  unexpected: ${others.join('; ')}`);
  } finally {
    await app?.close();
    await bench.cleanup();
  }
}

// ---- files: generate + sign, merge, verify -----------------------------------------------------------------

const DAEMONS = ['ansyslmd', 'simlmd', 'cdlmd'];

/** F live fulfillments of a customer on the host: leases, perpetuals and borrowable lines over 3 daemons. */
function fulfillmentsOf(customer: number, count: number): LicenseFeature[] {
  return Array.from({ length: count }, (_, k) => ({
    product: `Product ${k % 40}`,
    activationId: `ACT-${customer}-${k}`,
    featureName: `feature_${k % 60}`,
    daemon: DAEMONS[k % DAEMONS.length],
    count: 1 + (k % 25),
    startDate: dayFromNow(-200 - (k % 300)),
    endDate: k % 7 === 0 ? null : dayFromNow(30 + (k % 700)),
    versionDate: k % 7 === 0 ? dayFromNow(100) : null,
    borrowable: k % 5 === 0,
  }));
}

async function filesStage() {
  const key = createSigningKey();
  const sign = signer(key.keyId, key.privateKeyPem);
  const keys = { [key.keyId]: key.publicKeyPem };
  const server = { name: 'shared-lic', type: 'ETHERNET' as const, id: '0a1b2c3d4e5f' };
  const issued = today();
  const inputs = Array.from({ length: CUSTOMERS }, (_, c) => ({
    servers: [server],
    customerNumber: String(7_000_001 + c),
    issued,
    features: fulfillmentsOf(c, FULFILLMENTS),
  }));
  // What the host's download needs: every customer's files, the merged file and the per-daemon shared files.
  // Where the time goes, per call: the customers' files (signing included), the merged file, the shared files.
  const parts: [number[], number[], number[]] = [[], [], []];
  const sharedHost = () => {
    const t0 = performance.now();
    const files: LicenseFiles[] = inputs.map((input) => generateLicenseFiles(input, sign));
    const t1 = performance.now();
    const merged = mergeLicenseFiles(files);
    const t2 = performance.now();
    const shared = sharedLicenseFiles(files, server.id);
    parts[0].push(t1 - t0);
    parts[1].push(t2 - t1);
    parts[2].push(performance.now() - t2);
    return { merged, shared };
  };
  // The baseline signs what generateLicenseFiles signs, and nothing else.
  const canonicals = inputs.flatMap((input) => {
    const seen: string[] = [];
    generateLicenseFiles(input, (canonical) => {
      seen.push(canonical);
      return sign(canonical);
    });
    return seen;
  });
  const host = sharedHost();
  for (const p of parts) p.length = 0;
  const mergedLines = host.merged.split('\n').length - 1;
  const rounds = Math.max(30, Math.floor(ITERATIONS / 3));
  const gen = await inTurns(
    rounds,
    5,
    () => sharedHost(),
    () => canonicals.map(sign),
  );
  row(
    `generate + sign a shared host: ${CUSTOMERS} customers x ${FULFILLMENTS} fulfillments, merged file (${int(mergedLines)} lines) and ${host.shared.length} per-daemon shared files (n=${gen.subject.n}; p50 / p95 ms; p50 of its parts: customers' files ${fmt(spread(parts[0]).p50)}, merged ${fmt(spread(parts[1]).p50)}, shared ${fmt(spread(parts[2]).p50)})`,
    pair(gen.subject),
    `${pair(gen.base)} (${canonicals.length} bare Ed25519 signs)`,
    ratios(gen.subject, gen.base),
    '<= 50 ms p95',
    gen.subject.p95 <= 50,
  );

  const publicKey = createPublicKey(key.publicKeyPem);
  for (const [label, file, target] of [
    [`${int(VERIFY_LINES)} lines`, fileOfLines(host.merged, VERIFY_LINES), true],
    [`${int(VERIFY_LINES)} feature lines`, fileOfFeatures(host.merged, VERIFY_LINES), false],
  ] as const) {
    const verdicts = verifyLicenseText(file, keys);
    const wrong = verdicts.find((v) => v.verdict !== 'valid');
    if (wrong) throw new Error(`verify: ${JSON.stringify(wrong)}`);
    // Baseline: the bare verifies of the file's canonical lines, prepared outside the clock.
    const parsed = parseLicenseText(file);
    const hostIds = parsed.servers.map((s) => s.hostId);
    const signed = parsed.features.map((f) => ({
      data: Buffer.from(canonicalFeatureLine(hostIds, f.tokens)),
      signature: Buffer.from(readSignValue(f.tokens.find((t) => t.key === 'SIGN')!.value)!.signature, 'hex'),
    }));
    const checked = await inTurns(
      rounds,
      5,
      () => verifyLicenseText(file, keys),
      () => signed.map((s) => verify(null, s.data, publicKey, s.signature)),
    );
    row(
      `verifyLicenseText, ${label} (${int(file.split('\n').length - 1)} physical lines, ${verdicts.length} feature lines, all valid; p50 / p95 ms)`,
      pair(checked.subject),
      `${pair(checked.base)} (${signed.length} bare Ed25519 verifies)`,
      ratios(checked.subject, checked.base),
      target ? '<= 100 ms p95' : '',
      target ? checked.subject.p95 <= 100 : undefined,
    );
  }
}

/** The merged file's header and whole feature blocks (comment + signed line) up to about `lines` lines. */
function fileOfLines(merged: string, lines: number): string {
  const all = merged.split('\n');
  let end = Math.min(lines, all.length);
  // Cut before a comment so that no feature line is left half.
  while (end < all.length && !all[end].startsWith('#')) end--;
  return `${all.slice(0, end).join('\n')}\n`;
}

/** A file with `count` signed feature lines: the merged file's header, its blocks repeated as needed. */
function fileOfFeatures(merged: string, count: number): string {
  const all = merged.split('\n');
  const firstComment = all.findIndex((l) => l.startsWith('#'));
  const blocks: string[] = [];
  for (const line of all.slice(firstComment)) {
    if (line.startsWith('#')) blocks.push(line);
    else if (line !== '') blocks[blocks.length - 1] += `\n${line}`;
  }
  const body = Array.from({ length: count }, (_, k) => blocks[k % blocks.length]);
  return `${[...all.slice(0, firstComment), ...body].join('\n')}\n`;
}

async function main() {
  const started = performance.now();
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `stages=${[...stages].join(',')} entitlements=${ENTITLEMENTS} accounts=${ACCOUNTS} iterations=${ITERATIONS} creates=${CREATES} rounds=${ROUNDS} race-engines=${opt['race-engines']} customers=${CUSTOMERS} fulfillments=${FULFILLMENTS} verify-lines=${VERIFY_LINES} extra-sql=${opt['extra-sql'] ?? 'none'}`,
  );
  console.log(`nproc ${os.cpus().length}, node ${process.version}, load average ${load()}`);
  if (stages.has('block')) await blockStage();
  if (stages.has('race'))
    for (const engine of opt['race-engines'].split(','))
      await raceStage(engine === 'pglite' ? 'pglite' : 'postgres');
  if (stages.has('files')) await filesStage();
  console.log(
    `\ntotal ${((performance.now() - started) / 1000).toFixed(0)} s, load average at the end ${load()}`,
  );
  console.log('| measurement | value | baseline (same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const line of table) console.log(line);
}

await main();
