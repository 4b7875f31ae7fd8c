import { alertsApi } from '@lp/contract/alerts/api';
import { apiCatalogue } from '@lp/contract/api-catalogue';
import { clsApi } from '@lp/contract/cls/api';
import { IDEMPOTENCY_KEY_HEADER, type Operation, operationUrl } from '@lp/contract/common/operation';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { statementsApi } from '@lp/contract/statements/api';
import { contactRoles } from '@lp/domain/policy';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  usageEvents,
} from '../../harness/elastic-factories.ts';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildLease,
  dayFromToday,
} from '../../harness/factories.ts';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { buildAccountFixture, signInStaff } from '../../test/account-fixture.ts';
import { tableSnapshot } from '../../test/table-snapshot.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { queryRows } from '../db/database.ts';
import { accounts, alerts, elasticLedger, emails, fsaPrices, operationKeys, products } from '../db/schema.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/*
 * Decision 064: every write the web client retries is safe to retry. The catalogue says what each call does when
 * sent twice, and every write of it is tried here: a keyed write with the Idempotency-Key header is sent, its answer
 * "lost" (also over HTTP, the socket cut after the commit) and sent again with the same key, and must be applied
 * once; an idempotent or body-keyed write is sent twice and must leave the tables as the first call did. Writes
 * that are `once` are held by the client's unit test (web/src/lib/call-retries.test.ts) never to be retried.
 */

const CN = '5300001';
const OTHER = '5300002';
const SISTER = '5300003';
const CLS = 'CLS-IDEM-1';
const HOST = 'ab0000000064';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let busops: Headers;
let support: Headers;
let staff: Headers;
let server: Headers;
let activationId: string;

/** What one keyed write needs: who sends it, a body, and how many times its effect is in the database. */
interface KeyedCase {
  who: () => Headers;
  body: () => object;
  /** A body the same key may not be reused with. */
  other: () => object;
  applied: () => Promise<number>;
}

const count = (...args: Parameters<TestDatabase['db']['$count']>) => database.db.$count(...args);

const statementBody = (date: string) => ({
  customerid: CN,
  customername: 'Acme',
  server: CLS,
  activationid: 'ACT-IDEM',
  date,
});

