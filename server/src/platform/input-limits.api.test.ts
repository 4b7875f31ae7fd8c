import { alertsApi } from '@lp/contract/alerts/api';
import { clsApi } from '@lp/contract/cls/api';
import { messages } from '@lp/contract/common/errors';
import { platformApi } from '@lp/contract/platform/api';
import { prefsApi } from '@lp/contract/prefs/api';
import { statementsApi } from '@lp/contract/statements/api';
import { transactionsApi } from '@lp/contract/transactions/api';
import { userApi } from '@lp/contract/user/api';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '../../harness/elastic-factories.ts';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { acme, anonymous, apiOf, apiTest, bearer, type Refusal } from '../../test/api-fixture.ts';
import { createTestDatabase } from '../../test/test-db.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/* Decision 020: input limits, the one date parser, framework errors and database outages in the envelope. */

const CN = acme.customerNumber;
const json = { 'content-type': 'application/json' };

const test = apiTest
  /** Vendor staff who administer alerts. */
  .extend('staff', { scope: 'file' }, async ({ signIn }) =>
    signIn('ops@vendor.example', { vendorRoles: ['busops', 'admin'] }),
  )
  /** Acme's elastic license server (with an entitlement to draw on), calling with its credential. */
  .extend('server', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Solver: 2 });
    const clsId = await buildElasticServer(db, CN, 'CLS-LIMITS');
    await buildElasticEntitlement(db, CN, { quantity: 1e6, startDate: '2020-01-01', endDate: '2099-12-31' });
    return bearer(
      (await issueServerCredential(db, { customerNumber: CN, elasticServerId: clsId, createdBy: 'test' }))
        .token,
    );
  })
  .extend('ingest', { scope: 'file' }, async ({ api, server }) => {
    return (events: unknown[]) => api.call(server, clsApi.usage, { events });
  });

/** The refusal's message is `err` (its status and envelope checked by api.refused). */
const says = async (refusal: Promise<Refusal>, err: string | RegExp) => {
  expect((await refusal).err).toMatch(err);
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

describe('unstorable text', () => {
  test('answers 400 naming the field for NUL in a body, a query, a cookie, for anonymous and signed-in callers', async ({
    api,
    cast: { boss },
    staff,
  }) => {
    await says(
      api.refused(
        boss,
        transactionsApi.page,
        {
          customerNumber: CN,
          filter: { criteria: [{ name: 'User', method: 'EQUALS', value: 'a\u0000' }] },
        },
        400,
      ),
      'Invalid request: body.filter.criteria.0.value: text must not contain NUL characters',
    );
    await says(
      api.refused(staff, clsApi.listCredentials, { query: { customerNumber: '\u0000' } }, 400),
      'Invalid request: query.customerNumber: text must not contain NUL characters',
    );
    // Anonymous: the session cookie is looked up before any route runs.
    await says(
      api.refused(anonymous, userApi.details, undefined, 400, { headers: { cookie: 'lp_session=%00' } }),
      /cookies\.lp_session: text must not contain NUL/,
    );
  });

  test('refuses unpaired surrogates, which PostgreSQL jsonb cannot store', async ({
    api,
    cast: { boss },
  }) => {
    await says(
      api.refused(
        boss,
        prefsApi.save,
        `{"tables":[{"customerNumber":"${CN}","tableName":"emailList","dateRange":"a\\ud800"}]}`,
        400,
        { headers: json },
      ),
      'Invalid request: body.tables.0.dateRange: text must not contain unpaired surrogate characters',
    );
  });

  test('rejects a usage event with NUL by index and keeps the good ones', async ({ ingest }) => {
    const res = await ingest([session({ user: 'bad\u0000' }), session()]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [{ index: 0, reason: 'user: text must not contain NUL characters' }],
    });
  });
});

describe('usage event times', () => {
  test('refuses sessions older than the back-fill window (year 50) and from the future', async ({
    ingest,
  }) => {
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
    category: 'INFO' as const,
    service: ['Portal'],
    description: 'Maintenance',
    date,
  });

  test('refuses impossible calendar dates and year 0 instead of rolling them over', async ({
    api,
    cast: { boss },
    staff,
  }) => {
    for (const date of ['2026-02-30T10:00:00Z', '0000-06-01T00:00:00Z', '2026-02-30'])
      await says(
        api.refused(staff, alertsApi.create, alert(date), 400),
        /^Invalid request: date: expected a real date/,
      );
    await says(
      api.refused(
        boss,
        statementsApi.statement,
        { customerNumber: CN, from: '2026-02-30', to: '2026-03-31' },
        400,
      ),
      'Invalid request: from: expected a real calendar date YYYY-MM-DD (years 0001-9999)',
    );
  });

  test('stores and reads years 1..99 exactly', async ({ api, staff }) => {
    const { data } = await api.ok(staff, alertsApi.create, alert('0050-03-01T00:00:00Z'));
    expect(data.date).toBe('0050-03-01T00:00:00.000Z');
  });
});

