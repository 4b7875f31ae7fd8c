import { clsApi } from '@lp/contract/cls/api';
import { messages } from '@lp/contract/common/errors';
import type { Operation } from '@lp/contract/common/operation';
import { credentialsApi } from '@lp/contract/credentials/api';
import { entitlementsApi } from '@lp/contract/entitlements/api';
import { filterMethods } from '@lp/contract/query/schemas';
import { statementsApi } from '@lp/contract/statements/api';
import { transactionsApi } from '@lp/contract/transactions/api';
import { usageColumns } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { anonymous, apiTest, bearer, type Caller, type InputOf } from '../../../test/api-fixture.ts';
import { issueServerCredential } from './server-credentials.ts';

/*
 * Hostile-input review of the elastic API surface: every endpoint refuses anonymous callers, outsiders learn
 * nothing, view-only users cannot write, export-blocked accounts are closed, and no input of any shape gets
 * anything but a 4xx {status:'FAILURE', err} (never a 500, a stack trace or HTML).
 */

const MINE = '5300001';
const THEIRS = '5300002';
const BLOCKED = '5300003';
const FUZZ = '5300004';
const UNKNOWN = '5399999';

/** Each account's elastic server and entitlement. */
const fixtures: Record<string, { clsId: string; activationId: string }> = Object.fromEntries(
  [MINE, THEIRS, BLOCKED, FUZZ].map((cn) => [cn, { clsId: `CLS-${cn}`, activationId: `ACT-EL-${cn}` }]),
);
const server = (customerNumber: string) => ({ customerNumber, clsId: fixtures[customerNumber].clsId });

const test = apiTest
  /** The four accounts (mine, theirs, export-blocked, fuzzed) and who calls: their people and servers. */
  .extend('people', { scope: 'file' }, async ({ database, signIn, cast: { busops, support } }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Solver: 2 });
    for (const [customerNumber, exportControlStatus] of [
      [MINE, 'Approved'],
      [THEIRS, ''],
      [BLOCKED, 'Denied'],
      [FUZZ, ''],
    ]) {
      await buildAccount(db, { customerNumber, name: `Account ${customerNumber}`, exportControlStatus });
      const { clsId, activationId } = fixtures[customerNumber];
      await buildElasticServer(db, customerNumber, clsId);
      await buildElasticEntitlement(db, customerNumber, {
        activationId,
        quantity: 1000,
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        poNumber: `PO-SECRET-${customerNumber}`,
      });
      await recordUsage(db, { customerNumber, elasticServerId: clsId }, [
        { product: 'Solver', start: '2026-01-10T08:00:00Z', end: '2026-01-10T10:00:00Z', user: 'alice' },
      ]);
    }
    await addContact(db, MINE, 'admin@mine.example', contactRoles.admin);
    await addContact(db, BLOCKED, 'admin@mine.example', contactRoles.admin);
    await addContact(db, MINE, 'viewer@mine.example', contactRoles.viewer);
    await addContact(db, THEIRS, 'admin@theirs.example', contactRoles.admin);
    await addContact(db, FUZZ, 'fuzz@fuzz.example', contactRoles.admin);
    const credential = async (customerNumber: string) =>
      (
        await issueServerCredential(db, {
          customerNumber,
          elasticServerId: fixtures[customerNumber].clsId,
          createdBy: 'test',
        })
      ).token;
    const token = await credential(MINE);
    return {
      admin: await signIn('admin@mine.example'),
      viewer: await signIn('viewer@mine.example'),
      fuzzer: await signIn('fuzz@fuzz.example'),
      busops,
      support,
      token,
      /** My account's server. */
      mine: bearer(token),
      blocked: bearer(await credential(BLOCKED)),
    };
  })
  .extend('send', { scope: 'file' }, async ({ api }) => ({
    post: (op: Operation, who: Caller, payload: unknown) => api.call(who, op, payload),
    /** Raw text as a JSON body (for malformed JSON and literals JSON.stringify cannot write). */
    postRaw: (op: Operation, who: Caller, payload: string) =>
      api.call(who, op, payload, { headers: { 'content-type': 'application/json' } }),
  }));