/** One case per header-keyed write of the catalogue; the test below fails when a keyed write has none. */
const cases: Record<string, KeyedCase> = {
  [clsApi.adjust.operationId]: {
    who: () => busops,
    body: () => ({ customerNumber: CN, activationId, amount: 1.5, note: 'retried once' }),
    other: () => ({ customerNumber: CN, activationId, amount: 2, note: 'retried once' }),
    applied: () => count(elasticLedger, eq(elasticLedger.kind, 'adjustment')),
  },
  [alertsApi.create.operationId]: {
    who: () => support,
    body: () => ({ category: 'CRITICAL', service: ['Portal'], description: 'Down, once' }),
    other: () => ({ category: 'CRITICAL', service: ['Portal'], description: 'Another' }),
    applied: () => count(alerts),
  },
  [statementsApi.emailWeek.operationId]: {
    who: () => boss,
    body: () => statementBody('2026-03-31T10:00:00.000Z'),
    other: () => statementBody('2026-03-24T10:00:00.000Z'),
    applied: () => count(emails, eq(emails.customerNumber, CN)),
  },
  [statementsApi.emailMonth.operationId]: {
    who: () => boss,
    body: () => statementBody('2026-03-31T10:00:00.000Z'),
    other: () => statementBody('2026-02-28T10:00:00.000Z'),
    applied: () => count(emails, eq(emails.customerNumber, CN)),
  },
  [licenseFilesApi.email.operationId]: {
    who: () => boss,
    body: () => ({ customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' }),
    other: () => ({ customerNumber: CN, serverId: HOST }),
    applied: () => count(emails, eq(emails.customerNumber, CN)),
  },
};

const headerKeyed = apiCatalogue.filter((op) => op.effect === 'keyed' && !op.keyField);

let keys = 0;
/** A fresh key, as the client makes one per logical call. */
const newKey = () => `idem-test-${process.pid}-${++keys}`;

const send = (op: Operation, headers: Headers, body: object, key?: string) =>
  app.inject({
    method: op.method.toUpperCase() as 'POST',
    url: operationUrl(op),
    headers: key ? { ...headers, [IDEMPOTENCY_KEY_HEADER]: key } : headers,
    payload: body,
  });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const { db } = database;
  ({ boss } = await buildAccountFixture(db, CN, OTHER));
  busops = await signInStaff(db, 'busops');
  support = await signInStaff(db, 'support');
  // Passes every staff guard (alerts, e-mails, credentials, features).
  staff = (await signInAs(db, 'all@vendor.example', { vendorRoles: ['busops', 'admin', 'support'] })).headers;
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  await db.update(accounts).set({ supportEmail: 'it@acme.example' }).where(eq(accounts.customerNumber, CN));
  await buildElasticServer(db, CN, CLS);
  activationId = (
    await buildElasticEntitlement(db, CN, {
      activationId: 'ACT-IDEM',
      quantity: 100,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    })
  ).activationId;
  await db.insert(products).values({
    partNumber: 'IDEM-SOLVER',
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd_solver',
  });
  await buildLease(db, CN, 'IDEM-LEASE', { partNumber: 'IDEM-SOLVER' });
  const created = await app.inject({
    method: 'POST',
    url: '/api/fulfillments/create',
    headers: boss,
    payload: {
      customerNumber: CN,
      serverName: 'idem1',
      serverId: HOST,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'IDEM-LEASE', count: 1 }],
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  // A sister account on the same host, for its shared-server group.
  await buildAccount(db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildLease(db, SISTER, 'IDEM-SISTER', { partNumber: 'IDEM-SOLVER' });
  await activate(SISTER, HOST, 'IDEM-SISTER', 1);
  const fsa = await buildEntitlement(db, CN, {
    activationId: 'FSA-IDEM',
    kind: 'FSA',
    licenseModel: 'FSA',
    startDate: dayFromToday(-30),
    endDate: dayFromToday(400),
    currency: 'USD',
    priceCents: 1_000_000,
    busopsEmails: 'ops@acme.example',
  });
  await db.insert(fsaPrices).values({
    contractId: fsa.id,
    partNumber: 'IDEM-SOLVER',
    price7DaysCents: 1_000,
    price30DaysCents: 3_500,
    price90DaysCents: 9_000,
    price1YearCents: 30_000,
  });
  const { token } = await issueServerCredential(db, { customerNumber: CN, clsId: CLS, createdBy: 'test' });
  server = { authorization: `Bearer ${token}` };
});

/** Activates `count` seats of `lease` on a host of `customerNumber`; answers the fulfillment's id. */
async function activate(customerNumber: string, host: string, lease: string, count: number) {
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers: boss, payload });
  const created = await post('/api/fulfillments/create', {
    customerNumber,
    serverName: `h-${host}`,
    serverId: host,
    serverIdType: 'ETHERNET',
    activations: [{ id: lease, count }],
  });
  expect(created.statusCode, created.body).toBe(200);
  const view = await post('/api/fulfillments/entitlements', {
    customerNumber,
    serverId: host,
    serverIdType: 'ETHERNET',
  });
  const rows = view.json().data as { activationId?: string; fulfillments: { FulfillmentID: number }[] }[];
  return rows.flatMap((r) => r.fulfillments).at(-1)!.FulfillmentID;
}

let hosts = 0;
/** A host id no test used yet. */
const newHost = () => `ac${String(++hosts).padStart(10, '0')}`;

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('the catalogue declares what a retry of each call does', () => {
  it('every operation declares its effect; a body key only on keyed writes, naming a field of the body', () => {
    for (const op of apiCatalogue) {
      expect(['read', 'idempotent', 'keyed', 'once'], op.operationId).toContain(op.effect);
      if (op.keyField) {
        expect(op.effect, op.operationId).toBe('keyed');
        const shape = (op.body as z.ZodObject | undefined)?.shape ?? {};
        expect(Object.keys(shape), op.operationId).toContain(op.keyField);
      }
    }
  });

  it('a GET is never a write', () => {
    for (const op of apiCatalogue.filter((o) => o.method === 'get'))
      expect(op.effect, op.operationId).not.toBe('keyed');
  });

  it('every keyed write taking the Idempotency-Key header has a retry case here', () => {
    expect(headerKeyed.map((op) => op.operationId).sort()).toEqual(Object.keys(cases).sort());
  });
});

