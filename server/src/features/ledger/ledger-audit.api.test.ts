import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElasticEntitlement, buildElasticServer } from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/* Issue 13 §1: a staff balance adjustment is one audit entry with the entitlement's Used before and after. */

const CN = '5400001';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let activationId: string;
let busops: Headers;
let customer: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
  await buildElasticServer(database.db, CN);
  activationId = (
    await buildElasticEntitlement(database.db, CN, {
      quantity: 100,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    })
  ).activationId;
  await addContact(database.db, CN, 'admin@acme.example', contactRoles.admin);
  busops = (await signInAs(database.db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
  customer = (await signInAs(database.db, 'admin@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const adjust = (headers: Headers, payload: object) =>
  app.inject({
    method: 'POST',
    url: '/api/elastic/adjustments',
    headers,
    payload: { customerNumber: CN, ...payload },
  });
const entries = () => auditEntriesOf(database.db, 'ledger.');

describe('balance adjustment audit', () => {
  it('refused adjustments (customer, too large, zero, unknown entitlement) write nothing', async () => {
    expect((await adjust(customer, { activationId, amount: 1 })).statusCode).toBe(403);
    expect((await adjust(busops, { activationId, amount: 1000 })).statusCode).toBe(400);
    expect((await adjust(busops, { activationId, amount: 0 })).statusCode).toBe(400);
    expect((await adjust(busops, { activationId: 'nope', amount: 1 })).statusCode).toBe(404);
    expect(await entries()).toEqual([]);
  });

  it('a debit and a credit are one entry each, by the staff member, with Used before and after', async () => {
    const debit = await adjust(busops, { activationId, amount: 2.5, note: 'migration', day: '2025-03-01' });
    expect(debit.statusCode).toBe(200);
    expect((await adjust(busops, { activationId, amount: -1 })).statusCode).toBe(200);
    const rows = await entries();
    expect(rows).toHaveLength(2);
    const common = {
      customerNumber: CN,
      actorKind: 'user',
      actorName: 'ops@vendor.example',
      action: 'ledger.adjustment.posted',
      objectType: 'entitlement',
      objectId: activationId,
      requestId: expect.any(String),
      clientIp: expect.any(String),
    };
    expect(rows[0]).toMatchObject({
      ...common,
      before: { used: 0 },
      after: { used: 2.5, amount: 2.5, product: 'Balance Adjustment', note: 'migration', day: '2025-03-01' },
    });
    expect(rows[1]).toMatchObject({ ...common, before: { used: 2.5 }, after: { used: 1.5, amount: -1 } });
  });
});
