import { activationsApi } from '@lp/contract/activations/api';
import { alertsApi } from '@lp/contract/alerts/api';
import { apiCatalogue } from '@lp/contract/api-catalogue';
import { apiTokensApi } from '@lp/contract/api-tokens/api';
import { clsApi } from '@lp/contract/cls/api';
import { IDEMPOTENCY_KEY_HEADER, type Operation } from '@lp/contract/common/operation';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { portalAccessApi } from '@lp/contract/portal-access/api';
import { scimApi } from '@lp/contract/scim/api';
import { statementsApi } from '@lp/contract/statements/api';
import { webDirectoryApi } from '@lp/contract/web-directory/api';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import { contactRoles } from '@lp/domain/policy';
import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
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
  buildProduct,
  dayFromToday,
} from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import {
  type Api,
  acme,
  anonymous,
  apiTest,
  bearer,
  type Caller,
  type Cast,
} from '../../test/api-fixture.ts';
import { tableColumns, tableSnapshot } from '../../test/table-snapshot.ts';
import type { TestDatabase } from '../../test/test-db.ts';
import { addWebPerson } from '../../test/web-leases.ts';
import { queryRows } from '../db/database.ts';
import { accounts, alerts, elasticLedger, emails, fsaPrices, operationKeys, products } from '../db/schema.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';
import { issueWebCredential } from '../features/web-sessions/web-credentials.ts';

/*
 * Decision 064: every write the web client retries is safe to retry. The catalogue says what each call does when
 * sent twice, and every write of it is tried here: a keyed write with the Idempotency-Key header is sent, its answer
 * "lost" (also over HTTP, the socket cut after the commit) and sent again with the same key, and must be applied
 * once; an idempotent or body-keyed write is sent twice and must leave the tables as the first call did. Writes
 * that are `once` are held by the client's unit test (web/src/lib/call-retries.test.ts) never to be retried.
 */

const CN = acme.customerNumber;
const SISTER = '5300003';
const CLS = 'CLS-IDEM-1';
const HOST = 'ab0000000064';

let keys = 0;
/** A fresh key, as the client makes one per logical call. */
const newKey = () => `idem-test-${process.pid}-${++keys}`;

let hosts = 0;
/** A host id no test used yet. */
const newHost = () => `ac${String(++hosts).padStart(10, '0')}`;

/**
 * What the cases act on and with: Acme (the cast's, with a sister account on the same host), its elastic server,
 * entitlement, lease and FSA contract, the callers, and the calls the cases make.
 */
async function buildWorld({
  database,
  api,
  cast,
  signIn,
}: {
  database: TestDatabase;
  api: Api;
  cast: Cast;
  signIn: (email: string, options?: { vendorRoles?: string[] }) => Promise<Caller>;
}) {
  const { db } = database;
  const { boss, busops, support } = cast;
  // Passes every staff guard (alerts, e-mails, credentials, features).
  const staff = await signIn('all@vendor.example', { vendorRoles: ['busops', 'admin', 'support'] });
  /** Activates `count` seats of `lease` on a host of `customerNumber`; answers the fulfillment's id. */
  const activate = async (customerNumber: string, host: string, lease: string, count: number) => {
    await api.ok(boss, activationsApi.create, {
      customerNumber,
      serverName: `h-${host}`,
      serverId: host,
      serverIdType: 'ETHERNET',
      activations: [{ id: lease, count }],
    });
    const view = await api.ok(boss, activationsApi.hostEntitlements, {
      customerNumber,
      serverId: host,
      serverIdType: 'ETHERNET',
    });
    return view.data.flatMap((r) => r.fulfillments).at(-1)!.FulfillmentID;
  };
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  await db.update(accounts).set({ supportEmail: 'it@acme.example' }).where(eq(accounts.customerNumber, CN));
  await buildElasticServer(db, CN, CLS);
  const { activationId } = await buildElasticEntitlement(db, CN, {
    activationId: 'ACT-IDEM',
    quantity: 100,
    startDate: '2020-01-01',
    endDate: '2099-12-31',
  });
  await db.insert(products).values({
    partNumber: 'IDEM-SOLVER',
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd_solver',
  });
  await buildLease(db, CN, 'IDEM-LEASE', { partNumber: 'IDEM-SOLVER' });
  await api.ok(boss, activationsApi.create, {
    customerNumber: CN,
    serverName: 'idem1',
    serverId: HOST,
    serverIdType: 'ETHERNET',
    activations: [{ id: 'IDEM-LEASE', count: 1 }],
  });
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
  const { token } = await issueServerCredential(db, {
    customerNumber: CN,
    elasticServerId: CLS,
    createdBy: 'test',
  });
  return {
    db,
    api,
    signIn,
    boss,
    busops,
    support,
    staff,
    server: bearer(token),
    activationId,
    activate,
    count: (...args: Parameters<TestDatabase['db']['$count']>) => db.$count(...args),
    /** A write, with this Idempotency-Key when given. */
    send: (op: Operation, who: Caller, body: object, key?: string) =>
      api.call(who, op, body, { headers: key ? { [IDEMPOTENCY_KEY_HEADER]: key } : {} }),
  };
}
type World = Awaited<ReturnType<typeof buildWorld>>;