describe.each(headerKeyed.map((op) => [op.operationId, op] as const))('%s retried with its key', (id, op) => {
  const c = () => cases[id];

  it('applies once when the answer is lost and the same request comes again', async () => {
    const before = await c().applied();
    const key = newKey();
    const first = await send(op, c().who(), c().body(), key);
    expect(first.statusCode, first.body).toBe(200);
    expect(await c().applied()).toBe(before + 1);
    // The answer never reached the client: it sends the same call again, with the same key.
    const retry = await send(op, c().who(), c().body(), key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await c().applied()).toBe(before + 1);
  });

  it('refuses the key with another request, and a new key applies again', async () => {
    const key = newKey();
    expect((await send(op, c().who(), c().body(), key)).statusCode).toBe(200);
    const before = await c().applied();
    const reused = await send(op, c().who(), c().other(), key);
    expect(reused.statusCode, reused.body).toBe(409);
    expect(reused.json()).toMatchObject({
      status: 'FAILURE',
      err: 'This Idempotency-Key was already used for another request.',
    });
    expect(await c().applied()).toBe(before);
    expect((await send(op, c().who(), c().body(), newKey())).statusCode).toBe(200);
    expect(await c().applied()).toBe(before + 1);
  });

  it('without a key applies each call, as before', async () => {
    const before = await c().applied();
    expect((await send(op, c().who(), c().body())).statusCode).toBe(200);
    expect((await send(op, c().who(), c().body())).statusCode).toBe(200);
    expect(await c().applied()).toBe(before + 2);
  });
});

describe('a keyed write that fails', () => {
  it('releases its key: the retry of a refused adjustment runs afresh and applies once', async () => {
    const key = newKey();
    const before = await cases[clsApi.adjust.operationId].applied();
    const keysBefore = await count(operationKeys);
    const body = { customerNumber: CN, activationId, amount: -40 };
    // More credit than was used: refused, nothing posted, the key not kept.
    const refused = await send(clsApi.adjust, busops, body, key);
    expect(refused.json()).toMatchObject({ err: "Credit exceeds the entitlement's used amount" });
    expect(await count(operationKeys)).toBe(keysBefore);
    // Once enough is used, the same call with the same key is a new attempt, not the stored refusal.
    await send(clsApi.adjust, busops, { customerNumber: CN, activationId, amount: 40 }, newKey());
    const retried = await send(clsApi.adjust, busops, body, key);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await cases[clsApi.adjust.operationId].applied()).toBe(before + 2);
  });

  it('refuses a malformed key before doing anything', async () => {
    const before = await count(alerts);
    const res = await send(alertsApi.create, support, cases[alertsApi.create.operationId].body(), 'short');
    expect(res.statusCode).toBe(400);
    expect(res.json().err).toBe('Invalid request: Idempotency-Key must be 8-100 letters, digits, - or _');
    expect(await count(alerts)).toBe(before);
  });
});

