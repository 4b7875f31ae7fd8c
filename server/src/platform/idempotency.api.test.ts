import { alertsApi } from '@lp/contract/alerts/api';
import { apiCatalogue } from '@lp/contract/api-catalogue';
import { clsApi } from '@lp/contract/cls/api';
import { IDEMPOTENCY_KEY_HEADER, type Operation, operationUrl } from '@lp/contract/common/operation';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { statementsApi } from '@lp/contract/statements/api';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { buildElasticEntitlement, buildElasticServer } from '../../harness/elastic-factories.ts';
import { buildLease } from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { buildAccountFixture, signInStaff } from '../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { accounts, alerts, elasticLedger, emails, operationKeys, products } from '../db/schema.ts';

/*
 * Decision 064: every write the web client retries is safe to retry. The catalogue says what each call does when
 * sent twice; here every keyed write whose key travels in the Idempotency-Key header is sent, its answer "lost"
 * and sent again with the same key, and must have been applied once. Keyed writes with their spec's own body key
 * (operationKey, orderKey) are proven by their features' tests; writes that are `once` by the client's unit test
 * (web/src/lib/call.test.ts), which holds that they are never retried.
 */

const CN = '5300001';
const OTHER = '5300002';
const CLS = 'CLS-IDEM-1';
const HOST = 'ab0000000064';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let busops: Headers;
let support: Headers;
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
});

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