interface Endpoint {
  op: Operation;
  /** The operation's path: what the tests are named by. */
  url: string;
  /** a valid body for the account; ids default to that account's own server and entitlement */
  body: (cn: string, ids?: { clsId: string; activationId: string }) => Record<string, unknown>;
  /** refused to view-only contacts */
  write?: boolean;
}

const ids = (cn: string, given?: { clsId: string; activationId: string }) =>
  given ?? fixtures[cn] ?? fixtures[THEIRS];

const endpoint = (op: Operation, body: Endpoint['body'], write?: boolean): Endpoint => ({
  op,
  url: op.path,
  body,
  ...(write && { write }),
});

/** The account-scoped calls of signed-in customers. */
const endpoints: Endpoint[] = [
  endpoint(entitlementsApi.elastic, (cn) => ({ customerNumber: cn })),
  endpoint(statementsApi.statement, (cn) => ({ customerNumber: cn, from: '2026-01-01', to: '2026-01-31' })),
  endpoint(statementsApi.pdf, (cn) => ({ customerNumber: cn, from: '2026-01-01', to: '2026-01-31' })),
  ...[statementsApi.emailWeek, statementsApi.emailMonth].map((op) =>
    endpoint(op, (cn, given) => ({
      customerid: cn,
      server: ids(cn, given).clsId,
      activationid: ids(cn, given).activationId,
      date: '2026-01-31',
    })),
  ),
  endpoint(transactionsApi.page, (cn) => ({ customerNumber: cn, limit: 10 })),
  endpoint(transactionsApi.count, (cn) => ({ customerNumber: cn })),
  endpoint(transactionsApi.distinct, (cn) => ({ customerNumber: cn, key: 'User' })),
  endpoint(credentialsApi.elasticDevice, (cn) => ({ customerNumber: cn })),
  ...[credentialsApi.getPin, credentialsApi.generatePin, credentialsApi.getUsers].map((op) =>
    endpoint(op, (cn, given) => ({ customerNumber: cn, clsId: ids(cn, given).clsId })),
  ),
  endpoint(
    credentialsApi.changePin,
    (cn, given) => ({ customerNumber: cn, clsId: ids(cn, given).clsId, pin: '482913' }),
    true,
  ),
  endpoint(
    credentialsApi.saveUsers,
    (cn, given) => ({ customerNumber: cn, clsId: ids(cn, given).clsId, users: ['alice'] }),
    true,
  ),
];

