import { randomUUID } from 'node:crypto';
import { accountsApi } from '@lp/contract/accounts/api';
import { apiCatalogue } from '@lp/contract/api-catalogue';
import { messages } from '@lp/contract/common/errors';
import type { Operation } from '@lp/contract/common/operation';
import { transactionsApi } from '@lp/contract/transactions/api';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
  usageEvents,
} from '../../harness/elastic-factories.ts';
import { buildAccount } from '../../harness/factories.ts';
import { apiTest, bearer } from '../../test/api-fixture.ts';
import { queryRows } from '../db/database.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/* Decision 059: a field a call does not declare is refused with 400 naming it, before the call does anything. */

const CN = '5900001';
const clsId = 'CLS-STRICT';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A path parameter value its declaration takes (ids are numbers or UUIDs, accounts are account numbers). */
function pathOf(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const schema = op.params?.shape[name] as { safeParse(v: unknown): { success: boolean } } | undefined;
    const value = ['1', randomUUID(), CN].find((v) => schema?.safeParse(v).success);
    if (!value) throw new Error(`${op.operationId}: no test value for path parameter ${name}`);
    return value;
  });
}

const test = apiTest
  /** Passes every guard (alert staff, busops-only calls), so the only refusal left is the body's. */
  .extend('staff', { scope: 'file' }, async ({ signIn }) =>
    signIn('ops@vendor.example', { vendorRoles: ['busops', 'admin'] }),
  )
  .extend('calls', { scope: 'file' }, async ({ app, database, staff }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Solver: 2 });
    await buildAccount(db, { customerNumber: CN, name: 'Strict Input' });
    await buildElasticServer(db, CN, clsId);
    await buildElasticEntitlement(db, CN, { quantity: 1e6, startDate: '2020-01-01', endDate: '2099-12-31' });
    const server = bearer(
      (await issueServerCredential(db, { customerNumber: CN, elasticServerId: clsId, createdBy: 'test' }))
        .token,
    );
    return {
      /**
       * Any declared call as it stands, with this payload and query string as written (a stray field is what
       * these tests send), by staff or, for the license-server calls, the server.
       */
      send: (op: Operation, payload?: unknown, query = '') =>
        app.inject({
          method: op.method.toUpperCase() as Method,
          url: `${pathOf(op)}${query}`,
          headers: (op.auth === 'server-credential' ? server : staff).headers,
          ...(payload !== undefined && { payload: payload as object }),
        }),
      /** Rows of every table: a refused call must leave each as it was. */
      tableCounts: async (): Promise<Record<string, number>> => {
        const tables = await queryRows<{ name: string }>(
          db,
          sql`select table_name as name from information_schema.tables
              where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
        );
        const counts = await queryRows<{ name: string; n: number }>(
          db,
          sql.join(
            tables.map(
              ({ name }) => sql`select ${name} as name, count(*)::int as n from ${sql.identifier(name)}`,
            ),
            sql` union all `,
          ),
        );
        return Object.fromEntries(counts.map(({ name, n }) => [name, Number(n)]));
      },
    };
  })
  /** The usage page with these fields besides the account, as written (a misspelled one is what tests send). */
  .extend('fetchUsage', { scope: 'file' }, async ({ api, staff }) => {
    return (body: object) => api.call(staff, transactionsApi.page, { customerNumber: CN, ...body });
  });

const refusal = (names: string) => ({
  status: 'FAILURE',
  code: 'BAD_REQUEST',
  err: `Invalid request: ${names}: ${names.includes(', ') ? 'unknown fields' : 'unknown field'}`,
});

describe('every declared call refuses fields it does not declare', () => {
  test('a body field no call declares is refused with 400 naming it, and nothing is written', async ({
    calls: { send, tableCounts },
  }) => {
    const withBody = apiCatalogue.filter((op) => op.body);
    expect(withBody.length).toBeGreaterThan(70);
    const before = await tableCounts();
    for (const op of withBody) {
      // Only the stray field: its name is what the answer must give, ahead of the required fields it lacks.
      const res = await send(op, { notDeclared: 1 });
      expect(res.statusCode, `${op.operationId}: ${res.body}`).toBe(400);
      expect(res.json(), op.operationId).toEqual(refusal('notDeclared'));
    }
    expect(await tableCounts()).toEqual(before);
  });

  test('a call that takes no body refuses one; a call that takes no query string (other than a GET) refuses one', async ({
    calls: { send, tableCounts },
  }) => {
    const noBody = apiCatalogue.filter((op) => !op.body && op.method !== 'get' && !op.form);
    expect(noBody.map((op) => op.operationId).sort()).toEqual(
      expect.arrayContaining(['deleteEmail', 'resolveAlert', 'revokeServerCredential', 'signOut']),
    );
    const before = await tableCounts();
    for (const op of noBody) {
      const res = await send(op, { reason: 'tidy up', id: 7 });
      expect(res.statusCode, `${op.operationId}: ${res.body}`).toBe(400);
      expect(res.json(), op.operationId).toEqual(refusal('reason, id'));
      const list = await send(op, ['tidy up']);
      expect(list.statusCode, `${op.operationId}: ${list.body}`).toBe(400);
      expect(list.json().err).toBe('Invalid request: body: this call takes no body');
    }
    for (const op of apiCatalogue.filter((o) => !o.query && o.method !== 'get')) {
      const res = await send(op, op.body ? {} : undefined, '?from=2026-01-01');
      expect(res.statusCode, `${op.operationId}: ${res.body}`).toBe(400);
      expect(res.json(), op.operationId).toEqual(refusal('from'));
    }
    expect(await tableCounts()).toEqual(before);
  });

  test('a declared query string refuses parameters it does not declare; GETs without one ignore theirs', async ({
    app,
    calls: { send },
  }) => {
    const lastUpdated = apiCatalogue.find((op) => op.operationId === 'getLastUpdatedOn') as Operation;
    const misspelled = await send(lastUpdated, undefined, `?accountid=${CN}`);
    expect(misspelled.statusCode).toBe(400);
    expect(misspelled.json()).toEqual(refusal('accountid'));
    expect((await send(lastUpdated, undefined, `?accountId=${CN}`)).statusCode).toBe(200);
    // A cache-buster on a GET that declares no query string changes nothing.
    const buildInfo = apiCatalogue.find((op) => op.operationId === 'getBuildInfo') as Operation;
    expect((await send(buildInfo, undefined, '?_=1732600000000')).statusCode).toBe(200);
    // The IdP's own parameters on the sign-in callback are the protocol's, not the portal's to refuse.
    const callback = await app.inject(
      `${operation('signInCallback').path}?state=x&code=y&iss=https%3A%2F%2Fidp.example`,
    );
    expect(callback.statusCode).toBe(302);
  });
});

describe('the usage call with a misspelled period (issue 22 §5)', () => {
  test.beforeAll(async ({ database, calls: _server }) => {
    await recordUsage(database.db, { customerNumber: CN, elasticServerId: clsId }, [
      { product: 'Solver', start: '2026-03-01T08:00:00Z', end: '2026-03-01T09:00:00Z' },
      { product: 'Solver', start: '2026-03-05T08:00:00Z', end: '2026-03-05T09:00:00Z' },
    ]);
  });

  test('answers 400 naming form and too instead of every date', async ({ fetchUsage }) => {
    const res = await fetchUsage({ form: '2026-03-01', too: '2026-03-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(refusal('form, too'));
    // The call takes its period as a criterion; from/to are no fields of it either.
    expect((await fetchUsage({ from: '2026-03-01', to: '2026-03-01' })).json()).toEqual(refusal('from, to'));
  });

  test('a misspelled criterion or sort field is named with its place', async ({ fetchUsage }) => {
    const criterion = await fetchUsage({
      filter: {
        condition: 'ALL',
        criteria: [
          { name: 'StartTime', method: 'DATERANGE', value: ['2026-03-01', '2026-03-01'], casefolds: true },
        ],
      },
    });
    expect(criterion.json()).toEqual(refusal('filter.criteria.0.casefolds'));
    const sorting = await fetchUsage({ sorting: { name: 'StartTime', dir: 'desc' } });
    expect(sorting.json()).toEqual(refusal('sorting.dir'));
  });

  test('the period as the call declares it selects that day only', async ({ api, staff }) => {
    const { data } = await api.ok(staff, transactionsApi.page, {
      customerNumber: CN,
      filter: {
        condition: 'ALL',
        criteria: [
          {
            name: 'StartTime',
            method: 'DATERANGE',
            value: ['2026-03-01 00:00:00', '2026-03-01 23:59:59.999'],
          },
        ],
      },
    });
    expect(data.map((r) => r.StartTime)).toEqual(['2026-03-01 08:00:00']);
  });
});

/** Writes with a valid body each: the same body with one more field must change nothing. */
const writes: { operationId: string; body: () => Record<string, unknown> }[] = [
  {
    operationId: 'setIpRules',
    body: () => ({ customerNumber: CN, clsId, whitelist: [{ rulename: 'HQ', ipaddress: '203.0.113.0/24' }] }),
  },
  {
    operationId: 'saveTablePrefs',
    body: () => ({ tables: [{ customerNumber: CN, tableName: 'emailList' }] }),
  },
  { operationId: 'changePin', body: () => ({ clsId, customerNumber: CN, pin: '246802' }) },
  { operationId: 'saveAllowedUsers', body: () => ({ clsId, customerNumber: CN, users: ['alice'] }) },
  {
    operationId: 'createAlert',
    body: () => ({ category: 'INFO', service: ['Portal'], description: 'Upgrade' }),
  },
  {
    operationId: 'setNoticeChoices',
    body: () => ({ customerNumber: CN, expiryDays: [30], usagePercents: [80], runOut: true }),
  },
  { operationId: 'createApiToken', body: () => ({ name: 'nightly report' }) },
  { operationId: 'issueServerCredential', body: () => ({ customerNumber: CN, clsId }) },
  {
    operationId: 'postServerUsage',
    body: () => ({
      events: usageEvents([
        {
          product: 'Solver',
          start: new Date(Date.now() - 7_200_000).toISOString(),
          end: new Date().toISOString(),
        },
      ]),
    }),
  },
];
const operation = (id: string) => apiCatalogue.find((op) => op.operationId === id) as Operation;

// Keys a JSON body can carry that no write declares (Fastify refuses __proto__ and constructor outright).
const strayKey = fc
  .stringMatching(/^[!-~]{1,24}$/)
  .filter((key) => !['__proto__', 'constructor', 'prototype'].includes(key));

describe('random stray fields on valid bodies', () => {
  test('are refused with 400 naming them, before anything is written', async ({
    calls: { send, tableCounts },
  }) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), strayKey, async (write, key) => {
        const body = write.body();
        fc.pre(!(key in body));
        const before = await tableCounts();
        const res = await send(operation(write.operationId), { ...body, [key]: 'x' });
        expect(res.statusCode, `${write.operationId} ${key}: ${res.body}`).toBe(400);
        expect(res.json()).toEqual(refusal(key));
        expect(await tableCounts()).toEqual(before);
      }),
      { numRuns: 60 },
    );
  });

  test('in a nested object too, named with its place', async ({ calls: { send } }) => {
    await fc.assert(
      fc.asyncProperty(strayKey, async (key) => {
        fc.pre(!['rulename', 'ipaddress'].includes(key));
        const body = writes[0].body() as { whitelist: object[] };
        const res = await send(operation('setIpRules'), {
          ...body,
          whitelist: [...body.whitelist, { rulename: 'Lab', ipaddress: '198.51.100.7', [key]: true }],
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual(refusal(`whitelist.1.${key}`));
      }),
      { numRuns: 30 },
    );
  });

  test('the same bodies without the stray field are accepted (so the stray field alone was refused)', async ({
    calls: { send },
  }) => {
    for (const write of writes) {
      const res = await send(operation(write.operationId), write.body());
      expect(res.statusCode, `${write.operationId}: ${res.body}`).toBe(200);
    }
  });
});

describe('usage events from a license server', () => {
  test('an event with a field the API does not declare is rejected by index, naming it; the others are kept', async ({
    calls: { send },
  }) => {
    const [start, end] = usageEvents([
      {
        product: 'Solver',
        start: new Date(Date.now() - 7_200_000).toISOString(),
        end: new Date().toISOString(),
      },
    ]);
    const res = await send(operation('postServerUsage'), { events: [start, { ...end, exitCode: 0 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [{ index: 1, reason: expect.stringContaining('exitCode') }],
    });
  });
});

describe("fields the spec's clients send are declared, and accepted though not read", () => {
  test('AG Grid column state, the generic data service sorting accounts, new activations carrying their row', async ({
    api,
    staff,
    calls: { send },
  }) => {
    const prefs = await send(operation('saveTablePrefs'), {
      tables: [
        {
          customerNumber: CN,
          tableName: 'emailList',
          filterModel: { subject: { filterType: 'text', type: 'contains', filter: 'licence' } },
          sortModel: [{ colId: 'date', sort: 'desc', sortIndex: 0 }],
          columnOrder: [
            {
              colId: 'date',
              width: 180,
              hide: false,
              pinned: null,
              sort: 'desc',
              sortIndex: 0,
              aggFunc: null,
              rowGroup: false,
              rowGroupIndex: null,
              pivot: false,
              pivotIndex: null,
              flex: null,
            },
          ],
        },
      ],
    });
    expect(prefs.statusCode, prefs.body).toBe(200);

    const accounts = await api.ok(staff, accountsApi.page, {
      filter: {
        condition: 'ANY',
        criteria: [{ name: 'AccountID', method: 'CONTAINS', value: CN, casefold: true }],
      },
      sorting: [{ name: 'AccountID', direction: 'asc' }],
      offset: 0,
      limit: 100,
    });
    expect(accounts.data).toEqual([{ AccountID: CN, AccountName: 'Strict Input' }]);
    const distinct = await send(operation('distinctAccounts'), { key: 'AccountName', limit: 500 });
    expect(distinct.statusCode, distinct.body).toBe(200);

    // Past validation: the account has no leases to activate, so the create is refused there, its fields accepted.
    const create = await send(operation('createFulfillments'), {
      customerNumber: CN,
      customerName: 'Strict Input',
      time: new Date().toISOString(),
      action: 'EDIT',
      serverName: 'strict-host',
      serverId: '0a1b2c3d4e5f',
      serverIdType: 'ETHERNET',
      activations: [
        {
          id: 'NO-SUCH-ACTIVATION',
          count: 1,
          customer: CN,
          ansysproduct: 'Solver',
          startdate: '2026-01-01',
          enddate: '2026-12-31',
          ansysborrowable: false,
        },
      ],
    });
    expect(create.statusCode).toBe(403);
    expect(create.json()).toMatchObject({
      status: 'FAILURE',
      err: messages.noPermission,
    });
  });
});
