import { messages } from '@lp/contract/common/errors';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { alerts } from '../../db/schema.ts';
import { CATEGORY_RANGE_MESSAGE, DATE_FILTER_MESSAGE } from './service.ts';

let database: TestDatabase;
let app: FastifyInstance;
let customer: Record<string, string>;
let sales: Record<string, string>;
let busops: Record<string, string>;
let support: Record<string, string>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const fromNow = (ms: number) => new Date(Date.now() + ms);

async function buildAlert(over: Partial<typeof alerts.$inferInsert> = {}) {
  const [row] = await database.db
    .insert(alerts)
    .values({
      category: 'WARNING',
      status: 'ACTIVE',
      date: fromNow(-HOUR),
      expires: null,
      services: ['Licensing'],
      description: 'Slow responses',
      links: {},
      ...over,
    })
    .returning();
  return row;
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  const db = database.db;
  customer = (await signInAs(db, 'admin@acme.example')).headers;
  sales = (await signInAs(db, 'sales@vendor.example', { vendorRoles: ['sales'] })).headers;
  busops = (await signInAs(db, 'busops@vendor.example', { vendorRoles: ['busops'] })).headers;
  support = (await signInAs(db, 'support@vendor.example', { vendorRoles: ['support'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

beforeEach(async () => {
  await database.db.delete(alerts);
});

const post = (url: string, headers: Record<string, string> | undefined, payload: unknown = {}) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });
const put = (url: string, headers: Record<string, string> | undefined, payload: unknown = {}) =>
  app.inject({ method: 'PUT', url, headers, payload: payload as object });
const get = (url: string, headers?: Record<string, string>) => app.inject({ method: 'GET', url, headers });
const activeIds = async (headers = customer) => {
  const res = await get('/api/notifications', headers);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { id: number }[] }).data.map((a) => a.id);
};
const pageIds = async (payload: unknown) => {
  const res = await post('/api/notifications', customer, payload);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { id: number }[] }).data.map((a) => a.id);
};

describe('authentication and authorization', () => {
  it.each([
    ['GET', '/api/notifications'],
    ['POST', '/api/notifications'],
    ['POST', '/api/notifications/count'],
    ['POST', '/api/notifications/distinct'],
    ['POST', '/api/notifications/admin'],
    ['PUT', '/api/notifications/admin/1'],
    ['POST', '/api/notifications/admin/1/resolve'],
  ])('anonymous %s %s gets 401', async (method, url) => {
    const res = await app.inject({
      method: method as 'GET' | 'POST' | 'PUT',
      url,
      payload: method === 'GET' ? undefined : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' });
  });

  it('lets a customer read alerts but not create, edit or resolve them', async () => {
    const a = await buildAlert();
    expect(await activeIds(customer)).toEqual([a.id]);
    expect(await pageIds({})).toEqual([a.id]);
    const body = { category: 'CRITICAL', service: ['Portal'], description: 'Down' };
    for (const [res, who] of [
      [await post('/api/notifications/admin', customer, body), 'customer create'],
      [await post('/api/notifications/admin', sales, body), 'vendor sales create'],
      [await put(`/api/notifications/admin/${a.id}`, customer, body), 'customer edit'],
      [await post(`/api/notifications/admin/${a.id}/resolve`, customer), 'customer resolve'],
    ] as const) {
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    }
    // Nothing changed.
    const [stored] = await database.db.select().from(alerts);
    expect(stored).toMatchObject({ status: 'ACTIVE', description: 'Slow responses' });
    expect(await database.db.select().from(alerts)).toHaveLength(1);
  });
});

describe('GET /api/notifications (active list)', () => {
  it('answers SUCCESS with an empty list when there are no alerts', async () => {
    const res = await get('/api/notifications', customer);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: [] });
  });

  it('hides only alerts that are RESOLVED and expired', async () => {
    const open = await buildAlert({ description: 'open' });
    const activeExpired = await buildAlert({ status: 'ACTIVE', expires: fromNow(-HOUR) });
    const resolvedFuture = await buildAlert({ status: 'RESOLVED', expires: fromNow(HOUR) });
    const resolvedNoExpiry = await buildAlert({ status: 'RESOLVED', expires: null });
    await buildAlert({ status: 'RESOLVED', expires: fromNow(-HOUR), description: 'done' });
    expect((await activeIds()).sort()).toEqual(
      [open.id, activeExpired.id, resolvedFuture.id, resolvedNoExpiry.id].sort(),
    );
  });

  it('shows INFO alerts only from 5 days before they start; other categories always', async () => {
    const soon = await buildAlert({ category: 'INFO', date: fromNow(4 * DAY) });
    await buildAlert({ category: 'INFO', date: fromNow(6 * DAY) });
    const farCritical = await buildAlert({ category: 'CRITICAL', date: fromNow(6 * DAY) });
    expect((await activeIds()).sort()).toEqual([soon.id, farCritical.id].sort());
  });

  it('returns the alert fields, most severe first', async () => {
    const info = await buildAlert({ category: 'INFO', services: ['Downloads'] });
    const critical = await buildAlert({
      category: 'CRITICAL',
      services: ['Portal', 'Licensing'],
      description: 'Outage',
      date: new Date('2026-01-02T03:04:05Z'),
      expires: fromNow(DAY),
      links: { 'Status page': 'https://status.example.com' },
    });
    const res = await get('/api/notifications', customer);
    const data = res.json().data;
    expect(data.map((a: { id: number }) => a.id)).toEqual([critical.id, info.id]);
    expect(data[0]).toEqual({
      id: critical.id,
      category: 'CRITICAL',
      status: 'ACTIVE',
      date: '2026-01-02T03:04:05.000Z',
      expires: critical.expires?.toISOString(),
      service: ['Portal', 'Licensing'],
      description: 'Outage',
      links: { 'Status page': 'https://status.example.com' },
    });
  });
});

