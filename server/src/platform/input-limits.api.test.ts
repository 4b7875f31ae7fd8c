import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../harness/factories.ts';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/* Decision 020: input limits, the one date parser, framework errors and database outages in the envelope. */

const CN = '5400001';
type Headers = Record<string, string>;
let database: TestDatabase;
let app: FastifyInstance;
let customer: Headers;
let staff: Headers;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const db = database.db;
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  await buildAccount(db, { customerNumber: CN, name: 'Limits' });
  const clsId = await buildElasticServer(db, CN, 'CLS-LIMITS');
  await buildElasticEntitlement(db, CN, { quantity: 1e6, startDate: '2020-01-01', endDate: '2099-12-31' });
  await addContact(db, CN, 'admin@limits.example', contactRoles.admin);
  customer = (await signInAs(db, 'admin@limits.example')).headers;
  staff = (await signInAs(db, 'ops@vendor.example', { vendorRoles: ['busops', 'admin'] })).headers;
  token = (await issueServerCredential(db, { customerNumber: CN, clsId, createdBy: 'test' })).token;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const failure = (res: LightMyRequestResponse, status: number, err?: string | RegExp) => {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.status).toBe('FAILURE');
  expect(typeof body.err).toBe('string');
  if (err) expect(body.err).toMatch(err);
};

const session = (over: Record<string, unknown> = {}) => {
  const start = new Date(Date.now() - 2 * 3_600_000).toISOString();
  return {
    type: 'end',
    sessionId: `s-${Math.random().toString(36).slice(2)}`,
    time: new Date(Date.now() - 3_600_000).toISOString(),
    startTime: start,
    product: 'Solver',
    productCount: 1,
    user: 'alice',
    host: 'node1',
    ...over,
  };
};
const ingest = (events: unknown[]) =>
  app.inject({
    method: 'POST',
    url: '/cls/v1/usage',
    headers: { authorization: `Bearer ${token}` },
    payload: { events },
  });

describe('unstorable text', () => {
  it('answers 400 naming the field for NUL in a body, a query, a cookie, for anonymous and signed-in callers', async () => {
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/fetchUsage',
        headers: customer,
        payload: {
          customerNumber: CN,
          filter: { criteria: [{ name: 'User', method: 'EQUALS', value: 'a\u0000' }] },
        },
      }),
      400,
      'Invalid request: body.filter.criteria.0.value: text must not contain NUL characters',
    );
    failure(
      await app.inject({ method: 'GET', url: '/api/cls/credentials?customerNumber=%00', headers: staff }),
      400,
      'Invalid request: query.customerNumber: text must not contain NUL characters',
    );
    // Anonymous: the session cookie is looked up before any route runs.
    failure(
      await app.inject({ method: 'GET', url: '/api/getUserDetails', headers: { cookie: 'lp_session=%00' } }),
      400,
      /cookies\.lp_session: text must not contain NUL/,
    );
  });

  it('refuses unpaired surrogates, which PostgreSQL jsonb cannot store', async () => {
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/featureflag/pref',
        headers: { ...customer, 'content-type': 'application/json' },
        payload: `{"tables":[{"customerNumber":"${CN}","tableName":"emailList","dateRange":"a\\ud800"}]}`,
      }),
      400,
      'Invalid request: body.tables.0.dateRange: text must not contain unpaired surrogate characters',
    );
  });

  it('rejects a usage event with NUL by index and keeps the good ones', async () => {
    const res = await ingest([session({ user: 'bad\u0000' }), session()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [{ index: 0, reason: 'user: text must not contain NUL characters' }],
    });
  });
});

describe('usage event times', () => {
  it('refuses sessions older than the back-fill window (year 50) and from the future', async () => {
    const res = await ingest([
      session({ startTime: '0050-03-01T00:00:00Z', time: '0050-03-01T01:00:00Z' }),
      session({ startTime: new Date(Date.now() - 401 * 86_400_000).toISOString() }),
      session({ time: new Date(Date.now() + 3_600_000).toISOString() }),
    ]);
    expect(res.json()).toMatchObject({
      accepted: 0,
      rejected: [
        { index: 0, reason: 'startTime: sessions may start at most 400 days ago' },
        { index: 1, reason: 'startTime: sessions may start at most 400 days ago' },
        { index: 2, reason: 'time: event time is in the future' },
      ],
    });
  });
});

