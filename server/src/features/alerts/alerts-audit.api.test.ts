import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/* Issue 13 §1: alerts created, edited and resolved by staff, one vendor-wide audit entry each. */

type Headers = Record<string, string>;
let database: TestDatabase;
let app: FastifyInstance;
let busops: Headers;
let customer: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  busops = (await signInAs(database.db, 'busops@vendor.example', { vendorRoles: ['busops'] })).headers;
  customer = (await signInAs(database.db, 'admin@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const call = (method: 'POST' | 'PUT', url: string, headers: Headers, payload: object = {}) =>
  app.inject({ method, url, headers, payload });
const entries = () => auditEntriesOf(database.db, 'alerts.');
const body = {
  category: 'WARNING',
  service: ['Portal'],
  description: 'Maintenance tonight',
  date: '2030-01-01T20:00:00.000Z',
  expires: '2030-01-01T22:00:00.000Z',
};
const byStaff = {
  customerNumber: null,
  actorKind: 'user',
  actorName: 'busops@vendor.example',
  objectType: 'alert',
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('alert audit', () => {
  it('create, edit and resolve write one entry each with the changed fields; refused calls write none', async () => {
    expect((await call('POST', '/api/notifications/admin', customer, body)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/notifications/admin', busops, { ...body, description: '' })).statusCode,
    ).toBe(400);
    expect(await entries()).toEqual([]);

    const created = await call('POST', '/api/notifications/admin', busops, body);
    expect(created.statusCode).toBe(200);
    const id = String(created.json().data.id);
    const url = `/api/notifications/admin/${id}`;
    expect((await call('PUT', url, customer, body)).statusCode).toBe(403);
    expect((await call('PUT', url, busops, { ...body, category: 'CRITICAL' })).statusCode).toBe(200);
    // Saving the same values again changes nothing and writes nothing.
    expect((await call('PUT', url, busops, { ...body, category: 'CRITICAL' })).statusCode).toBe(200);
    expect((await call('PUT', '/api/notifications/admin/999999', busops, body)).statusCode).toBe(404);
    expect((await call('POST', `${url}/resolve`, busops)).statusCode).toBe(200);

    const rows = await entries();
    expect(rows.map((r) => r.action)).toEqual([
      'alerts.alert.created',
      'alerts.alert.edited',
      'alerts.alert.resolved',
    ]);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: null,
      after: {
        category: 'WARNING',
        status: 'ACTIVE',
        services: ['Portal'],
        description: 'Maintenance tonight',
        date: body.date,
        expires: body.expires,
        links: {},
      },
    });
    expect(rows[1]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { category: 'WARNING' },
      after: { category: 'CRITICAL' },
    });
    expect(rows[2]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { status: 'ACTIVE', expires: body.expires },
      after: { status: 'RESOLVED', expires: expect.stringMatching(/^\d{4}-/) },
    });
  });
});
