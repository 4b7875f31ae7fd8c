import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicenseServer } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/* Issue 13 §1: a saved allow-list is one audit entry of the account with the rules before and after. */

const CN = '4100001';
const CLS = 'ELASTIC-AUDIT-1';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ boss, reader } = await buildAccountFixture(database.db, CN, '4100002'));
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic', state: 'Active' });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const setIps = (headers: Headers, whitelist: { rulename: string; ipaddress: string }[]) =>
  app.inject({
    method: 'POST',
    url: '/api/setips',
    headers,
    payload: { customerNumber: CN, clsId: CLS, whitelist },
  });
const entries = () => auditEntriesOf(database.db, 'ip-rules.');
const office = { rulename: 'Office', ipaddress: '192.168.10.7' };

describe('ip-rules audit', () => {
  it('writes nothing for a refused save (viewer, bad address) or a save that changes nothing', async () => {
    expect((await setIps(reader, [office])).statusCode).toBe(403);
    expect((await setIps(boss, [{ rulename: 'a', ipaddress: '300.1.1.1' }])).statusCode).toBe(400);
    expect((await setIps(boss, [])).statusCode).toBe(200);
    expect(await entries()).toEqual([]);
  });

  it('writes one entry with the rules before and after, by the user', async () => {
    expect((await setIps(boss, [{ rulename: ' Office ', ipaddress: ' 192.168.10.7 ' }])).statusCode).toBe(
      200,
    );
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorName: 'boss@acme.example',
      action: 'ip-rules.changed',
      objectType: 'ip-rules',
      objectId: CLS,
      before: { rules: [] },
      after: { rules: [office] },
      requestId: expect.any(String),
      clientIp: expect.any(String),
    });
  });
});