describe('POST /api/notifications (query engine)', () => {
  it('filters resolved alerts for the Resolved tab', async () => {
    await buildAlert();
    const done = await buildAlert({ status: 'RESOLVED', expires: fromNow(-HOUR) });
    await buildAlert({ status: 'RESOLVED', expires: fromNow(HOUR) });
    expect(
      await pageIds({
        filter: { condition: 'ALL', criteria: [{ name: 'resolved', method: 'EQUALS', value: true }] },
      }),
    ).toEqual([done.id]);
  });

  it('filters a category range in the order OK < INFO < WARNING < CRITICAL', async () => {
    const ok = await buildAlert({ category: 'OK' });
    const info = await buildAlert({ category: 'INFO' });
    const warning = await buildAlert({ category: 'WARNING' });
    const critical = await buildAlert({ category: 'CRITICAL' });
    const range = async (value: unknown) =>
      (
        await pageIds({
          filter: { criteria: [{ name: 'category', method: 'RANGE', value }] },
          sorting: [{ name: 'id', direction: 'asc' }],
        })
      ).sort((a, b) => a - b);
    expect(await range(['INFO', 'WARNING'])).toEqual([info.id, warning.id]);
    expect(await range(['WARNING', 'CRITICAL'])).toEqual([warning.id, critical.id]);
    expect(await range(['OK', 'CRITICAL'])).toEqual([ok.id, info.id, warning.id, critical.id]);
    expect(await range(['critical', 'critical'])).toEqual([critical.id]);
    expect(await range(['CRITICAL', 'OK'])).toEqual([]);
    // Alphabetical order would put CRITICAL before INFO; the severity column keeps the spec's order.
    const res = await post('/api/notifications', customer, {
      filter: { criteria: [{ name: 'category', method: 'RANGE', value: ['INFO', 'BOGUS'] }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'FAILURE', err: CATEGORY_RANGE_MESSAGE });
  });

  it('filters a whole day by date (YYYY-MM-DD, 19xx/20xx) and refuses other texts with 400', async () => {
    const early = await buildAlert({ date: new Date('2026-03-04T00:00:00Z') });
    const late = await buildAlert({ date: new Date('2026-03-04T23:59:59Z') });
    await buildAlert({ date: new Date('2026-03-05T00:00:00Z') });
    await buildAlert({ date: new Date('2026-03-03T23:59:59Z') });
    const day = (value: unknown) => ({ filter: { criteria: [{ name: 'date', method: 'EQUALS', value }] } });
    expect((await pageIds(day('2026-03-04'))).sort((a, b) => a - b)).toEqual([early.id, late.id]);
    for (const bad of ['2126-03-04', '1899-12-31', '2026-02-30', '04/03/2026', '2026-03-04T10:00:00Z', 5]) {
      const res = await post('/api/notifications', customer, day(bad));
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: DATE_FILTER_MESSAGE });
    }
    const count = await post('/api/notifications/count', customer, day('2026-03-04'));
    expect(count.json()).toEqual({ status: 'SUCCESS', data: 2 });
  });

  it('pages by offset and by token, counts and lists distinct values', async () => {
    for (let i = 0; i < 7; i++) {
      await buildAlert({ date: new Date(Date.UTC(2026, 0, 1 + i)), services: [`S${i % 3}`] });
    }
    const all = await pageIds({ sorting: [{ name: 'date', direction: 'asc' }] });
    expect(all).toHaveLength(7);
    const first = await post('/api/notifications', customer, {
      sorting: [{ name: 'date', direction: 'asc' }],
      token: null,
      limit: 3,
    });
    expect(first.json().data.map((a: { id: number }) => a.id)).toEqual(all.slice(0, 3));
    const token = first.json().token as string;
    expect(token).toEqual(expect.any(String));
    const second = await post('/api/notifications', customer, {
      sorting: [{ name: 'date', direction: 'asc' }],
      token,
      limit: 3,
    });
    expect(second.json().data.map((a: { id: number }) => a.id)).toEqual(all.slice(3, 6));
    expect(await pageIds({ sorting: [{ name: 'date', direction: 'asc' }], offset: 6, limit: 3 })).toEqual(
      all.slice(6),
    );

    const count = await post('/api/notifications/count', customer, {});
    expect(count.json()).toEqual({ status: 'SUCCESS', data: 7 });
    const distinct = await post('/api/notifications/distinct', customer, { key: 'service' });
    expect(distinct.json()).toEqual({ status: 'SUCCESS', data: ['S0', 'S1', 'S2'] });
    const categories = await post('/api/notifications/distinct', customer, { key: 'category' });
    expect(categories.json().data).toEqual(['WARNING']);
  });

  it('enforces the limits: at most 1000 rows per call, unknown columns refused', async () => {
    expect((await post('/api/notifications', customer, { limit: 1000 })).statusCode).toBe(200);
    const tooMany = await post('/api/notifications', customer, { limit: 1001 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().status).toBe('FAILURE');
    const unknown = await post('/api/notifications', customer, {
      filter: { criteria: [{ name: 'secret', method: 'EQUALS', value: 'x' }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect((await post('/api/notifications/distinct', customer, { key: 'nope' })).statusCode).toBe(400);
  });

  it('refuses more than 500 distinct values and a count above the fetch-all size of 30000', async () => {
    await database.db.execute(
      sql`insert into alerts (category, status, date, services, description)
          select case when g <= 501 then 'CRITICAL' else 'OK' end, 'ACTIVE', now(), array['S'], 'd' || g
          from generate_series(1, 30001) g`,
    );
    const critical = { criteria: [{ name: 'category', method: 'EQUALS', value: 'CRITICAL' }] };
    const distinct = await post('/api/notifications/distinct', customer, {
      key: 'description',
      filter: critical,
    });
    expect(distinct.statusCode).toBe(400);
    expect(distinct.json()).toMatchObject({ status: 'FAILURE', err: messages.tooManyDistinct });
    const fewer = {
      criteria: [...critical.criteria, { name: 'description', method: 'STARTSWITH', value: 'd1' }],
    };
    const ok = await post('/api/notifications/distinct', customer, { key: 'description', filter: fewer });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toHaveLength(111); // d1, d10-d19, d100-d199 among d1..d501

    const count = await post('/api/notifications/count', customer, {});
    expect(count.statusCode).toBe(400);
    expect(count.json()).toMatchObject({ status: 'FAILURE', err: messages.exceedsMaxLength });
    const some = await post('/api/notifications/count', customer, { filter: critical });
    expect(some.json()).toEqual({ status: 'SUCCESS', data: 501 });
  });
});

describe('admin: create, edit, resolve', () => {
  const body = {
    category: 'CRITICAL',
    service: ['Portal', 'Licensing'],
    description: 'Sign-in unavailable',
    date: '2026-11-20T08:00:00Z',
    expires: '2099-11-20T18:00:00Z',
    links: { 'Status page': 'https://status.example.com/1' },
  };

  it('creates, edits and resolves an alert', async () => {
    const created = await post('/api/notifications/admin', busops, body);
    expect(created.statusCode, created.body).toBe(200);
    const alert = created.json().data;
    expect(alert).toMatchObject({
      category: 'CRITICAL',
      status: 'ACTIVE',
      service: ['Portal', 'Licensing'],
      date: '2026-11-20T08:00:00.000Z',
      expires: '2099-11-20T18:00:00.000Z',
      links: { 'Status page': 'https://status.example.com/1' },
    });
    expect(await activeIds()).toEqual([alert.id]);

    const edited = await put(`/api/notifications/admin/${alert.id}`, support, {
      ...body,
      category: 'WARNING',
      description: 'Sign-in slow',
      links: {},
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      id: alert.id,
      category: 'WARNING',
      description: 'Sign-in slow',
      links: {},
    });

    const resolved = await post(`/api/notifications/admin/${alert.id}/resolve`, busops);
    expect(resolved.statusCode).toBe(200);
    const r = resolved.json().data;
    expect(r.status).toBe('RESOLVED');
    expect(Date.parse(r.expires)).toBeLessThanOrEqual(Date.now());
    expect(await activeIds()).toEqual([]);
    expect(
      await pageIds({ filter: { criteria: [{ name: 'resolved', method: 'EQUALS', value: true }] } }),
    ).toEqual([alert.id]);
  });

  it('defaults the start to now and keeps an earlier expiry when resolving', async () => {
    const created = await post('/api/notifications/admin', busops, {
      category: 'INFO',
      service: ['Downloads'],
      description: 'Maintenance',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(Math.abs(Date.parse(created.json().data.date) - Date.now())).toBeLessThan(60_000);
    expect(created.json().data.expires).toBeNull();
    const past = await buildAlert({ expires: new Date('2026-01-01T00:00:00Z') });
    const res = await post(`/api/notifications/admin/${past.id}/resolve`, busops);
    expect(res.json().data.expires).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each([
    ['unknown category', { ...body, category: 'SEVERE' }, 'category'],
    ['no services', { ...body, service: [] }, 'service'],
    ['blank service', { ...body, service: ['  '] }, 'service'],
    ['long service', { ...body, service: ['x'.repeat(101)] }, 'service'],
    ['empty description', { ...body, description: '' }, 'description'],
    ['long description', { ...body, description: 'x'.repeat(2001) }, 'description'],
    ['non-http link', { ...body, links: { Bad: 'javascript:alert(1)' } }, 'links'],
    ['bad date', { ...body, date: 'yesterday' }, 'date'],
    ['expiry before start', { ...body, expires: '2026-11-20T07:00:00Z' }, 'expires'],
  ])('refuses %s with 400', async (_what, payload, field) => {
    const res = await post('/api/notifications/admin', busops, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 'FAILURE', code: 'BAD_REQUEST' });
    expect(res.json().err).toContain(field);
    expect(await database.db.select().from(alerts)).toHaveLength(0);
  });

  it('refuses an expiry before the default start (now) and before the stored start on edit', async () => {
    const res = await post('/api/notifications/admin', busops, {
      ...body,
      date: undefined,
      expires: '2000-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(400);
    const a = await buildAlert({ date: new Date('2026-06-01T00:00:00Z') });
    const edit = await put(`/api/notifications/admin/${a.id}`, busops, {
      ...body,
      date: undefined,
      expires: '2026-05-01T00:00:00Z',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().err).toContain('expires must be after date');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const edit = await put('/api/notifications/admin/999999', busops, body);
    expect(edit.statusCode).toBe(404);
    expect(edit.json()).toMatchObject({ status: 'FAILURE', code: 'NOT_FOUND' });
    const resolve = await post('/api/notifications/admin/999999/resolve', busops);
    expect(resolve.statusCode).toBe(404);
    expect((await post('/api/notifications/admin/abc/resolve', busops)).statusCode).toBe(400);
  });
});
