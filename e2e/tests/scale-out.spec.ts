import { randomBytes } from 'node:crypto';
import type { Reconciliation } from '@lp/server/features/ledger/service';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { pickAccount, signIn } from './helpers.ts';
import {
  type ApiNode,
  type Cluster,
  type NodeName,
  reconcileCli,
  startCluster,
} from './scale-out-cluster.ts';

/*
 * The README's scale-out claim, proven (issue 9): several API nodes run behind a load balancer on one
 * PostgreSQL database. Two real server processes (nodes A and B) share one fresh database; a round-robin proxy
 * written here (scale-out-cluster.ts) alternates every request between them and is the PUBLIC_URL of both;
 * both deliver mail to one SMTP server in this worker. The file checks that the nodes settle a first start on
 * an empty database between themselves, that a browser signed in through the proxy keeps working while its
 * calls alternate nodes, that usage posted to A is visible through B, that the outbox delivers each message
 * once although both nodes' workers poll it, and that concurrent ledger writes through both nodes reconcile.
 *
 * PostgreSQL: TEST_DATABASE_URL (npm test passes the server it found, as for the api-postgres layer), else the
 * local server of this machine kind (postgres://postgres@127.0.0.1:5432/test). The test creates its own
 * database there (lp_scaleout_<pid>_<time>) and drops it at the end, also after a failure. Without a reachable
 * PostgreSQL the tests FAIL with a message saying so: scale-out cannot be shown on PGlite, and a skipped test
 * would leave the claim unproven without anyone noticing.
 *
 * No fixed sleeps: nodes are ready on their ready line and /readyz, mail is awaited by polling with a
 * deadline, pages by Playwright's auto-waiting.
 */

const ACME = '1000123';
const ACCOUNT = /Acme Aerospace Inc\./;
const BUSOPS = 'busops@demo.example';
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

let cluster: Cluster;
/** busops' signed-in browser state, made once per worker by a sign-in through the proxy. */
let busopsState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;

const test = base.extend({
  // Pages and API calls of the tests go to the proxy, not to the single-node server of the other files. Playwright
  // also sets this up for the hooks, before beforeAll has started the cluster.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => use(cluster?.url),
});

test.beforeAll(async () => {
  // Two servers starting (and one seeding) on a loaded 2-core machine.
  test.setTimeout(600_000);
  cluster = await startCluster();
});

test.afterAll(async () => {
  await cluster?.stop();
});

test.afterEach(() => {
  // Neither node may have logged an error (or died) during the test.
  const errors = Object.values(cluster?.nodes ?? {}).flatMap((n) => n.errors.splice(0));
  expect(errors).toEqual([]);
});

