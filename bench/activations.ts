import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { activationsApi } from '@lp/contract/activations/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { contactRoles } from '@lp/domain/policy';
import { type Database, type Db, queryRows } from '@lp/server/db/database';
import {
  entitlements,
  fulfillmentEvents,
  fulfillments,
  licenseServerAccounts,
  licenseServers,
  products,
} from '@lp/server/db/schema';
import { hostsHistory } from '@lp/server/features/activations/service';
import { parseHost } from '@lp/server/features/license-servers/service';
import { addContact, buildAccount, dayFromToday } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { loadConfig } from '@lp/server/platform/config';
import type { AppContext } from '@lp/server/platform/context';
import type { Principal } from '@lp/server/platform/principal';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { fmt, inTurns, int, pair, ratios, row, spread, table } from './measure.ts';
import { caller, type Json, loadAverage, withSeededServer } from './server-process.ts';

const { values: opt } = parseArgs({
  options: {
    engines: { type: 'string', default: 'pglite,postgres' },
    only: { type: 'string', default: 'save,history' },
    full: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    'history-rounds': { type: 'string' },
    events: { type: 'string', default: '10000' },
    profile: { type: 'boolean', default: false },
  },
});
const size = (given: string | undefined, small: number, full: number) =>
  Number(given ?? (opt.full ? full : small));
const stages = new Set(opt.only.split(','));
const SAVE_ROUNDS = size(opt.rounds, 10, 30);
const SAVE_WARMUP = opt.full ? 3 : 2;
const HISTORY_ROUNDS = size(opt['history-rounds'], 100, 300);
const HISTORY_WARMUP = opt.full ? 50 : 20;
const EVENTS = Number(opt.events);

// ---- the workload ----------------------------------------------------------------------------------

const CUSTOMERS = [
  { customerNumber: '7110001', customerName: 'Bench Activations One' },
  { customerNumber: '7110002', customerName: 'Bench Activations Two' },
  { customerNumber: '7110003', customerName: 'Bench Activations Three' },
];
const LINES = 100;
const RETURNS = 50;
/** The 50 returned seats spread over the customers (17, 17, 16); each returned row holds 1 seat. */
const returnsOf = (c: number) =>
  Math.floor(RETURNS / CUSTOMERS.length) + (c < RETURNS % CUSTOMERS.length ? 1 : 0);
const PARTS = 24;
const DAEMONS = ['ansyslmd', 'simlmd', 'cdlmd'];
const EMAIL = 'bench-activations@example.com';
const activationId = (c: number, k: number) => `BA-${c + 1}-${String(k).padStart(3, '0')}`;
/** Host ids as the screens send them (canonical lower-case MAC); save hosts ba..., the history host bb... */
const hostHex = (prefix: number, n: number) => (prefix * 2 ** 40 + n).toString(16).padStart(12, '0');

/** Spec 002 §9 and web/src/features/activations/api/fulfillment-steps.ts. */
const BATCH_SIZE = 25;
const POOL_SIZE = 6;

// ---- seeding -----------------------------------------------------------------------------------------------

interface CustomerPlan {
  customerNumber: string;
  customerName: string;
  /** Fulfillment ids of the customer's live rows on the host, each returned whole (1 seat) */
  returns: number[];
  /** Activation ids the customer activates 1 seat of */
  creates: string[];
}
interface HostPlan {
  serverName: string;
  serverId: string;
  customers: CustomerPlan[];
}

/** Inserts in chunks, below the drivers' 65 535 parameters per statement. */
async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000));
}

/**
 * The three accounts, each with 100 live lease and perpetual lines over 24 products and 3 daemons, one admin of
 * all three, `saveHosts` shared hosts with the 50 seats to return (and their ACTIVATE events) and the group set,
 * and the history host with `EVENTS` events of the first account. Plain inserts; the live counts and every
 * entitlement's `activated` are then set from what was inserted, as the services keep them.
 */
