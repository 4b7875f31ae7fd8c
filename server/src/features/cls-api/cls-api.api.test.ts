import { clsApi } from '@lp/contract/cls/api';
import { messages } from '@lp/contract/common/errors';
import { credentialsApi } from '@lp/contract/credentials/api';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  usageEvents,
} from '../../../harness/elastic-factories.ts';
import { acme, anonymous, apiTest, bearer, type Caller, other } from '../../../test/api-fixture.ts';
import { queryRows } from '../../db/database.ts';
import { accounts, ipRules } from '../../db/schema.ts';
import { reconcile } from '../ledger/service.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const STAFF = 'busops@vendor.example';

const test = apiTest
  /** Acme's elastic server (with an IP rule) and entitlement, Other's server: the cast first, their accounts. */
  .extend('elastic', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Solver: 2, Mesher: 0.5 });
    const clsId = await buildElasticServer(db, CN);
    await buildElasticServer(db, OTHER, 'OTHER-CLS');
    const { activationId } = await buildElasticEntitlement(db, CN, {
      quantity: 100,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    });
    await db.insert(ipRules).values({
      customerNumber: CN,
      elasticServerId: clsId,
      position: 0,
      ruleName: 'HQ',
      ipAddress: '203.0.113.0/24',
    });
    return { clsId, activationId };
  });

/** The credential the first test issues; the later ones call as that server. */
let server: Caller;

describe('server credentials', () => {
  test('busops issue a credential; customers and view-only support staff may not (decision 022)', async ({
    api,
    database,
    cast: { boss, support, busops },
    elastic: { clsId },
  }) => {
    for (const who of [boss, support]) {
      const denied = await api.refused(who, clsApi.issueCredential, { customerNumber: CN, clsId }, 403);
      expect(denied.err).toBe(messages.noPermission);
    }
    expect(await queryRows(database.db, sql`select id from cls_credentials`)).toEqual([]);
    await api.refused(busops, clsApi.issueCredential, { customerNumber: CN, clsId: 'OTHER-CLS' }, 404);
    const { token } = (await api.ok(busops, clsApi.issueCredential, { customerNumber: CN, clsId })).data;
    server = bearer(token);
    expect(token).toMatch(/^cls_[\w-]{43}$/);
    const stored = await queryRows<{ token_hash: string }>(
      database.db,
      sql`select token_hash from cls_credentials`,
    );
    expect(stored.map((r) => r.token_hash)).not.toContain(token);
    const list = await api.ok(busops, clsApi.listCredentials, { query: { customerNumber: CN } });
    expect(list.data).toEqual([expect.objectContaining({ clsId, createdBy: STAFF, revokedAt: null })]);
  });

  test("customers may not list the account's server credentials", async ({ api, cast: { boss } }) => {
    const denied = await api.refused(boss, clsApi.listCredentials, { query: { customerNumber: CN } }, 403);
    expect(denied).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
  });

  test('refuses requests without a valid credential with 401 and nothing else', async ({ api }) => {
    const basic = { ...anonymous, headers: { authorization: 'Basic abc' } };
    for (const who of [anonymous, bearer('cls_nope'), bearer('lp_x'), basic]) {
      const res = await api.refused(who, clsApi.policy, undefined, 401);
      expect(res).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
    }
  });
});