interface ElasticRecord {
  ActivationId: string;
  EntitlementState: string;
  StartDate: string;
  EndDate: string;
  Used: number;
  LineItemQuantity: number;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const cents = (units: number) => Math.round(units * 100);
const nodesOf = (entries: { node: NodeName }[]) => [...new Set(entries.map((e) => e.node))].sort();

/** A new browser context signed in as busops (the sign-in itself went through the proxy once). */
async function busops(browser: Browser): Promise<BrowserContext> {
  if (!busopsState) {
    const context = await browser.newContext({ baseURL: cluster.url });
    await signIn(await context.newPage(), BUSOPS);
    busopsState = await context.storageState();
    await context.close();
  }
  return browser.newContext({ baseURL: cluster.url, storageState: busopsState });
}

/** A portal call as the context's user; `url` is relative (through the proxy) or a node's own address. */
async function api<T>(context: BrowserContext, url: string, data: unknown): Promise<T> {
  const answer = await context.request.post(url, { data, headers: { 'x-lp-csrf': '1' } });
  expect(answer.status(), `${url}: ${await answer.text()}`).toBe(200);
  return (await answer.json()) as T;
}

async function elasticServer(): Promise<string> {
  const [row] = await cluster.query<{ host_identity: string }>(
    `select s.host_identity from license_servers s
       join license_server_accounts a on a.server_id = s.id
      where a.customer_number = $1 and s.kind = 'elastic' order by s.host_identity limit 1`,
    [ACME],
  );
  expect(row, `account ${ACME} has an elastic license server in the demo world`).toBeDefined();
  return row.host_identity;
}

/** Issues a license-server credential as busops through the proxy; answers the bearer token. */
async function issueCredential(staff: BrowserContext, clsId: string): Promise<string> {
  const issued = await api<{ data: { token: string } }>(staff, '/api/cls/credentials', {
    customerNumber: ACME,
    clsId,
  });
  return issued.data.token;
}

/** The first product priced for the credential's account, from GET /cls/v1/policy on node A. */
async function pricedProduct(token: string): Promise<string> {
  const answer = await fetch(`${cluster.nodes.A.url}/cls/v1/policy`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  const { products } = (await answer.json()) as { products: string[] };
  expect(products.length).toBeGreaterThan(0);
  return products[0];
}

interface Session {
  sessionId: string;
  user: string;
  product: string;
  count: number;
  /** start; every session of this file lasts exactly one hour */
  start: number;
}

/** A license server's events for finished sessions: start and end. */
const usageEvents = (sessions: Session[]) =>
  sessions.flatMap((s) => {
    const base = {
      sessionId: s.sessionId,
      startTime: new Date(s.start).toISOString(),
      product: s.product,
      productCount: s.count,
      user: s.user,
      host: 'scale-out-ws',
      project: 'Scale-out',
      productVersion: '2025 R1',
      ip: '203.0.113.10',
    };
    return [
      { ...base, type: 'start', time: base.startTime },
      { ...base, type: 'end', time: new Date(s.start + HOUR_MS).toISOString(), status: 'Completed' },
    ];
  });

/** POST /cls/v1/usage straight to one node, as a license server would. */
async function postUsage(node: ApiNode, token: string, events: unknown[]) {
  const answer = await fetch(`${node.url}/cls/v1/usage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  return { status: answer.status, body: (await answer.json()) as { accepted: number; rejected: unknown[] } };
}

async function elasticRecords(staff: BrowserContext, baseUrl: string): Promise<ElasticRecord[]> {
  const answer = await api<{ data: ElasticRecord[] }>(staff, `${baseUrl}/api/getEntitlements`, {
    customerNumber: ACME,
    customername: '',
  });
  return answer.data;
}

const usageGrid = (page: Page) => page.getByRole('region', { name: 'Usage transactions' });

/** Runs `open` and waits until the usage table has counted its rows (however many are in the default period). */
async function openUsage(page: Page, open: () => Promise<unknown>) {
  const counted = page.waitForResponse((r) => r.url().endsWith('/api/fetchUsage/count'));
  await open();
  expect((await counted).status()).toBe(200);
  await expect(usageGrid(page)).toHaveAttribute('aria-busy', 'false');
  await expect(usageGrid(page).locator('.ag-paging-row-summary-panel')).toHaveText(/\bof [\d,]+/);
}

test('both nodes start at once on one empty database: one seeds the demo world, the other waits for it', async () => {
  const all = Object.values(cluster.nodes);
  const seeding = all.filter((n) =>
    n.messages.some((m) => m.msg === 'empty database: seeding the demo world'),
  );
  const seeded = all.filter((n) => n.messages.some((m) => m.msg === 'demo world seeded'));
  expect(seeding.map((n) => n.name)).toHaveLength(1);
  expect(seeded.map((n) => n.name)).toEqual(seeding.map((n) => n.name));
  // The database holds the one world that node reported, nothing twice.
  const summary = seeded[0].messages.find((m) => m.msg === 'demo world seeded')?.fields ?? {};
  expect(summary.accounts).toBeGreaterThan(0);
  for (const table of ['accounts', 'entitlements', 'license_servers', 'usage_sessions', 'emails']) {
    if (summary[table] === undefined) continue;
    const [{ n }] = await cluster.query<{ n: string }>(`select count(*) as n from ${table}`);
    expect(Number(n), table).toBe(summary[table]);
  }
  for (const node of all) expect((await fetch(`${node.url}/readyz`)).status, node.name).toBe(200);
});

test('a browser signs in through the proxy and keeps working while its calls alternate between the nodes', async ({
  page,
}) => {
  const beforeSignIn = cluster.proxyLog.length;
  await signIn(page, 'admin@acme.example');
  // Authorization request, login form, its POST, the provider's redirects and the callback: both nodes took part.
  const signInSteps = cluster.proxyLog
    .slice(beforeSignIn)
    .filter((e) => e.path.startsWith('/oidc/') || e.path.startsWith('/api/auth/'));
  expect(nodesOf(signInSteps)).toEqual(['A', 'B']);

  const signedIn = cluster.proxyLog.length;
  await pickAccount(page, ACME, ACCOUNT);
  await page.goto('/elastic');
  const active = page.getByRole('region', { name: 'Active Entitlements table', exact: true });
  await expect(active.locator('.ag-row[row-id]').first()).toBeVisible();
  await openUsage(page, () => page.goto('/transactions'));
  await openUsage(page, () => page.reload());
  await page.goto('/elastic');
  await expect(active.locator('.ag-row[row-id]').first()).toBeVisible();

  // The signed-in calls were answered by both nodes, and neither refused the session (no 401) or anything else.
  const calls = cluster.proxyLog.slice(signedIn).filter((e) => e.path.startsWith('/api/') && e.status > 0);
  expect(calls.filter((e) => e.status >= 400)).toEqual([]);
  expect(nodesOf(calls)).toEqual(['A', 'B']);
  expect(calls.length).toBeGreaterThanOrEqual(6);
  test.info().annotations.push({
    type: 'calls',
    description: `node A ${calls.filter((e) => e.node === 'A').length}, node B ${calls.filter((e) => e.node === 'B').length}`,
  });
});

test('usage posted to node A is visible through node B at once', async ({ browser }) => {
  test.setTimeout(360_000);
  const staff = await busops(browser);
  const clsId = await elasticServer();
  const token = await issueCredential(staff, clsId);
  const product = await pricedProduct(token);
  const user = `scale-out-${randomBytes(4).toString('hex')}`;
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 3 * HOUR_MS;
  const session = { sessionId: `${user}-1`, user, product, count: 2, start };

  const posted = await postUsage(cluster.nodes.A, token, usageEvents([session]));
  expect(posted).toEqual({ status: 200, body: { status: 'SUCCESS', accepted: 2, rejected: [] } });

  // Node B, asked directly with the same session cookie, lists the session at once.
  const listed = await api<{ data: Record<string, unknown>[] }>(
    staff,
    `${cluster.nodes.B.url}/api/fetchUsage`,
    { customerNumber: ACME, filter: { criteria: [{ name: 'User', method: 'EQUALS', value: user }] } },
  );
  expect(listed.data).toEqual([
    expect.objectContaining({
      User: user,
      Product: product,
      ProductCount: 2,
      Hours: 1,
      ServerID: clsId,
      SessionStatus: 'Completed',
    }),
  ]);
  expect(listed.data[0].Charge).toBeGreaterThan(0);
  await staff.close();
});

test('the outbox delivers each e-mail once although the workers of both nodes poll it', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const staff = await busops(browser);
  const clsId = await elasticServer();
  const records = await elasticRecords(staff, '');
  const today = day(Date.now());
  const current = records.find((r) => r.StartDate <= today && (!r.EndDate || today <= r.EndDate));
  expect(current, 'a current elastic entitlement of Acme Aerospace').toBeDefined();
  const [{ last }] = await cluster.query<{ last: string | null }>('select max(id) as last from emails');
  const outbox = () =>
    cluster.query<{ subject: string; delivery_status: string; attempts: number }>(
      'select subject, delivery_status, attempts from emails where id > $1 order by id',
      [Number(last ?? 0)],
    );
  // One weekly statement e-mail per day asked for: each has its own subject (its period).
  const ask = (daysAgo: number) =>
    api(staff, '/api/emailweek', {
      customerid: ACME,
      server: clsId,
      activationid: current?.ActivationId,
      date: day(Date.now() - daysAgo * DAY_MS),
    });
  const sent = async () => (await outbox()).filter((r) => r.delivery_status === 'sent').length;

  // A wave of 12 at once through the proxy: both nodes write outbox rows, both workers find them due.
  const WAVE = 12;
  const waveStart = cluster.proxyLog.length;
  await Promise.all(Array.from({ length: WAVE }, (_, i) => ask(i)));
  const asked = cluster.proxyLog.slice(waveStart).filter((e) => e.path === '/api/emailweek');
  expect(nodesOf(asked)).toEqual(['A', 'B']);
  expect(await outbox()).toHaveLength(WAVE);
  await expect.poll(sent, { timeout: 120_000 }).toBe(WAVE);

  // A node sends what it claimed one message after another and claims again only after that. So once each
  // node has delivered a message asked for after the wave was sent, any second copy of a wave message would
  // already be here: ask for one more at a time until both nodes have delivered one.
  const lateSenders = new Set<string>();
  for (let daysAgo = WAVE; lateSenders.size < 2; daysAgo++) {
    expect(daysAgo, 'both nodes deliver within 40 single messages').toBeLessThan(WAVE + 40);
    await ask(daysAgo);
    const rows = await outbox();
    const subject = rows[rows.length - 1].subject;
    await expect
      .poll(() => cluster.mail.find((m) => m.subject === subject)?.from, { timeout: 60_000 })
      .toBeTruthy();
    lateSenders.add(cluster.mail.find((m) => m.subject === subject)?.from ?? '');
  }
  expect([...lateSenders].sort()).toEqual([cluster.mailFrom.A, cluster.mailFrom.B]);
  const deliveredBy = (n: NodeName) => cluster.mail.filter((m) => m.from === cluster.mailFrom[n]).length;
  test.info().annotations.push({
    type: 'deliveries',
    description: `node A ${deliveredBy('A')}, node B ${deliveredBy('B')} (wave of ${WAVE}, then one at a time)`,
  });
  await expect.poll(async () => (await outbox()).every((r) => r.delivery_status === 'sent')).toBe(true);

  // Every message of the outbox arrived exactly once, sent on the first attempt, and nothing else arrived.
  const rows = await outbox();
  expect(rows.map((r) => r.attempts)).toEqual(rows.map(() => 1));
  expect(cluster.mail.map((m) => m.subject).sort()).toEqual(rows.map((r) => r.subject).sort());
  for (const m of cluster.mail) expect(m.to).toEqual([BUSOPS]);
  await staff.close();
});

test('concurrent ledger writes through both nodes reconcile', async ({ browser }) => {
  test.setTimeout(360_000);
  const staff = await busops(browser);
  const clsId = await elasticServer();
  const token = await issueCredential(staff, clsId);
  const product = await pricedProduct(token);
  const [{ max_rate: maxRate }] = await cluster.query<{ max_rate: number }>(
    'select max(rate) as max_rate from rate_tables where product = $1',
    [product],
  );

  // 12 batches of 4 one-hour sessions; every batch is posted to both nodes at the same moment (a license
  // server retrying through another node), while busops post 10 debits of 0.75 units through the proxy.
  const run = randomBytes(4).toString('hex');
  const start = Math.floor(Date.now() / 60_000) * 60_000 - 4 * HOUR_MS;
  const batches = Array.from({ length: 12 }, (_, b) =>
    Array.from({ length: 4 }, (_, s) => ({
      sessionId: `ledger-${run}-${b}-${s}`,
      user: `ledger-${run}`,
      product,
      count: 1 + (s % 2),
      start: start + b * 60_000,
    })),
  );
  const ADJUSTMENTS = 10;
  const DEBIT = 0.75;
  const usageBound = batches.flat().reduce((sum, s) => sum + s.count * Number(maxRate), 0);
  const recordsBefore = await elasticRecords(staff, cluster.nodes.A.url);
  const target = [...recordsBefore].sort(
    (a, b) => b.LineItemQuantity - b.Used - (a.LineItemQuantity - a.Used),
  )[0];
  // Precondition of the demo world: the debits fit even if all usage drew from the same entitlement.
  expect(target.LineItemQuantity - target.Used).toBeGreaterThan(ADJUSTMENTS * DEBIT + usageBound);

  const before = await reconcileCli(cluster.databaseUrl);
  expect(before.code).toBe(0);
  const adjustStart = cluster.proxyLog.length;
  const [usage, adjustments] = await Promise.all([
    Promise.all(
      batches.flatMap((sessions) => {
        const events = usageEvents(sessions);
        return [postUsage(cluster.nodes.A, token, events), postUsage(cluster.nodes.B, token, events)];
      }),
    ),
    Promise.all(
      Array.from({ length: ADJUSTMENTS }, () =>
        api<{ status: string }>(staff, '/api/elastic/adjustments', {
          customerNumber: ACME,
          activationId: target.ActivationId,
          amount: DEBIT,
          note: 'scale-out test',
        }),
      ),
    ),
  ]);
  for (const answer of usage)
    expect(answer).toEqual({ status: 200, body: expect.objectContaining({ rejected: [] }) });
  expect(adjustments.map((a) => a.status)).toEqual(adjustments.map(() => 'SUCCESS'));
  expect(
    nodesOf(cluster.proxyLog.slice(adjustStart).filter((e) => e.path === '/api/elastic/adjustments')),
  ).toEqual(['A', 'B']);

  // The operator's check over the whole database: every account balances.
  const after = await reconcileCli(cluster.databaseUrl);
  expect(after.rows.filter((r) => !r.balanced)).toEqual([]);
  expect(after.code).toBe(0);

  // Each session was stored once and charged rate × count × 1 h once, whichever node and however often it came.
  const stored = await cluster.query<{ product_count: number; charged_cents: string; rate: number }>(
    `select s.product_count, s.charged_cents, r.rate from usage_sessions s
       join rate_tables r on r.version = s.rate_table_version and r.product = s.product
      where s.server_id = $1 and s.session_id like $2`,
    [clsId, `ledger-${run}-%`],
  );
  expect(stored).toHaveLength(batches.flat().length);
  const charge = (rate: number, count: number) => Math.round(Number((rate * count * 100).toFixed(6)));
  for (const s of stored) expect(Number(s.charged_cents)).toBe(charge(s.rate, s.product_count));
  const charged = stored.reduce((sum, s) => sum + charge(s.rate, s.product_count), 0);

  const acme = (rows: Reconciliation[]) => rows.find((r) => r.customerNumber === ACME) as Reconciliation;
  const [b, a] = [acme(before.rows), acme(after.rows)];
  expect(cents(a.sessions) - cents(b.sessions)).toBe(charged);
  expect(cents(a.drawn) + cents(a.overage) - cents(b.drawn) - cents(b.overage)).toBe(charged);
  expect(cents(a.adjustments) - cents(b.adjustments)).toBe(cents(ADJUSTMENTS * DEBIT));
  const usedDelta = cents(a.entitlementUsed) - cents(b.entitlementUsed);
  expect(usedDelta).toBe(cents(a.drawn) - cents(b.drawn) + cents(ADJUSTMENTS * DEBIT));

  // The balances node B shows moved by exactly that much.
  const recordsAfter = await elasticRecords(staff, cluster.nodes.B.url);
  const usedOf = (records: ElasticRecord[]) => records.reduce((sum, r) => sum + cents(r.Used), 0);
  expect(usedOf(recordsAfter) - usedOf(recordsBefore)).toBe(usedDelta);
  await staff.close();
});
