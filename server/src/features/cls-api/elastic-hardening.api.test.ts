import { messages } from '@lp/contract/common/errors';
import { filterMethods } from '@lp/contract/query/schemas';
import { usageColumns } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
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
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let admin: Headers;
let viewer: Headers;
let fuzzer: Headers;
let busops: Headers;
let support: Headers;
const fixtures: Record<string, { clsId: string; activationId: string }> = {};
let token: string;
let blockedToken: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const db = database.db;
  await buildRateTable(db, '2025.1.0', { Solver: 2 });
  for (const [customerNumber, exportControlStatus] of [
    [MINE, 'Approved'],
    [THEIRS, ''],
    [BLOCKED, 'Denied'],
    [FUZZ, ''],
  ]) {
    await buildAccount(db, { customerNumber, name: `Account ${customerNumber}`, exportControlStatus });
    const clsId = await buildElasticServer(db, customerNumber, `CLS-${customerNumber}`);
    const { activationId } = await buildElasticEntitlement(db, customerNumber, {
      quantity: 1000,
      startDate: '2026-01-01',
      endDate: '2026-12-31',
      poNumber: `PO-SECRET-${customerNumber}`,
    });
    fixtures[customerNumber] = { clsId, activationId };
    await recordUsage(db, { customerNumber, clsId }, [
      { product: 'Solver', start: '2026-01-10T08:00:00Z', end: '2026-01-10T10:00:00Z', user: 'alice' },
    ]);
  }
  await addContact(db, MINE, 'admin@mine.example', contactRoles.admin);
  await addContact(db, BLOCKED, 'admin@mine.example', contactRoles.admin);
  await addContact(db, MINE, 'viewer@mine.example', contactRoles.viewer);
  await addContact(db, THEIRS, 'admin@theirs.example', contactRoles.admin);
  await addContact(db, FUZZ, 'fuzz@fuzz.example', contactRoles.admin);
  admin = (await signInAs(db, 'admin@mine.example')).headers;
  viewer = (await signInAs(db, 'viewer@mine.example')).headers;
  fuzzer = (await signInAs(db, 'fuzz@fuzz.example')).headers;
  busops = (await signInAs(db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  support = (await signInAs(db, 'help@vendor.example', { vendorRoles: ['support'] })).headers;
  token = (await issueServerCredential(db, { ...server(MINE), createdBy: 'test' })).token;
  blockedToken = (await issueServerCredential(db, { ...server(BLOCKED), createdBy: 'test' })).token;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const server = (customerNumber: string) => ({ customerNumber, clsId: fixtures[customerNumber].clsId });
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

interface Endpoint {
  url: string;
  /** a valid body for the account; ids default to that account's own server and entitlement */
  body: (cn: string, ids?: { clsId: string; activationId: string }) => Record<string, unknown>;
  /** refused to view-only contacts */
  write?: boolean;
}

const ids = (cn: string, given?: { clsId: string; activationId: string }) =>
  given ?? fixtures[cn] ?? fixtures[THEIRS];

/** The account-scoped calls of signed-in customers. */
const endpoints: Endpoint[] = [
  { url: '/api/getEntitlements', body: (cn) => ({ customerNumber: cn }) },
  { url: '/api/statements', body: (cn) => ({ customerNumber: cn, from: '2026-01-01', to: '2026-01-31' }) },
  { url: '/api/getPdf', body: (cn) => ({ customerNumber: cn, from: '2026-01-01', to: '2026-01-31' }) },
  ...['/api/emailweek', '/api/emailmonth'].map((url) => ({
    url,
    body: (cn: string, given?: { clsId: string; activationId: string }) => ({
      customerid: cn,
      server: ids(cn, given).clsId,
      activationid: ids(cn, given).activationId,
      date: '2026-01-31',
    }),
  })),
  { url: '/api/fetchUsage', body: (cn) => ({ customerNumber: cn, limit: 10 }) },
  { url: '/api/fetchUsage/count', body: (cn) => ({ customerNumber: cn }) },
  { url: '/api/fetchUsage/distinct', body: (cn) => ({ customerNumber: cn, key: 'User' }) },
  { url: '/api/devices/elastic', body: (cn) => ({ customerNumber: cn }) },
  ...['/api/getpin', '/api/generatepin', '/api/getUsers'].map((url) => ({
    url,
    body: (cn: string, given?: { clsId: string; activationId: string }) => ({
      customerNumber: cn,
      clsId: ids(cn, given).clsId,
    }),
  })),
  {
    url: '/api/changepin',
    write: true,
    body: (cn, given) => ({ customerNumber: cn, clsId: ids(cn, given).clsId, pin: '482913' }),
  },
  {
    url: '/api/saveUsers',
    write: true,
    body: (cn, given) => ({ customerNumber: cn, clsId: ids(cn, given).clsId, users: ['alice'] }),
  },
];

const post = (url: string, headers: Headers, payload: unknown) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });

