import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { emails } from '../../db/schema.ts';

let database: TestDatabase;
let app: FastifyInstance;
const headers: Record<string, Record<string, string>> = {};

const ACME = '5100001';
const OTHER = '5100002';
const INDIRECT = '5100003';
const BLOCKED = '5100004';
let otherEmailId: number;
let hostileEmailId: number;

const hostileBody =
  '<p onclick="steal()">Hello <b>team</b></p><script>alert(document.cookie)</script>' +
  '<img src="x" onerror="alert(1)"><a href="javascript:alert(1)">bad</a>' +
  '<a href="https://portal.example/help" onmouseover="x()">help</a>' +
  '<iframe src="https://evil.example"></iframe><table border="1"><tr><td>cell</td></tr></table>';

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  app = await createTestApp(database);
  await buildAccount(db, { customerNumber: ACME, name: 'Acme Mail Inc.' });
  await buildAccount(db, { customerNumber: OTHER, name: 'Other Corp' });
  await buildAccount(db, { customerNumber: INDIRECT, name: 'Indirect Ltd', orgType: 'Indirect' });
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
  for (const cn of [ACME, INDIRECT, BLOCKED])
    await addContact(db, cn, 'admin@acme.example', contactRoles.admin);
  await addContact(db, ACME, 'viewer@acme.example', contactRoles.viewer);
  await addContact(db, OTHER, 'admin@other.example', contactRoles.admin);

  // Twelve e-mails for Acme, one a day, subjects alternating between two kinds.
  const rows = Array.from({ length: 12 }, (_, i) => ({
    customerNumber: ACME,
    to: i % 3 === 0 ? 'ops@acme.example' : 'licensing@acme.example',
    subject: i % 2 === 0 ? `License file for host${String(i).padStart(2, '0')}` : `Weekly Statement ${i}`,
    body: `<p>Message ${i}</p>`,
    date: new Date(Date.UTC(2026, 2, 1 + i, 9, 30, 5)),
  }));
  await db.insert(emails).values(rows);
  const [hostile] = await db
    .insert(emails)
    .values({
      customerNumber: ACME,
      to: 'ops@acme.example',
      subject: 'Hostile body',
      body: hostileBody,
      date: new Date(Date.UTC(2026, 1, 1, 8, 0, 0)),
    })
    .returning();
  hostileEmailId = hostile.id;
  const [other] = await db
    .insert(emails)
    .values({
      customerNumber: OTHER,
      to: 'x@other.example',
      subject: 'Secret of Other',
      body: '<p>secret</p>',
    })
    .returning();
  otherEmailId = other.id;

  headers.admin = (await signInAs(db, 'admin@acme.example')).headers;
  headers.viewer = (await signInAs(db, 'viewer@acme.example')).headers;
  headers.outsider = (await signInAs(db, 'nobody@elsewhere.example')).headers;
  headers.otherAdmin = (await signInAs(db, 'admin@other.example')).headers;
  headers.busops = (await signInAs(db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  headers.support = (await signInAs(db, 'support@vendor.example', { vendorRoles: ['support'] })).headers;
  headers.sales = (await signInAs(db, 'sales@vendor.example', { vendorRoles: ['sales'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, who: string | null, payload: unknown) =>
  app.inject({ method: 'POST', url, headers: who ? headers[who] : {}, payload: payload as object });
const list = async (who: string, payload: object) => {
  const res = await post('/api/getemails', who, { customerNumber: ACME, ...payload });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    status: string;
    data: { id: number; date: string; subject: string; to: string }[];
    token: string | null;
  };
};

describe('POST /api/getemails', () => {
  it('lists the customer e-mails newest first with dates as YYYY-MM-DD HH:mm:ss', async () => {
    const body = await list('admin', {});
    expect(body.status).toBe('SUCCESS');
    expect(body.data).toHaveLength(13);
    expect(Object.keys(body.data[0]).sort()).toEqual(['date', 'id', 'subject', 'to']);
    expect(body.data[0]).toMatchObject({ date: '2026-03-12 09:30:05', subject: 'Weekly Statement 11' });
    expect(body.data.at(-1)).toMatchObject({ subject: 'Hostile body', date: '2026-02-01 08:00:00' });
    // Nothing of another customer.
    expect(body.data.some((r) => r.subject === 'Secret of Other')).toBe(false);
  });

  it('lets a view-only contact and vendor staff read', async () => {
    expect((await list('viewer', {})).data).toHaveLength(13);
    expect((await list('support', {})).data).toHaveLength(13);
  });

  it('filters with contains and equals, sorts and pages', async () => {
    const contains = await list('admin', {
      filter: {
        condition: 'ALL',
        criteria: [{ name: 'subject', method: 'CONTAINS', value: 'license file', casefold: true }],
      },
      sorting: [{ name: 'subject', direction: 'asc' }],
    });
    expect(contains.data.map((r) => r.subject)).toEqual(
      [0, 2, 4, 6, 8, 10].map((i) => `License file for host${String(i).padStart(2, '0')}`),
    );

    const equals = await list('admin', {
      filter: { condition: 'ALL', criteria: [{ name: 'to', method: 'EQUALS', value: 'ops@acme.example' }] },
    });
    expect(equals.data).toHaveLength(5);
    expect(equals.data.every((r) => r.to === 'ops@acme.example')).toBe(true);

    // The Date column is filtered by its displayed text.
    const byDay = await list('admin', {
      filter: { criteria: [{ name: 'date', method: 'CONTAINS', value: '2026-03-0', tostring: true }] },
    });
    expect(byDay.data).toHaveLength(9);

    const first = await list('admin', { sorting: { name: 'date', direction: 'asc' }, offset: 0, limit: 5 });
    const second = await list('admin', { sorting: { name: 'date', direction: 'asc' }, offset: 5, limit: 5 });
    expect(first.data.map((r) => r.subject)[0]).toBe('Hostile body');
    expect(second.data[0].date).toBe('2026-03-05 09:30:05');
    // Token paging continues where the page ended.
    expect(first.token).toEqual(expect.any(String));
    const byToken = await list('admin', {
      sorting: { name: 'date', direction: 'asc' },
      token: first.token,
      limit: 5,
    });
    expect(byToken.data).toEqual(second.data);
  });

  it('counts and lists distinct values under the same scope', async () => {
    const count = await post('/api/getemails/count', 'admin', {
      customerNumber: ACME,
      filter: { criteria: [{ name: 'subject', method: 'STARTSWITH', value: 'Weekly' }] },
    });
    expect(count.json()).toEqual({ status: 'SUCCESS', data: 6 });
    const distinct = await post('/api/getemails/distinct', 'admin', { customerNumber: ACME, key: 'to' });
    expect(distinct.json()).toEqual({
      status: 'SUCCESS',
      data: ['licensing@acme.example', 'ops@acme.example'],
    });
  });

  it('refuses an unknown filter column, a bad sort and a missing customer number with 400', async () => {
    const unknown = await post('/api/getemails', 'admin', {
      customerNumber: ACME,
      filter: { criteria: [{ name: 'customer_number', method: 'EQUALS', value: OTHER }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ status: 'FAILURE' });
    const sort = await post('/api/getemails', 'admin', { customerNumber: ACME, sorting: [{ name: 'body' }] });
    expect(sort.statusCode).toBe(400);
    const missing = await post('/api/getemails', 'admin', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().err).toMatch(/customerNumber/);
    const distinct = await post('/api/getemails/distinct', 'admin', { customerNumber: ACME, key: 'body' });
    expect(distinct.statusCode).toBe(400);
  });

  it('answers 401 to anonymous callers and 403 to outsiders', async () => {
    expect((await post('/api/getemails', null, { customerNumber: ACME })).statusCode).toBe(401);
    expect((await post('/api/getemails/count', null, { customerNumber: ACME })).statusCode).toBe(401);
    const outsider = await post('/api/getemails', 'outsider', { customerNumber: ACME });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toMatchObject({ status: 'FAILURE' });
    expect((await post('/api/getemails', 'otherAdmin', { customerNumber: ACME })).statusCode).toBe(403);
    expect((await post('/api/getemails/count', 'outsider', { customerNumber: ACME })).statusCode).toBe(403);
    expect(
      (await post('/api/getemails/distinct', 'outsider', { customerNumber: ACME, key: 'to' })).statusCode,
    ).toBe(403);
  });

  it('refuses indirect and export-blocked customers with 403', async () => {
    const indirect = await post('/api/getemails', 'admin', { customerNumber: INDIRECT });
    expect(indirect.statusCode).toBe(403);
    expect(indirect.json().err).toBe(messages.noPermission);
    const blocked = await post('/api/getemails', 'admin', { customerNumber: BLOCKED });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().err).toBe(messages.exportDenied);
    expect((await post('/api/getemails', 'busops', { customerNumber: INDIRECT })).statusCode).toBe(403);
  });
});

describe('POST /api/getemail', () => {
  const firstId = async () =>
    (await list('admin', { sorting: { name: 'date', direction: 'desc' }, limit: 1 })).data[0].id;

  it('returns the record with customer name and date', async () => {
    const id = await firstId();
    const res = await post('/api/getemail', 'admin', { customerNumber: ACME, id: String(id) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: {
        id,
        customerNumber: ACME,
        customerName: 'Acme Mail Inc.',
        to: 'licensing@acme.example',
        subject: 'Weekly Statement 11',
        body: '<p>Message 11</p>',
        date: '2026-03-12 09:30:05',
        attachments: [],
      },
    });
  });

  it('sanitises the body: no scripts, event handlers, javascript: links or frames', async () => {
    const res = await post('/api/getemail', 'admin', { customerNumber: ACME, id: hostileEmailId });
    const body: string = res.json().data.body;
    expect(body).not.toMatch(/<script|alert\(document|onerror|onclick|onmouseover|javascript:|<iframe/i);
    expect(body).toContain('<b>team</b>');
    expect(body).toContain('<td>cell</td>');
    expect(body).toContain('href="https://portal.example/help"');
  });

  it('answers another customer\u2019s e-mail like an unknown id (404) and never returns it', async () => {
    const res = await post('/api/getemail', 'admin', { customerNumber: ACME, id: otherEmailId });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('Secret');
    expect((await post('/api/getemail', 'admin', { customerNumber: ACME, id: 999999 })).statusCode).toBe(404);
    // Naming the other customer does not help a non-contact.
    expect(
      (await post('/api/getemail', 'admin', { customerNumber: OTHER, id: otherEmailId })).statusCode,
    ).toBe(403);
  });

  it('checks access and input', async () => {
    const id = await firstId();
    expect((await post('/api/getemail', null, { customerNumber: ACME, id })).statusCode).toBe(401);
    expect((await post('/api/getemail', 'outsider', { customerNumber: ACME, id })).statusCode).toBe(403);
    expect((await post('/api/getemail', 'admin', { customerNumber: INDIRECT, id })).statusCode).toBe(403);
    expect((await post('/api/getemail', 'admin', { customerNumber: BLOCKED, id })).statusCode).toBe(403);
    expect((await post('/api/getemail', 'admin', { customerNumber: ACME, id: 'abc' })).statusCode).toBe(400);
    expect((await post('/api/getemail', 'admin', { customerNumber: ACME })).statusCode).toBe(400);
  });
});

describe('DELETE /api/emails/{id}', () => {
  const del = (id: number | string, who: string | null) =>
    app.inject({ method: 'DELETE', url: `/api/emails/${id}`, headers: who ? headers[who] : {} });

  it('lets busops delete, and refuses customers, view-only support and other staff (decision 022)', async () => {
    const ids = (await list('admin', { sorting: { name: 'date', direction: 'asc' }, limit: 3 })).data.map(
      (r) => r.id,
    );
    expect((await del(ids[1], null)).statusCode).toBe(401);
    const byCustomer = await del(ids[1], 'admin');
    expect(byCustomer.statusCode).toBe(403);
    expect(byCustomer.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    expect((await del(ids[1], 'sales')).statusCode).toBe(403);

    expect((await del(ids[1], 'busops')).json()).toEqual({ status: 'SUCCESS' });
    expect((await post('/api/getemail', 'admin', { customerNumber: ACME, id: ids[1] })).statusCode).toBe(404);
    expect((await del(ids[1], 'busops')).statusCode).toBe(404);
    const bySupport = await del(ids[2], 'support');
    expect(bySupport.statusCode).toBe(403);
    expect(bySupport.json()).toMatchObject({ err: messages.noPermission });
    expect((await list('admin', {})).data).toHaveLength(12);
    expect((await del('not-a-number', 'busops')).statusCode).toBe(400);
  });
});