describe('dates', () => {
  const alert = (date: string) => ({
    category: 'INFO',
    service: ['Portal'],
    description: 'Maintenance',
    date,
  });

  it('refuses impossible calendar dates and year 0 instead of rolling them over', async () => {
    for (const date of ['2026-02-30T10:00:00Z', '0000-06-01T00:00:00Z', '2026-02-30'])
      failure(
        await app.inject({
          method: 'POST',
          url: '/api/notifications/admin',
          headers: staff,
          payload: alert(date),
        }),
        400,
        /^Invalid request: date: expected a real date/,
      );
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/statements',
        headers: customer,
        payload: { customerNumber: CN, from: '2026-02-30', to: '2026-03-31' },
      }),
      400,
      'Invalid request: from: expected a real calendar date YYYY-MM-DD (years 0001-9999)',
    );
  });

  it('stores and reads years 1..99 exactly', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/notifications/admin',
      headers: staff,
      payload: alert('0050-03-01T00:00:00Z'),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.date).toBe('0050-03-01T00:00:00.000Z');
  });
});

describe('JSON nesting and size', () => {
  const nested = (depth: number) => {
    let v: unknown = 'x';
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it('refuses a saved view nested deeper than 20 levels, even 100 000 levels, without a 500', async () => {
    const pref = (filterModel: unknown) => ({
      tables: [{ customerNumber: CN, tableName: 'emailList', filterModel }],
    });
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/featureflag/pref',
        headers: customer,
        payload: pref(nested(30)),
      }),
      400,
      /nested deeper than 20 levels/,
    );
    const deep = `{"tables":[{"customerNumber":"${CN}","tableName":"emailList","filterModel":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`;
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/featureflag/pref',
        headers: { ...customer, 'content-type': 'application/json' },
        payload: deep,
      }),
      400,
      /nested deeper than 20 levels/,
    );
  });

  it('refuses a saved view over 64 KB', async () => {
    const filterModel = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`c${i}`, { values: Array.from({ length: 1000 }, () => 'xx') }]),
    );
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/featureflag/pref',
        headers: customer,
        payload: { tables: [{ customerNumber: CN, tableName: 'emailList', filterModel }] },
      }),
      400,
      'Invalid request: tables.0: a saved view must be at most 64 KB',
    );
  });

  it('refuses a query filter nested deeper than 20 levels', async () => {
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/fetchUsage',
        headers: customer,
        payload: { customerNumber: CN, filter: nested(40) },
      }),
      400,
      /nested deeper than 20 levels/,
    );
  });
});

describe('license-server credential before the body', () => {
  it('answers 401 for a bad token without parsing the body (invalid JSON is not a 400)', async () => {
    failure(
      await app.inject({
        method: 'POST',
        url: '/cls/v1/usage',
        headers: { authorization: 'Bearer cls_wrong', 'content-type': 'application/json' },
        payload: '{"events": [ this is not JSON',
      }),
      401,
      messages.notSignedIn,
    );
    const big = `{"events":[${Array.from({ length: 5000 }, () => JSON.stringify(session({ project: 'p'.repeat(200) }))).join(',')}]`;
    expect(big.length).toBeGreaterThan(1_000_000);
    failure(
      await app.inject({
        method: 'POST',
        url: '/cls/v1/usage',
        headers: { 'content-type': 'application/json' },
        payload: `${big}, broken`,
      }),
      401,
    );
  });
});

describe('framework errors', () => {
  it('answers in the envelope for bad URL encoding, long path segments, bodies and content types', async () => {
    failure(
      await app.inject({ method: 'DELETE', url: '/api/cls/credentials/%zz', headers: staff }),
      400,
      'Malformed URL',
    );
    failure(
      await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${'x'.repeat(500)}`, headers: staff }),
      400,
    );
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/fetchUsage',
        headers: { ...customer, 'content-type': 'application/xml' },
        payload: '<x/>',
      }),
      415,
      'Unsupported content type',
    );
    failure(
      await app.inject({
        method: 'POST',
        url: '/api/fetchUsage',
        headers: { ...customer, 'content-type': 'application/json' },
        payload: 'x'.repeat(2_000_000),
      }),
      413,
      'Request body is too large',
    );
    failure(await app.inject({ method: 'PATCH', url: '/api/fetchUsage', headers: customer }), 404);
  });

  it('answers 503 with the envelope when the database cannot be reached', async () => {
    const broken = await createTestDatabase();
    const brokenApp = await createTestApp(broken);
    const { headers } = await signInAs(broken.db, 'someone@limits.example');
    await broken.close();
    try {
      failure(
        await brokenApp.inject({ method: 'GET', url: '/api/getUserDetails', headers }),
        503,
        messages.databaseUnavailable,
      );
      expect((await brokenApp.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    } finally {
      await brokenApp.close();
    }
  });
});