async function seed(db: Db, saveHosts: number) {
  const started = performance.now();
  await db.insert(products).values(
    Array.from({ length: PARTS }, (_, p) => ({
      partNumber: `BA-P${p}`,
      name: `Bench product ${p}`,
      family: 'Bench',
      daemon: DAEMONS[p % DAEMONS.length],
      featureName: `ba_feature_${p}`,
    })),
  );
  for (const c of CUSTOMERS) {
    await buildAccount(db, { customerNumber: c.customerNumber, name: c.customerName, orgType: 'Direct' });
    await addContact(db, c.customerNumber, EMAIL, contactRoles.admin);
  }
  const lines = await db
    .insert(entitlements)
    .values(
      CUSTOMERS.flatMap((c, ci) =>
        Array.from({ length: LINES }, (_, k) => {
          const perpetual = k % 10 === 0;
          return {
            customerNumber: c.customerNumber,
            activationId: activationId(ci, k),
            kind: 'SSL' as const,
            licenseModel: perpetual ? 'Perpetual' : ['Network', 'Lease', 'Network Borrow'][k % 3],
            state: 'Deployed',
            partNumber: `BA-P${k % PARTS}`,
            quantity: 10_000,
            startDate: dayFromToday(-100 - (k % 200)),
            endDate: perpetual ? null : dayFromToday(60 + ((k * 7) % 700)),
            versionDate: perpetual ? dayFromToday(300) : null,
          };
        }),
      ),
    )
    .returning({ id: entitlements.id, activationId: entitlements.activationId });
  const lineId = new Map(lines.map((l) => [l.activationId, l.id]));

  const hosts = await db
    .insert(licenseServers)
    .values(
      [...Array.from({ length: saveHosts }, (_, h) => hostHex(0xba, h + 1)), hostHex(0xbb, 1)].map(
        (hex, h) => ({
          kind: 'flexlm',
          hostIdentity: parseHost(hex, 'ETHERNET').key,
          hostIds: hex,
          hostIdTypes: 'ETHERNET',
          name: h < saveHosts ? `bench-save-${h + 1}` : 'bench-history',
          serverNames: h < saveHosts ? `bench-save-${h + 1}` : 'bench-history',
          state: 'Active',
          createdBy: EMAIL,
        }),
      ),
    )
    .returning({ id: licenseServers.id, hostIds: licenseServers.hostIds, name: licenseServers.name });
  const history = hosts.pop()!;
  await db
    .insert(licenseServerAccounts)
    .values([
      ...hosts.flatMap((h) =>
        CUSTOMERS.map((c) => ({ serverId: h.id, customerNumber: c.customerNumber, inSharedGroup: true })),
      ),
      { serverId: history.id, customerNumber: CUSTOMERS[0].customerNumber },
    ]);

  // The save hosts: rows 0..r-1 of each customer live with 1 seat each (returned), the rest activated by the save.
  const live: (typeof fulfillments.$inferInsert)[] = hosts.flatMap((h) =>
    CUSTOMERS.flatMap((c, ci) =>
      Array.from({ length: returnsOf(ci) }, (_, k) => ({
        serverId: h.id,
        entitlementId: lineId.get(activationId(ci, k))!,
        customerNumber: c.customerNumber,
        count: 1,
      })),
    ),
  );
  const saved: { id: number; serverId: number; customerNumber: string }[] = [];
  await insertChunked(live, async (chunk) =>
    saved.push(
      ...(await db.insert(fulfillments).values(chunk).returning({
        id: fulfillments.id,
        serverId: fulfillments.serverId,
        customerNumber: fulfillments.customerNumber,
      })),
    ),
  );
  const activatedAt = new Date(Date.now() - 86_400_000);
  await insertChunked(saved, (chunk) =>
    db.insert(fulfillmentEvents).values(
      chunk.map((f) => ({
        fulfillmentId: f.id,
        serverId: f.serverId,
        customerNumber: f.customerNumber,
        time: activatedAt,
        modifiedBy: EMAIL,
        action: 'ACTIVATE',
        count: 1,
        lifecycleAction: 'new',
      })),
    ),
  );
  const plans: HostPlan[] = hosts.map((h) => ({
    serverName: h.name,
    serverId: h.hostIds,
    customers: CUSTOMERS.map((c, ci) => ({
      ...c,
      returns: saved
        .filter((f) => f.serverId === h.id && f.customerNumber === c.customerNumber)
        .map((f) => f.id),
      creates: Array.from({ length: LINES - returnsOf(ci) }, (_, k) => activationId(ci, returnsOf(ci) + k)),
    })),
  }));

  // The history host: the first account's 100 lines, EVENTS events over them. Event g touches line g % 100 in
  // save g / 50 (saves 3 hours apart, their events 0.9 s apart, so each save spans 44 s: two 30-second groups);
  // a line's events alternate +2 and -1, so its live count never drops below 0.
  await db.insert(fulfillments).values(
    Array.from({ length: LINES }, (_, k) => ({
      serverId: history.id,
      entitlementId: lineId.get(activationId(0, k))!,
      customerNumber: CUSTOMERS[0].customerNumber,
      count: 0,
    })),
  );
  const saves = Math.ceil(EVENTS / 50);
  const first = new Date(Date.now() - (saves * 3 + 24) * 3_600_000).toISOString();
  await db.execute(sql`
    with lines as (
      select f.id, f.server_id, f.customer_number, (row_number() over (order by e.activation_id) - 1)::int as k
      from fulfillments f join entitlements e on e.id = f.entitlement_id
      where f.server_id = ${history.id})
    insert into fulfillment_events (fulfillment_id, server_id, customer_number, time, modified_by, action, count,
      lifecycle_action)
    select l.id, l.server_id, l.customer_number,
      ${first}::timestamptz + (g / 50) * interval '3 hours' + (g % 50) * interval '900 milliseconds',
      case when (g / 50) % 4 = 3 then 'Automated Action' else 'user' || (g / 50) % 5 || '@bench.example' end,
      case when (g / ${LINES}) % 2 = 0 then 'ACTIVATE' else 'RETURN' end,
      case when (g / ${LINES}) % 2 = 0 then 2 else -1 end,
      case when (g / ${LINES}) % 2 = 0 then 'new' else 'return' end
    from generate_series(0, ${EVENTS - 1}::int) g join lines l on l.k = g % ${LINES}`);
  await db.execute(sql`update fulfillments f set count = coalesce(
      (select sum(v.count) from fulfillment_events v where v.fulfillment_id = f.id), 0)
    where f.server_id = ${history.id}`);
  await db.execute(sql`update entitlements e set activated = coalesce(
      (select sum(f.count) from fulfillments f where f.entitlement_id = e.id), 0)
    where e.activation_id like 'BA-%'`);
  await db.execute(sql`vacuum analyze`);
  const [counts] = await queryRows<{ events: number; fulfillments: number }>(
    db,
    sql`select (select count(*) from fulfillment_events)::int as events,
      (select count(*) from fulfillments)::int as fulfillments`,
  );
  console.log(
    `  seeded ${saveHosts} save hosts, the history host (${int(EVENTS)} events), ${int(counts.fulfillments)} fulfillments and ${int(counts.events)} events in all, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const { userId, headers } = await signInAs(db, EMAIL);
  return { plans, history, headers, userId };
}

// ---- the calls (the server process and the caller are in ./server-process.ts) ---------------------------

const chunks = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH_SIZE) out.push(items.slice(i, i + BATCH_SIZE));
  return out;
};

/** fulfillment-steps.ts's pool: at most `size` at a time. */
async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}

/** fulfillment-steps.ts's batchKey. */
const batchKey = (planKey: string, ...parts: (string | number)[]) =>
  [planKey, ...parts]
    .join('-')
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .slice(0, 100);

type Phase = 'returns' | 'group off' | 'creates' | 'group' | 'licenses';
type Send = (kind: string, url: string, body: object) => Promise<Json>;

/**
 * run-save-plan.ts steps 1-4 and 6 for a default-mode plan on a saved shared host (no e-mail): the calls in its
 * order and concurrency. `send` makes each call; `phase` sees each step's wall time.
 */
async function saveFlow(
  plan: HostPlan,
  send: Send,
  phase: (name: Phase, ms: number) => void = () => {},
): Promise<Json> {
  const planKey = randomBytes(16).toString('hex');
  const first = plan.customers[0];
  const host = { customerNumber: first.customerNumber, hostId: plan.serverId, hostIdType: 'ETHERNET' };
  let started = performance.now();
  const step = (name: Phase) => {
    const now = performance.now();
    phase(name, now - started);
    started = now;
  };
  for (const c of plan.customers)
    for (const [index, batch] of chunks(c.returns).entries())
      await send('return', activationsApi.return.path, {
        customerNumber: c.customerNumber,
        customerName: c.customerName,
        time: new Date().toISOString(),
        action: 'return',
        lifecycle: 'return',
        activations: batch.map((id) => ({ id, count: -1 })),
        operationKey: batchKey(planKey, 'return', c.customerNumber, index),
      });
  step('returns');
  await send('group off', licenseServersApi.deactivateSharedGroup.path, {
    ...host,
    operationKey: batchKey(`${planKey}-source`, 'group-off', first.customerNumber),
  });
  step('group off');
  for (const c of plan.customers) {
    const batches = chunks(c.creates).map((batch, index) => ({ batch, index }));
    const create = async ({ batch, index }: { batch: string[]; index: number }) => {
      await send(index === 0 ? 'create (first batch)' : 'create (pooled)', activationsApi.create.path, {
        customerNumber: c.customerNumber,
        customerName: c.customerName,
        time: new Date().toISOString(),
        action: 'activate',
        serverName: plan.serverName,
        serverId: plan.serverId,
        serverIdType: 'ETHERNET',
        type: '',
        ansysborrowable: false,
        activations: batch.map((id) => ({ id, count: 1 })),
        operationKey: batchKey(planKey, 'create', c.customerNumber, index),
      });
    };
    await create(batches[0]);
    await pool(batches.slice(1), POOL_SIZE, create);
  }
  step('creates');
  await send('group', licenseServersApi.setSharedGroup.path, {
    ...host,
    group: plan.customers.map((c) => c.customerNumber),
    operationKey: batchKey(planKey, 'group', first.customerNumber),
  });
  step('group');
  const licenses = await send('licenses', licenseFilesApi.licenses.path, {
    hostId: plan.serverId,
    hostIdType: 'ETHERNET',
    borrowable: false,
    customers: plan.customers.map((c) => ({
      customerNumber: c.customerNumber,
      customerName: c.customerName,
    })),
  });
  step('licenses');
  return licenses;
}

// ---- stages ------------------------------------------------------------------------------------------------

async function saveStage(label: string, post: ReturnType<typeof caller>, plans: HostPlan[]) {
  const bare = () => post(licenseServersApi.list.path, { customerNumber: CUSTOMERS[0].customerNumber });
  const creates = plans[0].customers.reduce((n, c) => n + c.creates.length, 0);
  const returns = plans[0].customers.reduce((n, c) => n + c.returns.length, 0);
  let calls = 0;
  await saveFlow(plans[0], async () => {
    calls += 1;
    return {};
  });
  const phases = new Map<Phase, number[]>();
  const perCall = new Map<string, number[]>();
  const result = await inTurns(
    SAVE_ROUNDS,
    SAVE_WARMUP,
    async (i) => {
      const measured = i >= SAVE_WARMUP;
      const licenses = await saveFlow(
        plans[i],
        async (kind, url, body) => {
          const started = performance.now();
          const answer = await post(url, body);
          if (measured) perCall.set(kind, [...(perCall.get(kind) ?? []), performance.now() - started]);
          return answer;
        },
        (name, ms) => {
          if (measured) phases.set(name, [...(phases.get(name) ?? []), ms]);
        },
      );
      // The save did what it says: every customer's file, and the merged file with the 250 activated lines.
      const files = licenses.data as { status: string }[];
      const merged = (licenses.merged as { text: string }).text;
      const lines = merged.match(/^INCREMENT /gm)?.length ?? 0;
      if (files.length !== CUSTOMERS.length || files.some((f) => f.status !== 'SUCCESS') || lines !== creates)
        throw new Error(`round ${i}: ${files.length} files, ${lines} INCREMENT lines in the merged file`);
    },
    async () => {
      await saveFlow(plans[0], () => bare());
    },
  );
  row(
    `${label}: save flow, 3 customers x ${LINES} lines on a shared host (return ${returns} seats, create ${creates}, group, 3 license files + merged; ${calls} calls; n=${result.subject.n}; p50 / p95 ms)`,
    pair(result.subject),
    `${pair(result.base)} (${calls} bare POST /api/fulfillments/servers, same order and concurrency)`,
    ratios(result.subject, result.base),
    '<= 2000 ms',
    result.subject.p95 <= 2000,
  );
  const phaseText = [...phases].map(([name, ms]) => `${name} ${fmt(spread(ms).p50)}`).join(', ');
  const callText = [...perCall]
    .map(([kind, ms]) => `${kind} ${ms.length / result.subject.n}x ${pair(spread(ms))}`)
    .join('; ');
  console.log(`  where the time goes (p50 ms per step): ${phaseText}`);
  console.log(`  per call (calls per save, p50 / p95 ms): ${callText}`);
  row(
    `${label}: save flow by step, p50 ms (per call: calls per save, p50 / p95 ms: ${callText})`,
    phaseText,
    '',
    '',
  );
}

async function historyStage(
  label: string,
  post: ReturnType<typeof caller>,
  base: string,
  headers: Record<string, string>,
  hostId: string,
) {
  const request = {
    customerNumber: CUSTOMERS[0].customerNumber,
    hostIds: [{ hostId, hostIdType: 'ETHERNET' }],
  };
  const checked = (await post(activationsApi.history.path, request)) as { data: { rows: unknown[] }[] };
  const rowCount = checked.data[0].rows.length;
  const groups = new Set((checked.data[0].rows as { groupId: number }[]).map((r) => r.groupId)).size;
  const bytes = JSON.stringify(checked).length;
  // Time to the answer's headers too: the server's own work, before the transfer and the client's parse.
  const firstByte: number[] = [];
  const result = await inTurns(
    HISTORY_ROUNDS,
    HISTORY_WARMUP,
    async (i) => {
      const started = performance.now();
      const res = await fetch(`${base}${activationsApi.history.path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      if (i >= HISTORY_WARMUP) firstByte.push(performance.now() - started);
      const json = (await res.json()) as { data: { rows: unknown[] }[] };
      if (res.status !== 200 || json.data[0].rows.length !== rowCount)
        throw new Error(`history: ${res.status}`);
    },
    () => post(licenseServersApi.list.path, { customerNumber: CUSTOMERS[0].customerNumber }),
  );
  row(
    `${label}: POST /api/fulfillments/history, one host with ${int(EVENTS)} events -> ${int(rowCount)} rows in ${int(groups)} groups (${(bytes / 1e6).toFixed(1)} MB JSON), read and parsed (n=${result.subject.n}; p50 / p95 ms; to the headers ${pair(spread(firstByte))})`,
    pair(result.subject),
    `${pair(result.base)} (POST /api/fulfillments/servers)`,
    ratios(result.subject, result.base),
    '<= 100 ms p95',
    result.subject.p95 <= 100,
  );
}

