import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLicenseServer } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { REDACTED } from '../audit/service.ts';

/* Issue 13 §1: the elastic PIN (never its value) and the allowed usernames, one audit entry per change. */

const CN = '4200001';
const CLS = 'ELASTIC-CRED-AUDIT';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ boss, reader } = await buildAccountFixture(database.db, CN, '4200002'));
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic', state: 'Active' });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });
const generatePin = (headers: Headers) =>
  post('/api/generatepin', headers, { customerNumber: CN, clsId: CLS });
const changePin = (headers: Headers, pin: string) =>
  post('/api/changepin', headers, { customerNumber: CN, clsId: CLS, pin });
const saveUsers = (headers: Headers, users: string[]) =>
  post('/api/saveUsers', headers, { customerNumber: CN, clsId: CLS, users });
const entries = () => auditEntriesOf(database.db, 'credentials.');

const common = {
  customerNumber: CN,
  objectType: 'license-server',
  objectId: CLS,
  requestId: expect.any(String),
  clientIp: expect.any(String),
};

describe('credentials audit', () => {
  it('a generated PIN is one entry without its value; generating again (a PIN in place) writes none', async () => {
    // A view-only user may not set it (decision 022): refused, nothing recorded.
    expect((await generatePin(reader)).statusCode).toBe(403);
    const first = await generatePin(boss);
    expect(first.statusCode).toBe(200);
    expect((await generatePin(boss)).statusCode).toBe(200);
    const rows = await entries();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...common,
      actorKind: 'user',
      actorName: 'boss@acme.example',
      action: 'credentials.pin.generated',
      before: null,
      after: { pin: REDACTED },
    });
    expect(JSON.stringify(rows[0])).not.toContain(first.json().data.pin);
  });

  it('a changed PIN is one entry without its value; a refused change writes none', async () => {
    expect((await changePin(reader, '123456')).statusCode).toBe(403);
    expect((await changePin(boss, '12')).statusCode).toBe(400);
    expect(await entries()).toHaveLength(1);
    expect((await changePin(boss, '654321')).statusCode).toBe(200);
    const rows = await entries();
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      ...common,
      actorName: 'boss@acme.example',
      action: 'credentials.pin.changed',
      before: null,
      after: { pin: REDACTED },
    });
    expect(JSON.stringify(rows[1])).not.toContain('654321');
  });

  it('saved usernames are one entry with the list before and after; refused or unchanged saves write none', async () => {
    expect((await saveUsers(reader, ['alice'])).statusCode).toBe(403);
    expect((await saveUsers(boss, ['bad name!'])).statusCode).toBe(400);
    expect((await saveUsers(boss, [])).statusCode).toBe(200);
    expect((await entries()).filter((r) => r.action === 'credentials.users.changed')).toEqual([]);
    expect((await saveUsers(boss, ['alice', 'bob'])).statusCode).toBe(200);
    const rows = (await entries()).filter((r) => r.action === 'credentials.users.changed');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...common,
      actorName: 'boss@acme.example',
      before: { users: [] },
      after: { users: ['alice', 'bob'] },
    });
  });
});