/** Raw text as a JSON body (for malformed JSON and literals JSON.stringify cannot write). */
const postRaw = (url: string, headers: Headers, payload: string) =>
  app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload });

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
  it.each(endpoints)('$url: no session is 401', async ({ url, body }) => {
    expectFailure(await post(url, {}, body(MINE)), 401, messages.notSignedIn);
  });

  it.each(endpoints)('$url: another account answers exactly like an unknown one', async ({ url, body }) => {
    const theirs = await post(url, admin, body(THEIRS));
    const unknown = await post(url, admin, body(UNKNOWN, fixtures[THEIRS]));
    expectFailure(theirs, 403, messages.noPermissionPage);
    expect(unknown.statusCode).toBe(theirs.statusCode);
    expect(unknown.json()).toEqual(theirs.json());
    expect(theirs.body).not.toMatch(/SECRET|Account 5300002|CLS-5300002/);
  });

  it.each(endpoints)(
    '$url: an export-blocked account is closed, to vendor staff too',
    async ({ url, body }) => {
      expectFailure(await post(url, admin, body(BLOCKED)), 403, messages.exportDenied);
      expectFailure(await post(url, busops, body(BLOCKED)), 403, messages.exportDenied);
    },
  );

  it.each(endpoints.filter((e) => e.write))(
    '$url: view-only contacts may not write',
    async ({ url, body }) => {
      expectFailure(await post(url, viewer, body(MINE)), 403, messages.noPermission);
    },
  );

  it('a view-only refusal changes nothing', async () => {
    await post('/api/changepin', admin, { ...server(MINE), pin: '111111' });
    await post('/api/changepin', viewer, { ...server(MINE), pin: '222222' });
    await post('/api/saveUsers', viewer, { ...server(MINE), users: ['mallory'] });
    expect((await post('/api/getpin', viewer, server(MINE))).json().data.pin).toBe('111111');
    expect((await post('/api/getUsers', viewer, server(MINE))).json().data.users).not.toContain('mallory');
  });

  it('the server of another account is not reachable through my account number', async () => {
    for (const url of ['/api/getpin', '/api/getUsers', '/api/generatepin']) {
      const res = await post(url, admin, { customerNumber: MINE, clsId: fixtures[THEIRS].clsId });
      expectFailure(res, 404);
      const unknown = await post(url, admin, { customerNumber: MINE, clsId: 'CLS-NOPE' });
      expect(unknown.json()).toEqual(res.json());
    }
    const mail = await post('/api/emailweek', admin, {
      ...endpoints[3].body(MINE),
      activationid: fixtures[THEIRS].activationId,
    });
    expectFailure(mail, 404);
  });

  it('staff calls refuse anonymous callers and customers', async () => {
    expectFailure(await app.inject({ url: `/api/cls/credentials?customerNumber=${MINE}` }), 401);
    expectFailure(
      await app.inject({ url: `/api/cls/credentials?customerNumber=${MINE}`, headers: admin }),
      403,
    );
    expectFailure(await post('/api/cls/credentials', {}, server(MINE)), 401);
    expectFailure(await post('/api/cls/credentials', admin, server(MINE)), 403);
    const id = '00000000-0000-4000-8000-000000000000';
    expectFailure(await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}` }), 401);
    expectFailure(
      await app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers: admin }),
      403,
    );
    const adjustment = { customerNumber: MINE, activationId: fixtures[MINE].activationId, amount: 1 };
    expectFailure(await post('/api/elastic/adjustments', {}, adjustment), 401);
    expectFailure(await post('/api/elastic/adjustments', admin, adjustment), 403);
    expectFailure(await post('/api/elastic/adjustments', support, adjustment), 403);
  });

  it('staff calls on an export-blocked account are refused with the compliance text', async () => {
    const list = await app.inject({
      url: `/api/cls/credentials?customerNumber=${BLOCKED}`,
      headers: support,
    });
    expectFailure(list, 403, messages.exportDenied);
    expectFailure(await post('/api/cls/credentials', support, server(BLOCKED)), 403, messages.exportDenied);
    const adjustment = { customerNumber: BLOCKED, activationId: fixtures[BLOCKED].activationId, amount: 1 };
    expectFailure(await post('/api/elastic/adjustments', busops, adjustment), 403, messages.exportDenied);
  });

  it('staff calls on an unknown account say so the same way as for any account', async () => {
    const list = await app.inject({
      url: `/api/cls/credentials?customerNumber=${UNKNOWN}`,
      headers: support,
    });
    expectFailure(list, 403, messages.noPermissionPage);
    const adjustment = { customerNumber: UNKNOWN, activationId: 'ACT-1', amount: 1 };
    expectFailure(await post('/api/elastic/adjustments', busops, adjustment), 403, messages.noPermissionPage);
  });

  it('the license-server API wants a live bearer token of an open account', async () => {
    for (const headers of [{}, admin, bearer('cls_nope'), { authorization: token }, bearer(`${token}x`)]) {
      expectFailure(await app.inject({ url: '/cls/v1/policy', headers }), 401);
      expectFailure(await post('/cls/v1/usage', headers, { events: [{}] }), 401);
    }
    expectFailure(
      await app.inject({ url: '/cls/v1/policy', headers: bearer(blockedToken) }),
      403,
      messages.exportDenied,
    );
    expectFailure(
      await post('/cls/v1/usage', bearer(blockedToken), { events: [{}] }),
      403,
      messages.exportDenied,
    );
    expect((await app.inject({ url: '/cls/v1/policy', headers: bearer(token) })).statusCode).toBe(200);
  });
});

const huge = 'x'.repeat(100_000);
const sqlish = "1' OR '1'='1'; DROP TABLE usage_sessions; --";
/** Wrong-typed stand-ins for any field (JSON has no NaN or Infinity: those are tested as raw text). */
const wrongValues: unknown[] = [null, 12, -1, true, [], {}, ['a'], huge, '', '   '];
/** The stand-ins that are in fact valid for a field. */
const allowed: Record<string, unknown[]> = { users: [[], ['a']], limit: [12] };

describe('bad input is a 400, never a 500', () => {
  it.each(endpoints)('$url: malformed JSON, wrong body shapes, missing fields', async ({ url, body }) => {
    expectFailure(await postRaw(url, admin, '{"customerNumber": '), 400, 'Malformed JSON body');
    expectFailure(await postRaw(url, admin, '{"customerNumber": NaN}'), 400, 'Malformed JSON body');
    expectFailure(await postRaw(url, admin, JSON.stringify(body(MINE)).replace(/}$/, ',}')), 400);
    for (const payload of [[body(MINE)], 'text', 42, null, {}]) {
      expectFailure(await postRaw(url, admin, JSON.stringify(payload)), 400);
    }
    expectFailure(
      await app.inject({
        method: 'POST',
        url,
        headers: { ...admin, 'content-type': 'text/html' },
        payload: '<b>',
      }),
      415,
    );
    for (const key of Object.keys(body(MINE))) {
      if (key === 'limit') continue;
      const { [key]: _dropped, ...rest } = body(MINE);
      expectFailure(await post(url, admin, rest), 400);
    }
  });

  it.each(endpoints)(
    '$url: wrong types, huge and SQL-looking values in every field',
    async ({ url, body }) => {
      const valid = body(MINE);
      for (const key of Object.keys(valid)) {
        for (const value of wrongValues) {
          if (allowed[key]?.some((ok) => JSON.stringify(ok) === JSON.stringify(value))) continue;
          const res = await post(url, admin, { ...valid, [key]: value });
          // A blank account number may be refused as bad input or as an unknown account.
          if (value === '   ') expectFailure(res);
          else expectFailure(res, 400);
        }
        expectFailure(await post(url, admin, { ...valid, [key]: sqlish }));
      }
      expectFailure(await post(url, admin, { ...valid, customerNumber: huge, customerid: huge }), 400);
    },
  );

  it('an SQL-looking account number is just an unknown account', async () => {
    for (const customerNumber of [sqlish, "' OR 1=1 --", `${MINE}' --`]) {
      const res = await post('/api/getEntitlements', admin, { customerNumber });
      expectFailure(res, 403, messages.noPermissionPage);
    }
  });

  it('statements: impossible days, reversed periods and a bad report date', async () => {
    const base = endpoints[1].body(MINE);
    for (const url of ['/api/statements', '/api/getPdf']) {
      for (const bad of [
        { from: '2026-02-30' },
        { to: '2026-13-01' },
        { from: '2026-1-1' },
        { from: '2026-02-01T00:00:00Z' },
        { today: '2026-02-30' },
        { today: 20260101 },
      ]) {
        expectFailure(await post(url, admin, { ...base, ...bad }), 400);
      }
      expectFailure(
        await post(url, admin, { ...base, from: '2026-03-01', to: '2026-02-01' }),
        400,
        'Invalid period: the start date is after the end date',
      );
    }
  });

  it('statement e-mails: impossible or malformed dates', async () => {
    for (const date of [
      '2026-02-30',
      '2026-02-30T10:00:00Z',
      'yesterday',
      '',
      1767225600000,
      '2026-01-31 10:00',
    ]) {
      expectFailure(await post('/api/emailmonth', admin, { ...endpoints[3].body(MINE), date }), 400);
    }
  });

  it('usage queries: unknown columns, bad methods, bad values and paging', async () => {
    const q = (extra: Record<string, unknown>, url = '/api/fetchUsage') =>
      post(url, admin, { customerNumber: MINE, ...extra });
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
    expectFailure(await postRaw('/api/fetchUsage', admin, `{"customerNumber":"${MINE}","limit":1e400}`), 400);
    expectFailure(
      await postRaw('/api/fetchUsage', admin, `{"customerNumber":"${MINE}","offset":-1e400}`),
      400,
    );
    expectFailure(await q({ key: 'password' }, '/api/fetchUsage/distinct'), 400);
    expectFailure(await q({ key: 'customer_number' }, '/api/fetchUsage/distinct'), 400);
    expectFailure(
      await q(criterion({ name: 'x', method: 'EQUALS', value: 1 }), '/api/fetchUsage/count'),
      400,
    );

    // A reversed range is a valid question with no answer; text that looks like SQL is just text.
    const reversed = await q(
      criterion({ name: 'StartTime', method: 'DATERANGE', value: ['2026-02-01', '2026-01-01'] }),
    );
    expect(reversed.statusCode).toBe(200);
    expect(reversed.json().data).toEqual([]);
    const injected = await q(
      criterion({ name: 'User', method: 'EQUALS', value: sqlish }),
      '/api/fetchUsage/count',
    );
    expect(injected.json()).toEqual({ status: 'SUCCESS', data: 0 });
    const theirServer = await q({ serverId: fixtures[THEIRS].clsId }, '/api/fetchUsage/count');
    expect(theirServer.json()).toEqual({ status: 'SUCCESS', data: 0 });
    const all = await q({}, '/api/fetchUsage/count');
    expect(all.json()).toEqual({ status: 'SUCCESS', data: 1 });
  });

  it('PIN and usernames: the rules answer with the spec text', async () => {
    for (const pin of ['12345', '1234567', 'abcdef', ' 12345', huge]) {
      expectFailure(await post('/api/changepin', admin, { ...server(MINE), pin }), 400, messages.invalidPin);
    }
    for (const pin of [123456, null, ['123456']]) {
      expectFailure(await post('/api/changepin', admin, { ...server(MINE), pin }), 400);
    }
    for (const users of ['alice', [1], [{}], [null], { 0: 'alice' }]) {
      expectFailure(await post('/api/saveUsers', admin, { ...server(MINE), users }), 400);
    }
    const many = Array.from({ length: 5000 }, (_, i) => `user${i}`);
    expectFailure(
      await post('/api/saveUsers', admin, { ...server(MINE), users: many }),
      400,
      messages.invalidUsernames,
    );
  });

  it('adjustments: non-finite, out-of-range and wrongly typed amounts, impossible days', async () => {
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
      expectFailure(await post('/api/elastic/adjustments', busops, { ...base, ...extra }), 400);
    }
    const raw = (amount: string) =>
      postRaw(
        '/api/elastic/adjustments',
        busops,
        `{"customerNumber":"${MINE}","activationId":"${base.activationId}","amount":${amount}}`,
      );
    for (const amount of ['NaN', 'Infinity', '-Infinity'])
      expectFailure(await raw(amount), 400, 'Malformed JSON body');
    for (const amount of ['1e400', '-1e400']) expectFailure(await raw(amount), 400);
    expectFailure(await post('/api/elastic/adjustments', busops, { ...base, activationId: 'ACT-NOPE' }), 404);
    expectFailure(
      await post('/api/elastic/adjustments', busops, {
        ...base,
        activationId: fixtures[THEIRS].activationId,
      }),
      404,
    );
  });

  it('credential management: bad ids and account numbers', async () => {
    expectFailure(await app.inject({ url: '/api/cls/credentials', headers: support }), 400);
    expectFailure(
      await app.inject({
        url: `/api/cls/credentials?customerNumber=${huge.slice(0, 5000)}`,
        headers: support,
      }),
      400,
    );
    expectFailure(
      await app.inject({
        url: `/api/cls/credentials?customerNumber=${MINE}&customerNumber=${THEIRS}`,
        headers: support,
      }),
      400,
    );
    for (const id of ['not-a-uuid', "1' OR '1'='1", '00000000-0000-4000-8000-000000000000']) {
      const res = await app.inject({
        method: 'DELETE',
        url: `/api/cls/credentials/${encodeURIComponent(id)}`,
        headers: support,
      });
      expectFailure(res, id.startsWith('0000') ? 404 : 400);
    }
    for (const payload of [{}, { customerNumber: MINE }, { ...server(MINE), clsId: huge }, [server(MINE)]]) {
      expectFailure(await post('/api/cls/credentials', support, payload), 400);
    }
    expectFailure(
      await post('/api/cls/credentials', busops, { customerNumber: MINE, clsId: fixtures[THEIRS].clsId }),
      404,
    );
  });

  it('license-server usage: bad batches are 400, bad events come back one by one', async () => {
    const auth = bearer(token);
    for (const payload of [
      {},
      { events: [] },
      { events: {} },
      { events: 'x' },
      [],
      { events: Array(5001).fill({}) },
    ]) {
      expectFailure(await post('/cls/v1/usage', auth, payload), 400);
    }
    expectFailure(await postRaw('/cls/v1/usage', auth, '{"events": ['), 400, 'Malformed JSON body');
    const res = await post('/cls/v1/usage', auth, {
      events: [null, 1, 'x', [], { type: 'start', sessionId: sqlish, product: huge, productCount: -1 }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().accepted).toBe(0);
    expect(res.json().rejected.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('edge values inside the valid shapes', () => {
  const farDays = ['0000-01-01', '0001-01-01', '1969-12-31', '9999-12-31'];

  it('statements and e-mails over days at the ends of the calendar', async () => {
    for (const from of farDays) {
      for (const to of farDays) {
        const body = { customerNumber: MINE, from, to, today: to };
        const res = await post('/api/statements', admin, body);
        expectHandled(res);
        if (from > to) expectFailure(res, 400);
      }
      for (const url of ['/api/emailweek', '/api/emailmonth']) {
        expectHandled(await post(url, admin, { ...endpoints[3].body(MINE), date: from }));
      }
    }
  });

  it('usage filters with instants outside what a date can hold', async () => {
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
        expectHandled(await post('/api/fetchUsage/count', admin, { customerNumber: MINE, filter }));
      }
    }
    for (const method of ['DATERANGE', 'DAYRANGE', 'INRANGE']) {
      for (const value of values) {
        const filter = { criteria: [{ name: 'EndTime', method, value: [value, '9999-12-31'] }] };
        expectHandled(await post('/api/fetchUsage', admin, { customerNumber: MINE, filter }));
      }
    }
    for (const value of [1e308, -1e308, 1e-320, 2 ** 63, '1e999', '-0']) {
      const filter = { criteria: [{ name: 'Charge', method: '>=', value }] };
      expectHandled(await post('/api/fetchUsage/count', admin, { customerNumber: MINE, filter }));
    }
  });

  it('adjustments on days the database cannot store are refused', async () => {
    const base = { customerNumber: MINE, activationId: fixtures[MINE].activationId, amount: 0.5 };
    for (const day of ['0000-01-01', '9999-12-31']) {
      expectHandled(await post('/api/elastic/adjustments', busops, { ...base, day }));
    }
  });

  it('license-server events at the ends of the calendar are rejected one by one or rated, never a 500', async () => {
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
        const res = await post('/cls/v1/usage', bearer(token), { events: [event(startTime, extra)] });
        expectHandled(res);
      }
    }
  });

  it('a body over the size limit is a 413, prototype keys are refused', async () => {
    const big = await post('/api/getEntitlements', admin, { customerNumber: 'x'.repeat(2_000_000) });
    expectFailure(big, 413);
    const proto = await postRaw(
      '/api/getEntitlements',
      admin,
      `{"customerNumber":"${MINE}","__proto__":{"x":1}}`,
    );
    expectFailure(proto, 400);
  });
});

describe('random bodies never give a 500', () => {
  const anyJson = fc.jsonValue({ maxDepth: 3 });

  it.each(endpoints)('$url: random values in the real fields', async ({ url, body }) => {
    const valid = body(FUZZ);
    const fields = Object.fromEntries(
      Object.entries(valid).map(([k, v]) => [k, fc.oneof(fc.constant(v), anyJson, fc.string())]),
    );
    await fc.assert(
      fc.asyncProperty(fc.record(fields, { requiredKeys: [] }), async (payload) => {
        expectHandled(await post(url, fuzzer, payload));
      }),
      { numRuns: 25 },
    );
    await fc.assert(
      fc.asyncProperty(anyJson, async (payload) => {
        expectHandled(await postRaw(url, fuzzer, JSON.stringify(payload)));
      }),
      { numRuns: 10 },
    );
  });

  it('random filter criteria and sorts on the usage grid', async () => {
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
        const { key, sorting, ...rest } = extra;
        const payload = {
          customerNumber: FUZZ,
          ...rest,
          ...(suffix === '/distinct' ? { key: key ?? 'User' } : {}),
        };
        if (suffix === '') Object.assign(payload, { sorting });
        expectHandled(await post(`/api/fetchUsage${suffix}`, fuzzer, payload));
      }),
      { numRuns: 150 },
    );
  });

  it('random adjustment bodies', async () => {
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
          expectHandled(await post('/api/elastic/adjustments', busops, { ...base, ...extra }));
        },
      ),
      { numRuns: 60 },
    );
  });
});