describe('GET /cls/v1/policy', () => {
  test('serves PIN, users, IP rules and priced products with an ETag that answers 304 until something changes', async ({
    api,
    cast: { boss },
    elastic: { clsId },
  }) => {
    const first = await api.call(server, clsApi.policy);
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
    const again = await api.call(server, clsApi.policy, undefined, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The customer restricts usernames on the credentials page: the next poll sees a new policy.
    await api.ok(boss, credentialsApi.saveUsers, { clsId, customerNumber: CN, users: ['alice'] });
    const changed = await api.call(server, clsApi.policy, undefined, { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().users).toEqual(['alice']);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('POST /cls/v1/usage', () => {
  test('rates a batch, keeps good events, reports bad ones by index, and replays change nothing', async ({
    api,
    database,
    elastic: { clsId },
  }) => {
    const events = usageEvents([
      { product: 'Solver', count: 2, start: '2026-01-05T08:00:00Z', end: '2026-01-05T10:00:00Z' },
      { product: 'Mesher', start: '2026-01-05T08:00:00Z', end: null, seen: '2026-01-05T12:00:00Z' },
    ]);
    const payload = { events: [...events, { type: 'start' }] };
    expect(await api.ok(server, clsApi.usage, payload)).toEqual({
      status: 'SUCCESS',
      accepted: 4,
      rejected: [{ index: 4, reason: expect.stringMatching(/^sessionId: /) }],
    });
    for (let i = 0; i < 3; i++) await api.ok(server, clsApi.usage, payload);
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

  test('answers 400 for a malformed body and 413 for an oversized one', async ({ api }) => {
    await api.refused(server, clsApi.usage, { events: 'x' }, 400);
    await api.refused(server, clsApi.usage, { events: [] }, 400);
    const huge = await api.call(server, clsApi.usage, `{"events":["${'x'.repeat(9 * 1024 * 1024)}"]}`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBe(413);
  });

  test('stops a revoked credential and an export-blocked account', async ({
    api,
    database,
    cast: { boss, support, busops },
  }) => {
    await database.db
      .update(accounts)
      .set({ exportControlStatus: 'Denied' })
      .where(sql`customer_number = ${CN}`);
    await api.refused(server, clsApi.policy, undefined, 403);
    await database.db.update(accounts).set({ exportControlStatus: '' }).where(sql`customer_number = ${CN}`);
    const [{ id }] = (await api.ok(busops, clsApi.listCredentials, { query: { customerNumber: CN } })).data;
    for (const who of [boss, support]) {
      const denied = await api.refused(who, clsApi.revokeCredential, { params: { id } }, 403);
      expect(denied.err).toBe(messages.noPermission);
    }
    await api.ok(busops, clsApi.revokeCredential, { params: { id } });
    await api.refused(busops, clsApi.revokeCredential, { params: { id } }, 404);
    await api.refused(server, clsApi.policy, undefined, 401);
  });
});

describe(`${clsApi.adjust.method.toUpperCase()} ${clsApi.adjust.path}`, () => {
  test('lets busops credit and debit within the balance and keeps the ledger balanced', async ({
    api,
    database,
    cast: { boss, support, busops },
    elastic: { activationId },
  }) => {
    await api.refused(support, clsApi.adjust, { customerNumber: CN, activationId, amount: -1 }, 403);
    await api.refused(boss, clsApi.adjust, { customerNumber: CN, activationId, amount: -1 }, 403);
    const credit = await api.ok(busops, clsApi.adjust, {
      customerNumber: CN,
      activationId,
      amount: -2.5,
      note: 'goodwill',
    });
    expect(credit).toEqual({ status: 'SUCCESS', data: { activationId, used: 7.5 } });
    const debit = await api.ok(busops, clsApi.adjust, {
      customerNumber: CN,
      activationId,
      amount: 1,
      product: 'Solver',
    });
    expect(debit.data.used).toBe(8.5);
    const tooMuch = await api.refused(
      busops,
      clsApi.adjust,
      { customerNumber: CN, activationId, amount: -100 },
      400,
    );
    expect(tooMuch.err).toBe("Credit exceeds the entitlement's used amount");
    expect(
      (await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId, amount: 1000 })).err,
    ).toBe("Adjustment exceeds the entitlement's remaining balance");
    await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId: 'nope', amount: 1 }, 404);
    await api.refused(busops, clsApi.adjust, { customerNumber: CN, activationId, amount: 'x' }, 400);
    const [r] = await reconcile(database.db, CN);
    expect([r.adjustments, r.entitlementUsed, r.balanced]).toEqual([-1.5, 8.5, true]);
  });
});