// The cast first: its accounts are the world's.
const test = apiTest.extend('world', { scope: 'file' }, async ({ database, api, cast, signIn }) =>
  buildWorld({ database, api, cast, signIn }),
);

/** What one keyed write needs: who sends it, a body, and how many times its effect is in the database. */
interface KeyedCase {
  who: (w: World) => Caller;
  body: (w: World) => object;
  /** A body the same key may not be reused with. */
  other: (w: World) => object;
  applied: (w: World) => Promise<number>;
}

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
    who: (w) => w.busops,
    body: (w) => ({ customerNumber: CN, activationId: w.activationId, amount: 1.5, note: 'retried once' }),
    other: (w) => ({ customerNumber: CN, activationId: w.activationId, amount: 2, note: 'retried once' }),
    applied: (w) => w.count(elasticLedger, eq(elasticLedger.kind, 'adjustment')),
  },
  [alertsApi.create.operationId]: {
    who: (w) => w.support,
    body: () => ({ category: 'CRITICAL', service: ['Portal'], description: 'Down, once' }),
    other: () => ({ category: 'CRITICAL', service: ['Portal'], description: 'Another' }),
    applied: (w) => w.count(alerts),
  },
  [statementsApi.emailWeek.operationId]: {
    who: (w) => w.boss,
    body: () => statementBody('2026-03-31T10:00:00.000Z'),
    other: () => statementBody('2026-03-24T10:00:00.000Z'),
    applied: (w) => w.count(emails, eq(emails.customerNumber, CN)),
  },
  [statementsApi.emailMonth.operationId]: {
    who: (w) => w.boss,
    body: () => statementBody('2026-03-31T10:00:00.000Z'),
    other: () => statementBody('2026-02-28T10:00:00.000Z'),
    applied: (w) => w.count(emails, eq(emails.customerNumber, CN)),
  },
  [licenseFilesApi.email.operationId]: {
    who: (w) => w.boss,
    body: () => ({ customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' }),
    other: () => ({ customerNumber: CN, serverId: HOST }),
    applied: (w) => w.count(emails, eq(emails.customerNumber, CN)),
  },
};

const headerKeyed = apiCatalogue.filter((op) => op.effect === 'keyed' && !op.keyField);

describe('the catalogue declares what a retry of each call does', () => {
  test('every operation declares its effect; a body key only on keyed writes, naming a field of the body', () => {
    for (const op of apiCatalogue) {
      expect(['read', 'idempotent', 'keyed', 'once'], op.operationId).toContain(op.effect);
      if (op.keyField) {
        expect(op.effect, op.operationId).toBe('keyed');
        const shape = (op.body as z.ZodObject | undefined)?.shape ?? {};
        expect(Object.keys(shape), op.operationId).toContain(op.keyField);
      }
    }
  });

  test('a GET is never a write', () => {
    for (const op of apiCatalogue.filter((o) => o.method === 'get'))
      expect(op.effect, op.operationId).not.toBe('keyed');
  });

  test('every keyed write taking the Idempotency-Key header has a retry case here', () => {
    expect(headerKeyed.map((op) => op.operationId).sort()).toEqual(Object.keys(cases).sort());
  });
});

describe.each(headerKeyed.map((op) => [op.operationId, op] as const))('%s retried with its key', (id, op) => {
  const c = () => cases[id];

  test('applies once when the answer is lost and the same request comes again', async ({ world: w }) => {
    const before = await c().applied(w);
    const key = newKey();
    const first = await w.send(op, c().who(w), c().body(w), key);
    expect(first.statusCode, first.body).toBe(200);
    expect(await c().applied(w)).toBe(before + 1);
    // The answer never reached the client: it sends the same call again, with the same key.
    const retry = await w.send(op, c().who(w), c().body(w), key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await c().applied(w)).toBe(before + 1);
  });

  test('refuses the key with another request, and a new key applies again', async ({ world: w }) => {
    const key = newKey();
    expect((await w.send(op, c().who(w), c().body(w), key)).statusCode).toBe(200);
    const before = await c().applied(w);
    const reused = await w.send(op, c().who(w), c().other(w), key);
    expect(reused.statusCode, reused.body).toBe(409);
    expect(reused.json()).toMatchObject({
      status: 'FAILURE',
      err: 'This Idempotency-Key was already used for another request.',
    });
    expect(await c().applied(w)).toBe(before);
    expect((await w.send(op, c().who(w), c().body(w), newKey())).statusCode).toBe(200);
    expect(await c().applied(w)).toBe(before + 1);
  });

  test('without a key applies each call, as before', async ({ world: w }) => {
    const before = await c().applied(w);
    expect((await w.send(op, c().who(w), c().body(w))).statusCode).toBe(200);
    expect((await w.send(op, c().who(w), c().body(w))).statusCode).toBe(200);
    expect(await c().applied(w)).toBe(before + 2);
  });
});

describe('a keyed write that fails', () => {
  test('releases its key: the retry of a refused adjustment runs afresh and applies once', async ({
    world: w,
  }) => {
    const key = newKey();
    const before = await cases[clsApi.adjust.operationId].applied(w);
    const keysBefore = await w.count(operationKeys);
    const body = { customerNumber: CN, activationId: w.activationId, amount: -40 };
    // More credit than was used: refused, nothing posted, the key not kept.
    const refused = await w.send(clsApi.adjust, w.busops, body, key);
    expect(refused.json()).toMatchObject({ err: "Credit exceeds the entitlement's used amount" });
    expect(await w.count(operationKeys)).toBe(keysBefore);
    // Once enough is used, the same call with the same key is a new attempt, not the stored refusal.
    await w.send(
      clsApi.adjust,
      w.busops,
      { customerNumber: CN, activationId: w.activationId, amount: 40 },
      newKey(),
    );
    const retried = await w.send(clsApi.adjust, w.busops, body, key);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await cases[clsApi.adjust.operationId].applied(w)).toBe(before + 2);
  });

  test('refuses a malformed key before doing anything', async ({ world: w }) => {
    const before = await w.count(alerts);
    const res = await w.send(
      alertsApi.create,
      w.support,
      cases[alertsApi.create.operationId].body(w),
      'short',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().err).toBe('Invalid request: Idempotency-Key must be 8-100 letters, digits, - or _');
    expect(await w.count(alerts)).toBe(before);
  });
});

