import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElasticServer } from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/* Issue 13 §1: a license-server credential issued or revoked by staff is one audit entry of the account. */

const CN = '5300001';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let clsId: string;
let busops: Headers;
let customer: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
  clsId = await buildElasticServer(database.db, CN);
  await addContact(database.db, CN, 'admin@acme.example', contactRoles.admin);
  busops = (await signInAs(database.db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  customer = (await signInAs(database.db, 'admin@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const issue = (headers: Headers, server = clsId) =>
  app.inject({
    method: 'POST',
    url: '/api/cls/credentials',
    headers,
    payload: { customerNumber: CN, clsId: server },
  });
const revoke = (headers: Headers, id: string) =>
  app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers });
const entries = () => auditEntriesOf(database.db, 'cls-api.credential.');

const byStaff = {
  customerNumber: CN,
  actorKind: 'user',
  actorName: 'ops@vendor.example',
  objectType: 'cls-credential',
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('license-server credential audit', () => {
  it('issuing is one entry naming the credential and its server, never the token; refused issues write none', async () => {
    expect((await issue(customer)).statusCode).toBe(403);
    expect((await issue(busops, 'NOT-A-SERVER')).statusCode).toBe(404);
    expect(await entries()).toEqual([]);
    const res = await issue(busops);
    expect(res.statusCode).toBe(200);
    const { id, token } = res.json().data;
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      action: 'cls-api.credential.issued',
      objectId: id,
      before: null,
      after: { clsId, createdBy: 'ops@vendor.example' },
    });
    expect(JSON.stringify(rows[0])).not.toContain(token);
  });

  it('revoking is one entry; revoking again or by a customer writes none', async () => {
    const id = (await issue(busops)).json().data.id;
    expect((await revoke(customer, id)).statusCode).toBe(403);
    expect((await revoke(busops, id)).statusCode).toBe(200);
    expect((await revoke(busops, id)).statusCode).toBe(404);
    const rows = (await entries()).filter((r) => r.action === 'cls-api.credential.revoked');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byStaff,
      objectId: id,
      before: { revokedAt: null },
      after: { revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
  });
});
