import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  usageEvents,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { queryRows } from '../../db/database.ts';
import { accounts, ipRules } from '../../db/schema.ts';
import { reconcile } from '../ledger/service.ts';

const CN = '5200001';
const OTHER = '5200002';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let clsId: string;
let busops: Headers;
let support: Headers;
let customer: Headers;
let token: string;
let activationId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const db = database.db;
  await buildRateTable(db, '2025.1.0', { Solver: 2, Mesher: 0.5 });
  await buildAccount(db, { customerNumber: CN, name: 'Acme' });
  await buildAccount(db, { customerNumber: OTHER, name: 'Other' });
  clsId = await buildElasticServer(db, CN);
  await buildElasticServer(db, OTHER, 'OTHER-CLS');
  activationId = (
    await buildElasticEntitlement(db, CN, { quantity: 100, startDate: '2020-01-01', endDate: '2099-12-31' })
  ).activationId;
  await db
    .insert(ipRules)
    .values({ customerNumber: CN, clsId, position: 0, ruleName: 'HQ', ipAddress: '203.0.113.0/24' });
  await addContact(db, CN, 'admin@acme.example', contactRoles.admin);
  busops = (await signInAs(db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  support = (await signInAs(db, 'help@vendor.example', { vendorRoles: ['support'] })).headers;
  customer = (await signInAs(db, 'admin@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('server credentials', () => {
  it('busops issue a credential; customers and view-only support staff may not (decision 022)', async () => {
    for (const headers of [customer, support]) {
      const denied = await app.inject({
        method: 'POST',
        url: '/api/cls/credentials',
        headers,
        payload: { customerNumber: CN, clsId },
      });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().err).toBe(messages.noPermission);
    }
    expect(await queryRows(database.db, sql`select id from cls_credentials`)).toEqual([]);
    const wrongServer = await app.inject({
      method: 'POST',
      url: '/api/cls/credentials',
      headers: busops,
      payload: { customerNumber: CN, clsId: 'OTHER-CLS' },
    });
    expect(wrongServer.statusCode).toBe(404);
    const issued = await app.inject({
      method: 'POST',
      url: '/api/cls/credentials',
      headers: busops,
      payload: { customerNumber: CN, clsId },
    });
    expect(issued.statusCode).toBe(200);
    token = issued.json().data.token;
    expect(token).toMatch(/^cls_[\w-]{43}$/);
    const stored = await queryRows<{ token_hash: string }>(
      database.db,
      sql`select token_hash from cls_credentials`,
    );
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const list = await app.inject({
      method: 'GET',
      url: `/api/cls/credentials?customerNumber=${CN}`,
      headers: busops,
    });
    expect(list.json().data).toEqual([
      expect.objectContaining({ clsId, createdBy: 'ops@vendor.example', revokedAt: null }),
    ]);
  });

  it('refuses requests without a valid credential with 401 and nothing else', async () => {
    for (const headers of [{}, bearer('cls_nope'), bearer('lp_x'), { authorization: 'Basic abc' }]) {
      const res = await app.inject({ method: 'GET', url: '/cls/v1/policy', headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
    }
  });
});

describe('GET /cls/v1/policy', () => {
  it('serves PIN, users, IP rules and priced products with an ETag that answers 304 until something changes', async () => {
    const first = await app.inject({ method: 'GET', url: '/cls/v1/policy', headers: bearer(token) });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      status: 'SUCCESS',
      clsId,
      alias: `${CN}-cls`,
      pin: null,
      users: [],
      ipRules: [{ ruleName: 'HQ', ipAddress: '203.0.113.0/24' }],
      products: ['Mesher', 'Solver'],
      rateTableVersion: '2025.1.0',
    });
    const etag = first.headers.etag as string;
    const again = await app.inject({
      method: 'GET',
      url: '/cls/v1/policy',
      headers: { ...bearer(token), 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The customer restricts usernames on the credentials page: the next poll sees a new policy.
    const saved = await app.inject({
      method: 'POST',
      url: '/api/saveUsers',
      headers: customer,
      payload: { clsId, customerNumber: CN, users: ['alice'] },
    });
    expect(saved.statusCode).toBe(200);
    const changed = await app.inject({
      method: 'GET',
      url: '/cls/v1/policy',
      headers: { ...bearer(token), 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().users).toEqual(['alice']);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('POST /cls/v1/usage', () => {
  it('rates a batch, keeps good events, reports bad ones by index, and replays change nothing', async () => {
    const events = usageEvents([
      { product: 'Solver', count: 2, start: '2026-01-05T08:00:00Z', end: '2026-01-05T10:00:00Z' },
      { product: 'Mesher', start: '2026-01-05T08:00:00Z', end: null, seen: '2026-01-05T12:00:00Z' },
    ]);
    const payload = { events: [...events, { type: 'start' }] };
    const res = await app.inject({ method: 'POST', url: '/cls/v1/usage', headers: bearer(token), payload });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      accepted: 4,
      rejected: [{ index: 4, reason: expect.stringMatching(/^sessionId: /) }],
    });
    for (let i = 0; i < 3; i++)
      await app.inject({ method: 'POST', url: '/cls/v1/usage', headers: bearer(token), payload });
    const [r] = await reconcile(database.db, CN);
    expect([r.sessions, r.drawn, r.overage, r.balanced]).toEqual([10, 10, 0, true]);
    const sessions = await queryRows<{ server_id: string; customer_number: string }>(
      database.db,
      sql`select server_id, customer_number from usage_sessions`,
    );
    expect(sessions).toEqual([
      { server_id: clsId, customer_number: CN },
      { server_id: clsId, customer_number: CN },
    ]);
  });

  it('answers 400 for a malformed body and 413 for an oversized one', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/cls/v1/usage',
      headers: bearer(token),
      payload: { events: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe('FAILURE');
    const empty = await app.inject({
      method: 'POST',
      url: '/cls/v1/usage',
      headers: bearer(token),
      payload: { events: [] },
    });
    expect(empty.statusCode).toBe(400);
    const huge = await app.inject({
      method: 'POST',
      url: '/cls/v1/usage',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: `{"events":["${'x'.repeat(9 * 1024 * 1024)}"]}`,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('stops a revoked credential and an export-blocked account', async () => {
    await database.db
      .update(accounts)
      .set({ exportControlStatus: 'Denied' })
      .where(sql`customer_number = ${CN}`);
    const blocked = await app.inject({ method: 'GET', url: '/cls/v1/policy', headers: bearer(token) });
    expect(blocked.statusCode).toBe(403);
    await database.db.update(accounts).set({ exportControlStatus: '' }).where(sql`customer_number = ${CN}`);
    const [{ id }] = (
      await app.inject({ method: 'GET', url: `/api/cls/credentials?customerNumber=${CN}`, headers: busops })
    ).json().data;
    for (const headers of [customer, support]) {
      const denied = await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers });
      expect(denied.statusCode).toBe(403);
      expect(denied.json().err).toBe(messages.noPermission);
    }
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers: busops })).statusCode,
    ).toBe(200);
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers: busops })).statusCode,
    ).toBe(404);
    const revoked = await app.inject({ method: 'GET', url: '/cls/v1/policy', headers: bearer(token) });
    expect(revoked.statusCode).toBe(401);
  });
});

describe('POST /api/elastic/adjustments', () => {
  const adjust = (headers: Headers, payload: object) =>
    app.inject({ method: 'POST', url: '/api/elastic/adjustments', headers, payload });

  it('lets busops credit and debit within the balance and keeps the ledger balanced', async () => {
    expect((await adjust(support, { customerNumber: CN, activationId, amount: -1 })).statusCode).toBe(403);
    expect((await adjust(customer, { customerNumber: CN, activationId, amount: -1 })).statusCode).toBe(403);
    const credit = await adjust(busops, { customerNumber: CN, activationId, amount: -2.5, note: 'goodwill' });
    expect(credit.json()).toEqual({ status: 'SUCCESS', data: { activationId, used: 7.5 } });
    const debit = await adjust(busops, { customerNumber: CN, activationId, amount: 1, product: 'Solver' });
    expect(debit.json().data.used).toBe(8.5);
    const tooMuch = await adjust(busops, { customerNumber: CN, activationId, amount: -100 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().err).toBe("Credit exceeds the entitlement's used amount");
    expect((await adjust(busops, { customerNumber: CN, activationId, amount: 1000 })).json().err).toBe(
      "Adjustment exceeds the entitlement's remaining balance",
    );
    expect((await adjust(busops, { customerNumber: CN, activationId: 'nope', amount: 1 })).statusCode).toBe(
      404,
    );
    expect((await adjust(busops, { customerNumber: CN, activationId, amount: 'x' })).statusCode).toBe(400);
    const [r] = await reconcile(database.db, CN);
    expect([r.adjustments, r.entitlementUsed, r.balanced]).toEqual([-1.5, 8.5, true]);
  });
});