/** A refusal as every client expects it: 4xx, JSON {status:'FAILURE', err}, one short safe sentence. */
function expectFailure(res: LightMyRequestResponse, status?: number, err?: string) {
  const where = `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (status) expect(res.statusCode, where).toBe(status);
  expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.headers['content-type'], where).toMatch(/^application\/json/);
  const body = res.json();
  expect(body.status, where).toBe('FAILURE');
  expect(typeof body.err, where).toBe('string');
  expect(body.err.length, where).toBeLessThan(300);
  expect(body.err, where).not.toMatch(/\bat .+:\d+:\d+|node_modules|<html|\bselect\b|\binsert\b/i);
  if (err) expect(body.err, where).toBe(err);
}

/** Anything but a 500: a success, or a well-formed refusal. */
function expectHandled(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode >= 400) expectFailure(res);
}

describe('who may call', () => {
  test.for(endpoints)('$url: no session is 401', async ({ op, body }, { send: { post } }) => {
    expectFailure(await post(op, anonymous, body(MINE)), 401, messages.notSignedIn);
  });

  test.for(endpoints)(
    '$url: another account answers exactly like an unknown one',
    async ({ op, body }, { people: { admin }, send: { post } }) => {
      const theirs = await post(op, admin, body(THEIRS));
      const unknown = await post(op, admin, body(UNKNOWN, fixtures[THEIRS]));
      expectFailure(theirs, 403, messages.noPermissionPage);
      expect(unknown.statusCode).toBe(theirs.statusCode);
      expect(unknown.json()).toEqual(theirs.json());
      expect(theirs.body).not.toMatch(/SECRET|Account 5300002|CLS-5300002/);
    },
  );

  test.for(endpoints)(
    '$url: an export-blocked account is closed, to vendor staff too',
    async ({ op, body }, { people: { admin, busops }, send: { post } }) => {
      expectFailure(await post(op, admin, body(BLOCKED)), 403, messages.exportDenied);
      expectFailure(await post(op, busops, body(BLOCKED)), 403, messages.exportDenied);
    },
  );

  test.for(endpoints.filter((e) => e.write))(
    '$url: view-only contacts may not write',
    async ({ op, body }, { people: { viewer }, send: { post } }) => {
      expectFailure(await post(op, viewer, body(MINE)), 403, messages.noPermission);
    },
  );

  test('a view-only refusal changes nothing', async ({ api, people: { admin, viewer }, send: { post } }) => {
    await post(credentialsApi.changePin, admin, { ...server(MINE), pin: '111111' });
    await post(credentialsApi.changePin, viewer, { ...server(MINE), pin: '222222' });
    await post(credentialsApi.saveUsers, viewer, { ...server(MINE), users: ['mallory'] });
    expect((await api.ok(viewer, credentialsApi.getPin, server(MINE))).data?.pin).toBe('111111');
    expect((await api.ok(viewer, credentialsApi.getUsers, server(MINE))).data.users).not.toContain('mallory');
  });

  test('the server of another account is not reachable through my account number', async ({
    people: { admin },
    send: { post },
  }) => {
    for (const op of [credentialsApi.getPin, credentialsApi.getUsers, credentialsApi.generatePin]) {
      const res = await post(op, admin, { customerNumber: MINE, clsId: fixtures[THEIRS].clsId });
      expectFailure(res, 404);
      const unknown = await post(op, admin, { customerNumber: MINE, clsId: 'CLS-NOPE' });
      expect(unknown.json()).toEqual(res.json());
    }
    const mail = await post(statementsApi.emailWeek, admin, {
      ...endpoints[3].body(MINE),
      activationid: fixtures[THEIRS].activationId,
    });
    expectFailure(mail, 404);
  });

  test('staff calls refuse anonymous callers and customers', async ({
    api,
    people: { admin, support },
    send: { post },
  }) => {
    const list = { query: { customerNumber: MINE } };
    expectFailure(await api.call(anonymous, clsApi.listCredentials, list), 401);
    expectFailure(await api.call(admin, clsApi.listCredentials, list), 403);
    expectFailure(await post(clsApi.issueCredential, anonymous, server(MINE)), 401);
    expectFailure(await post(clsApi.issueCredential, admin, server(MINE)), 403);
    const id = '00000000-0000-4000-8000-000000000000';
    expectFailure(await api.call(anonymous, clsApi.revokeCredential, { params: { id } }), 401);
    expectFailure(await api.call(admin, clsApi.revokeCredential, { params: { id } }), 403);
    const adjustment = { customerNumber: MINE, activationId: fixtures[MINE].activationId, amount: 1 };
    expectFailure(await post(clsApi.adjust, anonymous, adjustment), 401);
    expectFailure(await post(clsApi.adjust, admin, adjustment), 403);
    expectFailure(await post(clsApi.adjust, support, adjustment), 403);
  });

  test('staff calls on an export-blocked account are refused with the compliance text', async ({
    api,
    people: { busops, support },
    send: { post },
  }) => {
    const list = await api.call(support, clsApi.listCredentials, { query: { customerNumber: BLOCKED } });
    expectFailure(list, 403, messages.exportDenied);
    expectFailure(await post(clsApi.issueCredential, support, server(BLOCKED)), 403, messages.exportDenied);
    const adjustment = { customerNumber: BLOCKED, activationId: fixtures[BLOCKED].activationId, amount: 1 };
    expectFailure(await post(clsApi.adjust, busops, adjustment), 403, messages.exportDenied);
  });

  test('staff calls on an unknown account say so the same way as for any account', async ({
    api,
    people: { busops, support },
    send: { post },
  }) => {
    const list = await api.call(support, clsApi.listCredentials, { query: { customerNumber: UNKNOWN } });
    expectFailure(list, 403, messages.noPermissionPage);
    const adjustment = { customerNumber: UNKNOWN, activationId: 'ACT-1', amount: 1 };
    expectFailure(await post(clsApi.adjust, busops, adjustment), 403, messages.noPermissionPage);
  });

  test('the license-server API wants a live bearer token of an open account', async ({
    api,
    people: { admin, token, mine, blocked },
    send: { post },
  }) => {
    const bare = { ...anonymous, headers: { authorization: token } };
    for (const who of [anonymous, admin, bearer('cls_nope'), bare, bearer(`${token}x`)]) {
      expectFailure(await api.call(who, clsApi.policy), 401);
      expectFailure(await post(clsApi.usage, who, { events: [{}] }), 401);
    }
    expectFailure(await api.call(blocked, clsApi.policy), 403, messages.exportDenied);
    expectFailure(await post(clsApi.usage, blocked, { events: [{}] }), 403, messages.exportDenied);
    await api.ok(mine, clsApi.policy, undefined);
  });
});

const huge = 'x'.repeat(100_000);
const sqlish = "1' OR '1'='1'; DROP TABLE usage_sessions; --";
/** Wrong-typed stand-ins for any field (JSON has no NaN or Infinity: those are tested as raw text). */
const wrongValues: unknown[] = [null, 12, -1, true, [], {}, ['a'], huge, '', '   '];
/** The stand-ins that are in fact valid for a field. */
const allowed: Record<string, unknown[]> = { users: [[], ['a']], limit: [12] };

describe('bad input is a 400, never a 500', () => {
  test.for(endpoints)(
    '$url: malformed JSON, wrong body shapes, missing fields',
    async ({ op, body }, { api, people: { admin }, send: { post, postRaw } }) => {
      expectFailure(await postRaw(op, admin, '{"customerNumber": '), 400, 'Malformed JSON body');
      expectFailure(await postRaw(op, admin, '{"customerNumber": NaN}'), 400, 'Malformed JSON body');
      expectFailure(await postRaw(op, admin, JSON.stringify(body(MINE)).replace(/}$/, ',}')), 400);
      for (const payload of [[body(MINE)], 'text', 42, null, {}]) {
        expectFailure(await postRaw(op, admin, JSON.stringify(payload)), 400);
      }
      expectFailure(await api.call(admin, op, '<b>', { headers: { 'content-type': 'text/html' } }), 415);
      for (const key of Object.keys(body(MINE))) {
        if (key === 'limit') continue;
        const { [key]: _dropped, ...rest } = body(MINE);
        expectFailure(await post(op, admin, rest), 400);
      }
    },
  );

  test.for(endpoints)(
    '$url: wrong types, huge and SQL-looking values in every field',
    async ({ op, body }, { people: { admin }, send: { post } }) => {
      const valid = body(MINE);
      for (const key of Object.keys(valid)) {
        for (const value of wrongValues) {
          if (allowed[key]?.some((ok) => JSON.stringify(ok) === JSON.stringify(value))) continue;
          const res = await post(op, admin, { ...valid, [key]: value });
          // A blank account number may be refused as bad input or as an unknown account.
          if (value === '   ') expectFailure(res);
          else expectFailure(res, 400);
        }
        expectFailure(await post(op, admin, { ...valid, [key]: sqlish }));
      }
      expectFailure(await post(op, admin, { ...valid, customerNumber: huge, customerid: huge }), 400);
    },
  );

  test('an SQL-looking account number is just an unknown account', async ({
    people: { admin },
    send: { post },
  }) => {
    for (const customerNumber of [sqlish, "' OR 1=1 --", `${MINE}' --`]) {
      const res = await post(entitlementsApi.elastic, admin, { customerNumber });
      expectFailure(res, 403, messages.noPermissionPage);
    }
  });

  test('statements: impossible days, reversed periods and a bad report date', async ({
    people: { admin },
    send: { post },
  }) => {
    const base = endpoints[1].body(MINE);
    for (const op of [statementsApi.statement, statementsApi.pdf]) {
      for (const bad of [
        { from: '2026-02-30' },
        { to: '2026-13-01' },
        { from: '2026-1-1' },
        { from: '2026-02-01T00:00:00Z' },
        { today: '2026-02-30' },
        { today: 20260101 },
      ]) {
        expectFailure(await post(op, admin, { ...base, ...bad }), 400);
      }
      expectFailure(
        await post(op, admin, { ...base, from: '2026-03-01', to: '2026-02-01' }),
        400,
        'Invalid period: the start date is after the end date',
      );
    }
  });

  test('statement e-mails: impossible or malformed dates', async ({ people: { admin }, send: { post } }) => {
    for (const date of [
      '2026-02-30',
      '2026-02-30T10:00:00Z',
      'yesterday',
      '',
      1767225600000,
      '2026-01-31 10:00',
    ]) {
      expectFailure(await post(statementsApi.emailMonth, admin, { ...endpoints[3].body(MINE), date }), 400);
    }
  });

  test('usage queries: unknown columns, bad methods, bad values and paging', async ({
    api,
    people: { admin },
    send: { post, postRaw },
  }) => {
    const q = (extra: Record<string, unknown>, op: Operation = transactionsApi.page) =>
      post(op, admin, { customerNumber: MINE, ...extra });
    const criterion = (c: Record<string, unknown>) => ({ filter: { criteria: [c] } });
    const bad: Record<string, unknown>[] = [
      criterion({ name: 'password', method: 'EQUALS', value: 'x' }),
      criterion({ name: 'customer_number', method: 'EQUALS', value: THEIRS }),
      criterion({ name: 'User', method: 'LIKE', value: 'x' }),
      criterion({ name: 'StartTime', method: 'DATERANGE', value: ['2026-02-30', '2026-03-01'] }),
      criterion({ name: 'StartTime', method: 'DAYRANGE', value: 'yesterday' }),
      criterion({ name: 'Charge', method: '>', value: 'lots' }),
      criterion({ name: 'Active', method: 'EQUALS', value: 'maybe' }),
      criterion({ name: 'User', method: 'EQUALS', value: huge }),
      { filter: { condition: 'SOME', criteria: [] } },
      { filter: [] },
      { sorting: { name: 'password' } },
      { sorting: [{ name: 'User', direction: 'sideways' }] },
      { limit: -1 },
      { limit: 0.5 },
      { limit: 10_000_000 },
      { offset: -5 },
      { token: 'forged-token' },
      { attributes: ['password'] },
      { serverId: huge },
    ];
    for (const extra of bad) expectFailure(await q(extra), 400);
    expectFailure(
      await postRaw(transactionsApi.page, admin, `{"customerNumber":"${MINE}","limit":1e400}`),
      400,
    );
    expectFailure(
      await postRaw(transactionsApi.page, admin, `{"customerNumber":"${MINE}","offset":-1e400}`),
      400,
    );
    expectFailure(await q({ key: 'password' }, transactionsApi.distinct), 400);
    expectFailure(await q({ key: 'customer_number' }, transactionsApi.distinct), 400);
    expectFailure(await q(criterion({ name: 'x', method: 'EQUALS', value: 1 }), transactionsApi.count), 400);

    // A reversed range is a valid question with no answer; text that looks like SQL is just text.
    const reversed = await api.ok(admin, transactionsApi.page, {
      customerNumber: MINE,
      filter: { criteria: [{ name: 'StartTime', method: 'DATERANGE', value: ['2026-02-01', '2026-01-01'] }] },
    });
    expect(reversed.data).toEqual([]);
    const count = (extra: Omit<InputOf<typeof transactionsApi.count>, 'customerNumber'>) =>
      api.ok(admin, transactionsApi.count, { customerNumber: MINE, ...extra });
    const injected = await count({
      filter: { criteria: [{ name: 'User', method: 'EQUALS', value: sqlish }] },
    });
    expect(injected).toEqual({ status: 'SUCCESS', data: 0 });
    expect(await count({ serverId: fixtures[THEIRS].clsId })).toEqual({ status: 'SUCCESS', data: 0 });
    expect(await count({})).toEqual({ status: 'SUCCESS', data: 1 });
  });

  test('PIN and usernames: the rules answer with the spec text', async ({
    people: { admin },
    send: { post },
  }) => {
    for (const pin of ['12345', '1234567', 'abcdef', ' 12345', huge]) {
      expectFailure(
        await post(credentialsApi.changePin, admin, { ...server(MINE), pin }),
        400,
        messages.invalidPin,
      );
    }
    for (const pin of [123456, null, ['123456']]) {
      expectFailure(await post(credentialsApi.changePin, admin, { ...server(MINE), pin }), 400);
    }
    for (const users of ['alice', [1], [{}], [null], { 0: 'alice' }]) {
      expectFailure(await post(credentialsApi.saveUsers, admin, { ...server(MINE), users }), 400);
    }
    const many = Array.from({ length: 5000 }, (_, i) => `user${i}`);
    expectFailure(
      await post(credentialsApi.saveUsers, admin, { ...server(MINE), users: many }),
      400,
      messages.invalidUsernames,
    );
  });

  test('adjustments: non-finite, out-of-range and wrongly typed amounts, impossible days', async ({
    people: { busops },
    send: { post, postRaw },
  }) => {
    const base = { customerNumber: MINE, activationId: fixtures[MINE].activationId, amount: 1 };
    for (const extra of [
      { amount: '1' },
      { amount: null },
      { amount: -1e12 },
      { amount: 1e12 },
      { amount: 0 },
      { amount: 0.001 },
      { day: '2026-02-30' },
      { day: '2026-02-01T00:00:00Z' },
      { note: huge },
      { product: '' },
      { activationId: huge },
      { customerNumber: [MINE] },
    ]) {
      expectFailure(await post(clsApi.adjust, busops, { ...base, ...extra }), 400);
    }
    const raw = (amount: string) =>
      postRaw(
        clsApi.adjust,
        busops,
        `{"customerNumber":"${MINE}","activationId":"${base.activationId}","amount":${amount}}`,
      );
    for (const amount of ['NaN', 'Infinity', '-Infinity'])
      expectFailure(await raw(amount), 400, 'Malformed JSON body');
    for (const amount of ['1e400', '-1e400']) expectFailure(await raw(amount), 400);
    expectFailure(await post(clsApi.adjust, busops, { ...base, activationId: 'ACT-NOPE' }), 404);
    expectFailure(
      await post(clsApi.adjust, busops, {
        ...base,
        activationId: fixtures[THEIRS].activationId,
      }),
      404,
    );
  });

  test('credential management: bad ids and account numbers', async ({
    api,
    app,
    people: { busops, support },
    send: { post },
  }) => {
    expectFailure(await api.call(support, clsApi.listCredentials, {}), 400);
    expectFailure(
      await api.call(support, clsApi.listCredentials, { query: { customerNumber: huge.slice(0, 5000) } }),
      400,
    );
    // The same parameter twice: no client builds this query string, so it is written out.
    const twice = `${clsApi.listCredentials.path}?customerNumber=${MINE}&customerNumber=${THEIRS}`;
    expectFailure(await app.inject({ url: twice, headers: support.headers }), 400);
    for (const id of ['not-a-uuid', "1' OR '1'='1", '00000000-0000-4000-8000-000000000000']) {
      const res = await api.call(support, clsApi.revokeCredential, { params: { id } });
      expectFailure(res, id.startsWith('0000') ? 404 : 400);
    }
    for (const payload of [{}, { customerNumber: MINE }, { ...server(MINE), clsId: huge }, [server(MINE)]]) {
      expectFailure(await post(clsApi.issueCredential, support, payload), 400);
    }
    expectFailure(
      await post(clsApi.issueCredential, busops, { customerNumber: MINE, clsId: fixtures[THEIRS].clsId }),
      404,
    );
  });

  test('license-server usage: bad batches are 400, bad events come back one by one', async ({
    api,
    people: { mine },
    send: { post, postRaw },
  }) => {
    for (const payload of [
      {},
      { events: [] },
      { events: {} },
      { events: 'x' },
      [],
      { events: Array(5001).fill({}) },
    ]) {
      expectFailure(await post(clsApi.usage, mine, payload), 400);
    }
    expectFailure(await postRaw(clsApi.usage, mine, '{"events": ['), 400, 'Malformed JSON body');
    const res = await api.ok(mine, clsApi.usage, {
      events: [null, 1, 'x', [], { type: 'start', sessionId: sqlish, product: huge, productCount: -1 }],
    });
    expect(res.accepted).toBe(0);
    expect(res.rejected.map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('edge values inside the valid shapes', () => {
  const farDays = ['0000-01-01', '0001-01-01', '1969-12-31', '9999-12-31'];

  test('statements and e-mails over days at the ends of the calendar', async ({
    people: { admin },
    send: { post },
  }) => {
    for (const from of farDays) {
      for (const to of farDays) {
        const body = { customerNumber: MINE, from, to, today: to };
        const res = await post(statementsApi.statement, admin, body);
        expectHandled(res);
        if (from > to) expectFailure(res, 400);
      }
      for (const op of [statementsApi.emailWeek, statementsApi.emailMonth]) {
        expectHandled(await post(op, admin, { ...endpoints[3].body(MINE), date: from }));
      }
    }
  });

  test('usage filters with instants outside what a date can hold', async ({
    people: { admin },
    send: { post },
  }) => {
    const values: unknown[] = [
      ...farDays,
      '-271821-04-20',
      '+275760-09-14T00:00:00Z',
      8.64e15 + 1,
      -8.64e15 - 1,
      1e300,
      '2026-01-10T25:00:00Z',
    ];
    for (const method of ['EQUALS', 'BEFORE', 'AFTER', 'BEFOREDAY', 'AFTERDAY', '>', '<=']) {
      for (const value of values) {
        const filter = { criteria: [{ name: 'StartTime', method, value }] };
        expectHandled(await post(transactionsApi.count, admin, { customerNumber: MINE, filter }));
      }
    }
    for (const method of ['DATERANGE', 'DAYRANGE', 'INRANGE']) {
      for (const value of values) {
        const filter = { criteria: [{ name: 'EndTime', method, value: [value, '9999-12-31'] }] };
        expectHandled(await post(transactionsApi.page, admin, { customerNumber: MINE, filter }));
      }
    }
    for (const value of [1e308, -1e308, 1e-320, 2 ** 63, '1e999', '-0']) {
      const filter = { criteria: [{ name: 'Charge', method: '>=', value }] };
      expectHandled(await post(transactionsApi.count, admin, { customerNumber: MINE, filter }));
    }
  });

  test('adjustments on days the database cannot store are refused', async ({
    people: { busops },
    send: { post },
  }) => {
    const base = { customerNumber: MINE, activationId: fixtures[MINE].activationId, amount: 0.5 };
    for (const day of ['0000-01-01', '9999-12-31']) {
      expectHandled(await post(clsApi.adjust, busops, { ...base, day }));
    }
  });

  test('license-server events at the ends of the calendar are rejected one by one or rated, never a 500', async ({
    people: { mine },
    send: { post },
  }) => {
    const event = (startTime: string, extra: Record<string, unknown> = {}) => ({
      type: 'end',
      sessionId: `edge-${startTime.slice(0, 4)}-${Object.keys(extra).join('')}`,
      time: '2026-01-10T10:00:00Z',
      startTime,
      product: 'Solver',
      productCount: 100_000,
      user: 'alice',
      host: 'ws-001',
      ...extra,
    });
    for (const startTime of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z']) {
      for (const extra of [{}, { time: startTime }, { type: 'start', time: startTime }]) {
        const res = await post(clsApi.usage, mine, { events: [event(startTime, extra)] });
        expectHandled(res);
      }
    }
  });

  test('a body over the size limit is a 413, prototype keys are refused', async ({
    people: { admin },
    send: { post, postRaw },
  }) => {
    const big = await post(entitlementsApi.elastic, admin, { customerNumber: 'x'.repeat(2_000_000) });
    expectFailure(big, 413);
    const proto = await postRaw(
      entitlementsApi.elastic,
      admin,
      `{"customerNumber":"${MINE}","__proto__":{"x":1}}`,
    );
    expectFailure(proto, 400);
  });
});

describe('random bodies never give a 500', () => {
  const anyJson = fc.jsonValue({ maxDepth: 3 });

  test.for(endpoints)(
    '$url: random values in the real fields',
    async ({ op, body }, { people: { fuzzer }, send: { post, postRaw } }) => {
      const valid = body(FUZZ);
      const fields = Object.fromEntries(
        Object.entries(valid).map(([k, v]) => [k, fc.oneof(fc.constant(v), anyJson, fc.string())]),
      );
      await fc.assert(
        fc.asyncProperty(fc.record(fields, { requiredKeys: [] }), async (payload) => {
          expectHandled(await post(op, fuzzer, payload));
        }),
        { numRuns: 25 },
      );
      await fc.assert(
        fc.asyncProperty(anyJson, async (payload) => {
          expectHandled(await postRaw(op, fuzzer, JSON.stringify(payload)));
        }),
        { numRuns: 10 },
      );
    },
  );

  test('random filter criteria and sorts on the usage grid', async ({
    people: { fuzzer },
    send: { post },
  }) => {
    const name = fc.oneof(fc.constantFrom(...usageColumns), fc.string({ maxLength: 20 }));
    const scalar = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('2026-02-30', '2026-01-10', '2026-01-10 08:00:00', '-1', '1e999', 'true', ''),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const criterion = fc.record(
      {
        name,
        method: fc.oneof(fc.constantFrom(...filterMethods), fc.string({ maxLength: 10 })),
        value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 })),
        not: fc.boolean(),
        casefold: fc.boolean(),
        tostring: fc.boolean(),
      },
      { requiredKeys: ['name', 'method'] },
    );
    const request = fc.record(
      {
        filter: fc.record({
          condition: fc.constantFrom('ALL', 'ANY', 'any'),
          criteria: fc.array(criterion, { maxLength: 3 }),
        }),
        sorting: fc.array(fc.record({ name, direction: fc.constantFrom('asc', 'DESC') }), { maxLength: 2 }),
        key: name,
      },
      { requiredKeys: ['filter'] },
    );
    await fc.assert(
      fc.asyncProperty(request, fc.constantFrom('', '/count', '/distinct'), async (extra, suffix) => {
        const op = {
          '': transactionsApi.page,
          '/count': transactionsApi.count,
          '/distinct': transactionsApi.distinct,
        }[suffix];
        const { key, sorting, ...rest } = extra;
        const payload = {
          customerNumber: FUZZ,
          ...rest,
          ...(suffix === '/distinct' ? { key: key ?? 'User' } : {}),
        };
        if (suffix === '') Object.assign(payload, { sorting });
        expectHandled(await post(op, fuzzer, payload));
      }),
      { numRuns: 150 },
    );
  });

  test('random adjustment bodies', async ({ people: { busops }, send: { post } }) => {
    const base = { customerNumber: FUZZ, activationId: fixtures[FUZZ].activationId };
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            amount: fc.oneof(fc.double(), fc.integer(), anyJson),
            day: fc.oneof(
              fc.string({ maxLength: 12 }),
              fc.constantFrom('2026-02-28', '2026-02-30', '0000-01-01'),
            ),
            product: fc.string({ maxLength: 120 }),
            note: anyJson,
          },
          { requiredKeys: ['amount'] },
        ),
        async (extra) => {
          expectHandled(await post(clsApi.adjust, busops, { ...base, ...extra }));
        },
      ),
      { numRuns: 60 },
    );
  });
});