/**
 * Where the history call's time goes, in-process on the seeded database (before the server holds it): the service
 * (`hostsHistory`: the account's hosts, the events, their entitlements, the grouping) against the events statement
 * alone, as listEvents sends it, sent raw through the same driver; and the JSON of the answer.
 */
async function profileHistory(database: Database, userId: string, host: { id: number; hostIds: string }) {
  const ctx: AppContext = {
    config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: os.tmpdir() }),
    database,
    db: database.db,
    secret: randomBytes(32),
    // The services' logger when the app logs nothing.
    log: Fastify({ logger: false }).log,
  };
  const principal: Principal = { userId, email: EMAIL, name: 'bench', vendorRoles: [], via: 'session' };
  const customerNumber = CUSTOMERS[0].customerNumber;
  const request = { customerNumber, hostIds: [{ hostId: host.hostIds, hostIdType: 'ETHERNET' }] };
  // The statement listEvents sends (decision 032: one JSON array of tuples), parsed as it parses it.
  const events = sql`select json_agg(json_build_array(server_id,
      (extract(epoch from time) * 1000)::float8, modified_by, count, fulfillment_id))::text as events
    from fulfillment_events where server_id in (${host.id}) and customer_number = ${customerNumber}`;
  let answer: unknown;
  const times = await inTurns(
    30,
    10,
    async () => {
      answer = await hostsHistory(ctx, principal, request);
    },
    async () => JSON.parse((await queryRows<{ events: string }>(database.db, events))[0].events),
  );
  const json: number[] = [];
  for (let i = 0; i < 30; i++) {
    const started = performance.now();
    JSON.stringify({ status: 'SUCCESS', data: answer });
    json.push(performance.now() - started);
  }
  console.log(
    `  profile, history in-process (n=${times.subject.n}; p50 / p95 ms): hostsHistory ${pair(times.subject)}; its events statement raw + JSON.parse ${pair(times.base)}; JSON.stringify of the answer ${pair(spread(json))}`,
  );
}

async function engineRun(engine: 'pglite' | 'postgres') {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  console.log(`${label}:`);
  await withSeededServer(
    engine,
    async (database) => {
      const seeded = await seed(database.db, SAVE_WARMUP + SAVE_ROUNDS);
      if (opt.profile && stages.has('history')) await profileHistory(database, seeded.userId, seeded.history);
      return seeded;
    },
    async (server, seeded) => {
      const post = caller(server.base, seeded.headers);
      if (stages.has('save')) await saveStage(label, post, seeded.plans);
      if (stages.has('history'))
        await historyStage(label, post, server.base, seeded.headers, seeded.history.hostIds);
    },
  );
}

async function main() {
  const started = performance.now();
  console.log(
    `engines=${opt.engines} stages=${[...stages].join(',')} save-rounds=${SAVE_ROUNDS} (+${SAVE_WARMUP} warm-up) history-rounds=${HISTORY_ROUNDS} (+${HISTORY_WARMUP}) events=${EVENTS}`,
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