describe('two attempts at once with one key', () => {
  test('(the client gave up on the first while it still ran) apply once and answer alike', async ({
    world: w,
  }) => {
    const c = cases[clsApi.adjust.operationId];
    const before = await c.applied(w);
    const key = newKey();
    const [a, b] = await Promise.all([
      w.send(clsApi.adjust, w.busops, c.body(w), key),
      w.send(clsApi.adjust, w.busops, c.body(w), key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json()).toEqual(b.json());
    expect(await c.applied(w)).toBe(before + 1);
  });
});

describe('over HTTP, the connection lost after the commit', () => {
  test('a money adjustment retried with its key is posted once and the retry gets the first answer', async ({
    database,
    world: w,
  }) => {
    const server = await createTestApp(database);
    let cut = 0;
    // After the handler committed and before its answer leaves: the connection drops, as on a timeout.
    server.addHook('onSend', async (request, _reply, payload) => {
      if (request.url === clsApi.adjust.path && cut++ === 0) request.raw.socket.destroy();
      return payload;
    });
    const address = await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const before = await cases[clsApi.adjust.operationId].applied(w);
      const key = newKey();
      const attempt = () =>
        fetch(`${address}${clsApi.adjust.path}`, {
          method: 'POST',
          headers: { ...w.busops.headers, 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: key },
          body: JSON.stringify({
            customerNumber: CN,
            activationId: w.activationId,
            amount: 0.25,
            note: 'over HTTP',
          }),
        });
      await expect(attempt()).rejects.toThrow();
      expect(await cases[clsApi.adjust.operationId].applied(w)).toBe(before + 1);
      const retry = await attempt();
      expect(retry.status).toBe(200);
      expect((await retry.json()).status).toBe('SUCCESS');
      expect(await cases[clsApi.adjust.operationId].applied(w)).toBe(before + 1);
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
  prepare: (w: World) => Promise<{ who?: Caller; body?: object; params?: Record<string, string | number> }>;
  /** What the same call answers when it comes again: the first answer unless the first took away its object. */
  again?: number;
  /** Tables a second call may rightly add to (what they hold is per call by design). */
  ignore?: string[];
}

const key = () => newKey();
const lease = { customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' };
const alertBody = { category: 'INFO' as const, service: ['Portal'], description: 'Maintenance' };

/**
 * A shared web seat pool of Acme with a product credential for it (made once, by the first case that needs it),
 * and a lease of a new person of its directory.
 */
let webPool: Promise<Caller> | undefined;
let webPeople = 0;
const webProduct = (w: World) => {
  webPool ??= (async () => {
    await buildProduct(w.db, 'IDEM-WEBS', { name: 'Solver - Shared Web', featureName: 'web_solver_sw' });
    await buildEntitlement(w.db, CN, {
      activationId: 'IDEM-WEBS-LINE',
      licenseModel: 'Shared Web',
      partNumber: 'IDEM-WEBS',
      quantity: 50,
      startDate: dayFromToday(-10),
      endDate: dayFromToday(300),
    });
    const { token } = await issueWebCredential(w.db, {
      product: 'Idempotent',
      partNumbers: ['IDEM-WEBS'],
      createdBy: 'test',
    });
    return bearer(token);
  })();
  return webPool;
};
const webCheckoutBody = async (w: World) => {
  const email = `web-${++webPeople}@acme.example`;
  await addWebPerson(w.db, CN, email);
  return { customerNumber: CN, email, partNumber: 'IDEM-WEBS' };
};
const webLease = async (w: World) => {
  const product = await webProduct(w);
  const { data } = await w.api.ok(product, webSessionsApi.checkout, await webCheckoutBody(w));
  if (!data.granted) throw new Error(`no web seat: ${data.reason}`);
  return { product, leaseId: data.leaseId };
};

/** A person invited to Acme's web directory; answers their id. */
async function webUser(w: World): Promise<string> {
  const email = `web-${newKey()}@acme.example`;
  await w.api.ok(w.boss, webDirectoryApi.invite, {
    customerNumber: CN,
    source: 'manual',
    users: [{ email }],
  });
  const people = await w.api.ok(w.boss, webDirectoryApi.users, { customerNumber: CN });
  return people.data.find((p) => p.email === email)!.id;
}

/** A group of Acme's web directory; answers its id. */
async function webGroup(w: World): Promise<string> {
  const made = await w.api.ok(w.boss, webDirectoryApi.createGroup, {
    customerNumber: CN,
    name: `G ${newKey()}`,
  });
  return made.data.id;
}

/** A named web seat pool of Acme (made once, by the first case that needs it): its part number. */
let webNamedPool: Promise<string> | undefined;
const webNamed = (w: World) => {
  webNamedPool ??= (async () => {
    await buildProduct(w.db, 'IDEM-WEBN', { name: 'Mesher - Named User', featureName: 'web_mesher_nu' });
    await buildEntitlement(w.db, CN, {
      activationId: 'IDEM-WEBN-LINE',
      licenseModel: 'Named User',
      partNumber: 'IDEM-WEBN',
      quantity: 50,
      startDate: dayFromToday(-10),
      endDate: dayFromToday(300),
    });
    return 'IDEM-WEBN';
  })();
  return webNamedPool;
};
/** A person of Acme's directory holding a direct seat of the named pool: the seat's body. */
const webSeat = async (w: World) => {
  const seat = { customerNumber: CN, partNumber: await webNamed(w), userIds: [await webUser(w)] };
  await w.api.ok(w.boss, webSeatsApi.assign, seat);
  return seat;
};

const retried: Record<string, RetriedCase> = {
  signIn: { prepare: async () => ({}), ignore: ['login_states'] },
  signOut: {
    prepare: async (w) => ({ who: await w.signIn('leaving@acme.example') }),
  },
  revokeApiToken: {
    prepare: async (w) => {
      const created = await w.api.ok(w.boss, apiTokensApi.create, { name: `retry ${newKey()}` });
      return { who: w.boss, params: { id: created.data.id }, body: {} };
    },
  },
  saveTablePrefs: {
    prepare: async (w) => ({
      who: w.boss,
      body: { tables: [{ customerNumber: CN, tableName: 'emailList', dateRange: 'Last 7 days' }] },
    }),
  },
  saveFeatures: { prepare: async (w) => ({ who: w.staff, body: { features: [] } }) },
  editAlert: {
    prepare: async (w) => {
      const created = await w.api.ok(w.staff, alertsApi.create, alertBody);
      return {
        who: w.staff,
        params: { id: created.data.id },
        body: { ...alertBody, description: 'Edited' },
      };
    },
  },
  resolveAlert: {
    prepare: async (w) => {
      const created = await w.api.ok(w.staff, alertsApi.create, alertBody);
      return { who: w.staff, params: { id: created.data.id } };
    },
  },
  deleteEmail: {
    prepare: async (w) => {
      await w.api.call(w.boss, statementsApi.emailWeek, statementBody('2026-03-17T10:00:00.000Z'));
      const [{ id }] = await queryRows<{ id: number }>(
        w.db,
        sql`select max(id)::int as id from emails where customer_number = ${CN}`,
      );
      return { who: w.staff, params: { id } };
    },
    again: 404,
  },
  setPortalAccess: {
    prepare: async (w) => {
      const current = (await w.api.ok(w.busops, portalAccessApi.get, { customerNumber: CN })).data;
      const added = { email: `new-${newKey()}@acme.example`, role: contactRoles.viewer };
      return {
        who: w.busops,
        body: { customerNumber: CN, oldContacts: current, newContacts: [...current, added] },
      };
    },
    // The contacts it was sent against are no longer the stored ones: refused, nothing changed.
    again: 409,
  },
  setIpRules: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, clsId: CLS, whitelist: [{ rulename: 'HQ', ipaddress: '203.0.113.0/24' }] },
    }),
  },
  saveWebPoolPolicy: {
    prepare: async (w) => {
      await buildProduct(w.db, 'IDEM-WEB', { name: 'Solver - Named User', featureName: 'web_solver' });
      await buildEntitlement(w.db, CN, {
        activationId: 'IDEM-WEB-LINE',
        licenseModel: 'Named User',
        partNumber: 'IDEM-WEB',
        quantity: 5,
        startDate: dayFromToday(-10),
        endDate: dayFromToday(300),
      });
      const policy = { heartbeatWindowSeconds: 120, idleTimeoutSeconds: 600, sessionsPerUser: 2 };
      return { who: w.boss, body: { customerNumber: CN, partNumber: 'IDEM-WEB', policy } };
    },
  },
  assignWebSeats: {
    prepare: async (w) => ({
      who: w.boss,
      body: {
        customerNumber: CN,
        partNumber: await webNamed(w),
        userIds: [await webUser(w), await webUser(w)],
      },
    }),
  },
  unassignWebSeats: { prepare: async (w) => ({ who: w.boss, body: await webSeat(w) }) },
  transferWebSeat: {
    prepare: async (w) => {
      const { partNumber, userIds } = await webSeat(w);
      return {
        who: w.boss,
        body: { customerNumber: CN, partNumber, fromUserId: userIds[0], toUserId: await webUser(w) },
      };
    },
  },
  setWebGroupPools: {
    prepare: async (w) => {
      const groupId = await webGroup(w);
      await w.api.ok(w.boss, webDirectoryApi.setMembers, {
        customerNumber: CN,
        groupId,
        userIds: [await webUser(w)],
      });
      return { who: w.boss, body: { customerNumber: CN, groupId, partNumbers: [await webNamed(w)] } };
    },
  },
  saveWebGroupTerms: {
    prepare: async (w) => {
      await webProduct(w);
      const terms = [{ groupId: await webGroup(w), guaranteed: 1, cap: 2 }];
      return { who: w.boss, body: { customerNumber: CN, partNumber: 'IDEM-WEBS', terms } };
    },
  },
  webCheckout: {
    prepare: async (w) => ({
      who: await webProduct(w),
      body: { ...(await webCheckoutBody(w)), operationKey: key() },
    }),
  },
  webHeartbeat: {
    prepare: async (w) => {
      const { product, leaseId } = await webLease(w);
      return { who: product, body: { leaseId, active: true } };
    },
    // A heartbeat's time is the call's own: each one moves the lease's deadline.
    ignore: ['web_leases'],
  },
  webRelease: {
    prepare: async (w) => {
      const { product, leaseId } = await webLease(w);
      return { who: product, body: { leaseId } };
    },
  },
  releaseWebSession: {
    prepare: async (w) => {
      const { leaseId } = await webLease(w);
      return { who: w.boss, body: { customerNumber: CN, leaseId } };
    },
  },
  inviteWebUsers: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, source: 'manual', users: [{ email: `invite-${newKey()}@acme.example` }] },
    }),
  },
  importWebUsersCsv: {
    prepare: async (w) => ({
      who: w.boss,
      body: {
        customerNumber: CN,
        csv: `email,name,groups\ncsv-${newKey()}@acme.example,Csv,Retry ${newKey()}`,
      },
    }),
  },
  updateWebUser: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, userId: await webUser(w), name: 'Renamed', state: 'suspended' },
    }),
  },
  removeWebUsers: {
    prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, userIds: [await webUser(w)] } }),
  },
  createWebGroup: {
    prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, name: `Group ${newKey()}` } }),
    // The name is taken by the first call's group: refused, nothing changed.
    again: 409,
  },
  renameWebGroup: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, groupId: await webGroup(w), name: `Renamed ${newKey()}` },
    }),
  },
  deleteWebGroup: {
    prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, groupId: await webGroup(w) } }),
    again: 404,
  },
  setWebGroupMembers: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, groupId: await webGroup(w), userIds: [await webUser(w), await webUser(w)] },
    }),
  },
  generateLicense: { prepare: async (w) => ({ who: w.boss, body: lease }) },
  generateLicenses: {
    prepare: async (w) => ({
      who: w.boss,
      body: { hostId: HOST, hostIdType: 'ETHERNET', customers: [{ customerNumber: CN }] },
    }),
  },
  downloadLicense: { prepare: async (w) => ({ who: w.boss, body: lease }) },
  generatePin: { prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, clsId: CLS } }) },
  changePin: {
    prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, clsId: CLS, pin: '246813' } }),
  },
  saveAllowedUsers: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, clsId: CLS, users: ['alice', 'bob'] },
    }),
  },
  postServerUsage: {
    prepare: async (w) => ({
      who: w.server,
      body: {
        events: usageEvents([
          { product: 'Solver', start: '2026-03-02T08:00:00Z', end: '2026-03-02T09:00:00Z', user: 'retry' },
        ]),
      },
    }),
  },
  revokeScimToken: {
    prepare: async (w) => {
      const { data } = await w.api.ok(w.boss, scimApi.issue, { customerNumber: CN, name: 'Retried' });
      return { who: w.boss, body: { customerNumber: CN, id: data.id } };
    },
  },
  revokeServerCredential: {
    prepare: async (w) => {
      const { id } = await issueServerCredential(w.db, {
        customerNumber: CN,
        elasticServerId: CLS,
        createdBy: 'test',
      });
      return { who: w.staff, params: { id } };
    },
    again: 404,
  },
  setNoticeChoices: {
    prepare: async (w) => ({
      who: w.boss,
      body: { customerNumber: CN, expiryDays: [30], usagePercents: [80], runOut: true },
    }),
  },
  setNoticeTypes: {
    prepare: async (w) => ({ who: w.boss, body: { customerNumber: CN, disabledTypes: ['lease-ending'] } }),
  },
  setLicenseServerSettings: {
    prepare: async (w) => ({
      who: w.boss,
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
    prepare: async (w) => ({
      who: w.boss,
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
    prepare: async (w) => {
      const host = { customerNumber: CN, hostId: HOST, hostIdType: 'ETHERNET' };
      await w.api.ok(w.boss, licenseServersApi.setSharedGroup, { ...host, group: [CN, SISTER] });
      return { who: w.boss, body: { ...host, operationKey: key() } };
    },
  },
  removeLicenseServer: {
    prepare: async (w) => {
      const host = newHost();
      const id = await w.activate(CN, host, 'IDEM-LEASE', 1);
      await w.api.ok(w.boss, activationsApi.return, {
        customerNumber: CN,
        activations: [{ id, count: -1 }],
      });
      return {
        who: w.boss,
        body: { customerNumber: CN, hostId: host, hostIdType: 'ETHERNET', operationKey: key() },
      };
    },
  },
  returnFulfillments: {
    prepare: async (w) => {
      const id = await w.activate(CN, newHost(), 'IDEM-LEASE', 2);
      return {
        who: w.boss,
        body: { customerNumber: CN, activations: [{ id, count: -1 }], operationKey: key() },
      };
    },
  },
  createFulfillments: {
    prepare: async (w) => ({
      who: w.boss,
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
    prepare: async (w) => ({
      who: w.boss,
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
const schemaOf = new WeakMap<World, ReturnType<typeof tableColumns>>();
async function tables(w: World, ignore: string[] = []) {
  const run = (text: string) => queryRows<Record<string, unknown>>(w.db, sql.raw(text));
  // The cases write rows, never tables: the list is read once per world.
  if (!schemaOf.has(w)) schemaOf.set(w, tableColumns(run));
  const skipped = new Set(
    ['audit_entries', 'audit_chain_heads', 'sessions', ...ignore].map((t) => `public.${t}`),
  );
  const bookkeeping = /^(id|updated_at)$|_cipher$/;
  return tableSnapshot(
    run,
    (await schemaOf.get(w)!)
      .filter(({ name }) => !skipped.has(name))
      .map(({ name, columns }) => ({ name, columns: columns.filter((c) => !bookkeeping.test(c)) })),
  );
}

describe('the writes retried without a header key', () => {
  test('every idempotent or body-keyed write of the catalogue has a case here', () => {
    expect(retriedWrites.map((op) => op.operationId).sort()).toEqual(Object.keys(retried).sort());
  });

  test.for(retriedWrites.map((op) => [op.operationId, op] as const))(
    '%s sent again after its answer was lost changes nothing more',
    async ([id, op], { world: w }) => {
      const c = retried[id];
      const { who = anonymous, body, params } = await c.prepare(w);
      const sent = op.body ? (body ?? {}) : undefined;
      const again = () => w.api.call(who, op, op.params ? { params, body: sent } : sent);
      const first = await again();
      expect(first.statusCode, first.body).toBeLessThan(400);
      const after = await tables(w, c.ignore);
      const second = await again();
      expect(second.statusCode, second.body).toBe(c.again ?? first.statusCode);
      const now = await tables(w, c.ignore);
      const changed = Object.keys(now).filter((name) => now[name].hash !== after[name]?.hash);
      expect(changed).toEqual([]);
    },
  );
});