describe('JSON nesting and size', () => {
  const nested = (depth: number) => {
    let v: unknown = 'x';
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  test('refuses a saved view nested deeper than 20 levels, even 100 000 levels, without a 500', async ({
    api,
    cast: { boss },
  }) => {
    const pref = (filterModel: unknown) => ({
      tables: [{ customerNumber: CN, tableName: 'emailList', filterModel }],
    });
    await says(api.refused(boss, prefsApi.save, pref(nested(30)), 400), /nested deeper than 20 levels/);
    const deep = `{"tables":[{"customerNumber":"${CN}","tableName":"emailList","filterModel":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]}`;
    await says(
      api.refused(boss, prefsApi.save, deep, 400, { headers: json }),
      /nested deeper than 20 levels/,
    );
  });

  test('refuses a saved view over 64 KB', async ({ api, cast: { boss } }) => {
    const filterModel = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`c${i}`, { values: Array.from({ length: 1000 }, () => 'xx') }]),
    );
    await says(
      api.refused(
        boss,
        prefsApi.save,
        { tables: [{ customerNumber: CN, tableName: 'emailList', filterModel }] },
        400,
      ),
      'Invalid request: tables.0: a saved view must be at most 64 KB',
    );
  });

  test('refuses a query filter nested deeper than 20 levels', async ({ api, cast: { boss } }) => {
    await says(
      api.refused(boss, transactionsApi.page, { customerNumber: CN, filter: nested(40) }, 400),
      /nested deeper than 20 levels/,
    );
  });
});

describe('license-server credential before the body', () => {
  test('answers 401 for a bad token without parsing the body (invalid JSON is not a 400)', async ({
    api,
  }) => {
    await says(
      api.refused(bearer('cls_wrong'), clsApi.usage, '{"events": [ this is not JSON', 401, { headers: json }),
      messages.notSignedIn,
    );
    const big = `{"events":[${Array.from({ length: 5000 }, () => JSON.stringify(session({ project: 'p'.repeat(200) }))).join(',')}]`;
    expect(big.length).toBeGreaterThan(1_000_000);
    await api.refused(anonymous, clsApi.usage, `${big}, broken`, 401, { headers: json });
  });
});

describe('framework errors', () => {
  test('answers in the envelope for bad URL encoding, long path segments, bodies and content types', async ({
    api,
    app,
    cast: { boss },
    staff,
  }) => {
    // A path no client would encode so: sent as written.
    const malformed = clsApi.revokeCredential.path.replace('{id}', '%zz');
    const answer = await app.inject({ method: 'DELETE', url: malformed, headers: staff.headers });
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json()).toMatchObject({ status: 'FAILURE', err: expect.stringMatching('Malformed URL') });
    await api.refused(staff, clsApi.revokeCredential, { params: { id: 'x'.repeat(500) } }, 400);
    await says(
      api.refused(boss, transactionsApi.page, '<x/>', 415, {
        headers: { 'content-type': 'application/xml' },
      }),
      'Unsupported content type',
    );
    await says(
      api.refused(boss, transactionsApi.page, 'x'.repeat(2_000_000), 413, { headers: json }),
      'Request body is too large',
    );
    const patch = await app.inject({
      method: 'PATCH',
      url: transactionsApi.page.path,
      headers: boss.headers,
    });
    expect(patch.statusCode, patch.body).toBe(404);
    expect(patch.json()).toMatchObject({ status: 'FAILURE', err: expect.any(String) });
  });

  test('answers 503 with the envelope when the database cannot be reached', async () => {
    const broken = await createTestDatabase();
    const brokenApp = await createTestApp(broken);
    const someone = {
      email: 'someone@limits.example',
      ...(await signInAs(broken.db, 'someone@limits.example')),
    };
    await broken.close();
    try {
      const api = apiOf(brokenApp);
      await says(api.refused(someone, userApi.details, undefined, 503), messages.databaseUnavailable);
      expect((await api.call(anonymous, platformApi.ready)).statusCode).toBe(503);
    } finally {
      await brokenApp.close();
    }
  });
});