describe('two attempts at once with one key', () => {
  it('(the client gave up on the first while it still ran) apply once and answer alike', async () => {
    const c = cases[clsApi.adjust.operationId];
    const before = await c.applied();
    const key = newKey();
    const [a, b] = await Promise.all([
      send(clsApi.adjust, busops, c.body(), key),
      send(clsApi.adjust, busops, c.body(), key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(await c.applied()).toBe(before + 1);
  });
});

describe('over HTTP, the connection lost after the commit', () => {
  it('a money adjustment retried with its key is posted once and the retry gets the first answer', async () => {
    const server = await createTestApp(database);
    let cut = 0;
    // After the handler committed and before its answer leaves: the connection drops, as on a timeout.
    server.addHook('onSend', async (request, _reply, payload) => {
      if (request.url === clsApi.adjust.path && cut++ === 0) request.raw.socket.destroy();
      return payload;
    });
    const address = await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const before = await cases[clsApi.adjust.operationId].applied();
      const key = newKey();
      const attempt = () =>
        fetch(`${address}${clsApi.adjust.path}`, {
          method: 'POST',
          headers: { ...busops, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: key },
          body: JSON.stringify({ customerNumber: CN, activationId, amount: 0.25, note: 'over HTTP' }),
        });
      await expect(attempt()).rejects.toThrow();
      expect(await cases[clsApi.adjust.operationId].applied()).toBe(before + 1);
      const retry = await attempt();
      expect(retry.status).toBe(200);
      expect((await retry.json()).status).toBe('SUCCESS');
      expect(await cases[clsApi.adjust.operationId].applied()).toBe(before + 1);
    } finally {
      await server.close();
    }
  });
});

/*
 * The other writes the client retries: idempotent by nature, or keyed by their spec's body field. Each is sent, its
 * answer "lost", and sent again unchanged (the same body key included): every table must hold what the first call
 * left. The audit trail and the sessions' last use are left out: a hand-out (a generated file) is recorded each
 * time it happens, and every request touches its session.
 */

interface RetriedCase {
  /** Makes what the write acts on; answers who sends it, its body and its path parameters. */
  prepare: () => Promise<{ who?: Headers; body?: object; params?: Record<string, string | number> }>;
  /** What the same call answers when it comes again: the first answer unless the first took away its object. */
  again?: number;
  /** Tables a second call may rightly add to (what they hold is per call by design). */
  ignore?: string[];
}

const key = () => newKey();
const lease = { customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' };
const alertBody = { category: 'INFO', service: ['Portal'], description: 'Maintenance' };
const post = (url: string, who: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers: who, payload });

const retried: Record<string, RetriedCase> = {
  signIn: { prepare: async () => ({}), ignore: ['login_states'] },
  signOut: {
    prepare: async () => ({ who: (await signInAs(database.db, 'leaving@acme.example')).headers }),
  },
  revokeApiToken: {
    prepare: async () => {
      const created = await post('/api/tokens', boss, { name: `retry ${newKey()}` });
      return { who: boss, params: { id: created.json().data.id }, body: {} };
    },
  },
  saveTablePrefs: {
    prepare: async () => ({
      who: boss,
      body: { tables: [{ customerNumber: CN, tableName: 'emailList', dateRange: 'Last 7 days' }] },
    }),
  },
  saveFeatures: { prepare: async () => ({ who: staff, body: { features: [] } }) },
  editAlert: {
    prepare: async () => {
      const created = await post('/api/notifications/admin', staff, alertBody);
      return {
        who: staff,
        params: { id: created.json().data.id },
        body: { ...alertBody, description: 'Edited' },
      };
    },
  },
  resolveAlert: {
    prepare: async () => {
      const created = await post('/api/notifications/admin', staff, alertBody);
      return { who: staff, params: { id: created.json().data.id } };
    },
  },
  deleteEmail: {
    prepare: async () => {
      await post('/api/emailweek', boss, statementBody('2026-03-17T10:00:00.000Z'));
      const [{ id }] = await queryRows<{ id: number }>(
        database.db,
        sql`select max(id)::int as id from emails where customer_number = ${CN}`,
      );
      return { who: staff, params: { id } };
    },
    again: 404,
  },
  setPortalAccess: {
    prepare: async () => {
      const current = (await post('/api/getportalaccess', busops, { customerNumber: CN })).json()
        .data as object[];
      const added = { email: `new-${newKey()}@acme.example`, role: contactRoles.viewer };
      return {
        who: busops,
        body: { customerNumber: CN, oldContacts: current, newContacts: [...current, added] },
      };
    },
    // The contacts it was sent against are no longer the stored ones: refused, nothing changed.
    again: 409,
  },
  setIpRules: {
    prepare: async () => ({
      who: boss,
      body: { customerNumber: CN, clsId: CLS, whitelist: [{ rulename: 'HQ', ipaddress: '203.0.113.0/24' }] },
    }),
  },
  generateLicense: { prepare: async () => ({ who: boss, body: lease }) },
  generateLicenses: {
    prepare: async () => ({
      who: boss,
      body: { hostId: HOST, hostIdType: 'ETHERNET', customers: [{ customerNumber: CN }] },
    }),
  },
  downloadLicense: { prepare: async () => ({ who: boss, body: lease }) },
  generatePin: { prepare: async () => ({ who: boss, body: { customerNumber: CN, clsId: CLS } }) },
  changePin: {
    prepare: async () => ({ who: boss, body: { customerNumber: CN, clsId: CLS, pin: '246813' } }),
  },
  saveAllowedUsers: {
    prepare: async () => ({ who: boss, body: { customerNumber: CN, clsId: CLS, users: ['alice', 'bob'] } }),
  },
  postServerUsage: {
    prepare: async () => ({
      who: server,
      body: {
        events: usageEvents([
          { product: 'Solver', start: '2026-03-02T08:00:00Z', end: '2026-03-02T09:00:00Z', user: 'retry' },
        ]),
      },
    }),
  },
  revokeServerCredential: {
    prepare: async () => {
      const { id } = await issueServerCredential(database.db, {
        customerNumber: CN,
        clsId: CLS,
        createdBy: 'test',
      });
      return { who: staff, params: { id } };
    },
    again: 404,
  },
  setNoticeChoices: {
    prepare: async () => ({
      who: boss,
      body: { customerNumber: CN, expiryDays: [30], usagePercents: [80], runOut: true },
    }),
  },
  setNoticeTypes: {
    prepare: async () => ({ who: boss, body: { customerNumber: CN, disabledTypes: ['lease-ending'] } }),
  },
  setLicenseServerSettings: {
    prepare: async () => ({
      who: boss,
      body: {
        customerNumber: CN,
        hostId: HOST,
        hostIdType: 'ETHERNET',
        ansysborrowable: true,
        operationKey: key(),
      },
    }),
  },
  setSharedServerGroup: {
    prepare: async () => ({
      who: boss,
      body: {
        customerNumber: CN,
        hostId: HOST,
        hostIdType: 'ETHERNET',
        group: [CN, SISTER],
        operationKey: key(),
      },
    }),
  },
  deactivateSharedServerGroup: {
    prepare: async () => {
      const host = { customerNumber: CN, hostId: HOST, hostIdType: 'ETHERNET' };
      expect((await post('/api/sharedserver', boss, { ...host, group: [CN, SISTER] })).statusCode).toBe(200);
      return { who: boss, body: { ...host, operationKey: key() } };
    },
  },
  removeLicenseServer: {
    prepare: async () => {
      const host = newHost();
      const id = await activate(CN, host, 'IDEM-LEASE', 1);
      const returned = await post('/api/fulfillments/return', boss, {
        customerNumber: CN,
        activations: [{ id, count: -1 }],
      });
      expect(returned.statusCode, returned.body).toBe(200);
      return {
        who: boss,
        body: { customerNumber: CN, hostId: host, hostIdType: 'ETHERNET', operationKey: key() },
      };
    },
  },
  returnFulfillments: {
    prepare: async () => {
      const id = await activate(CN, newHost(), 'IDEM-LEASE', 2);
      return {
        who: boss,
        body: { customerNumber: CN, activations: [{ id, count: -1 }], operationKey: key() },
      };
    },
  },
  createFulfillments: {
    prepare: async () => ({
      who: boss,
      body: {
        customerNumber: CN,
        serverName: 'fresh',
        serverId: newHost(),
        serverIdType: 'ETHERNET',
        activations: [{ id: 'IDEM-LEASE', count: 1 }],
        operationKey: key(),
      },
    }),
  },
  orderFsaEntitlements: {
    prepare: async () => ({
      who: boss,
      body: {
        customerNumber: CN,
        fsaID: 'FSA-IDEM',
        products: [{ ansysbpn: 'IDEM-SOLVER', ansyscount: 1, startdate: dayFromToday(0), duration: '7' }],
        orderKey: key(),
      },
    }),
  },
};

const retriedWrites = apiCatalogue.filter(
  (op) => op.effect === 'idempotent' || (op.effect === 'keyed' && op.keyField),
);

/**
 * Every table but the audit trail and the sessions, each as a count and a hash of its rows. A whole value written
 * again gets new surrogate ids, a new time of writing and a fresh seal of the same PIN (a new nonce): those
 * columns say when and how it was stored, not what.
 */
async function tables(ignore: string[] = []) {
  const run = (text: string) => queryRows<Record<string, unknown>>(database.db, sql.raw(text));
  const all = await tableSnapshot(run);
  for (const name of ['audit_entries', 'audit_chain_heads', 'sessions', ...ignore])
    delete all[`public.${name}`];
  const bookkeeping = /^(id|updated_at)$|_cipher$/;
  return tableSnapshot(
    run,
    Object.fromEntries(
      Object.entries(all).map(([name, t]) => [
        name,
        { ...t, columns: t.columns.filter((c) => !bookkeeping.test(c)) },
      ]),
    ),
  );
}

describe('the writes retried without a header key', () => {
  it('every idempotent or body-keyed write of the catalogue has a case here', () => {
    expect(retriedWrites.map((op) => op.operationId).sort()).toEqual(Object.keys(retried).sort());
  });

  it.each(retriedWrites.map((op) => [op.operationId, op] as const))(
    '%s sent again after its answer was lost changes nothing more',
    async (id, op) => {
      const c = retried[id];
      const { who = {}, body, params } = await c.prepare();
      const again = () =>
        app.inject({
          method: op.method.toUpperCase() as 'POST',
          url: operationUrl(op, params),
          headers: who,
          ...(op.body && { payload: body ?? {} }),
        });
      const first = await again();
      expect(first.statusCode, first.body).toBeLessThan(400);
      const after = await tables(c.ignore);
      const second = await again();
      expect(second.statusCode, second.body).toBe(c.again ?? first.statusCode);
      const now = await tables(c.ignore);
      const changed = Object.keys(now).filter((name) => now[name].hash !== after[name]?.hash);
      expect(changed).toEqual([]);
    },
  );
});
