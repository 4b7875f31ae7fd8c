import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/* Issue 13 §1: every contact added, changed or removed is one audit entry of the account. */

const { admin, viewer } = contactRoles;
const CN = '3100001';
type Headers = Record<string, string>;
type Contact = { email: string; role: string };

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ boss, reader } = await buildAccountFixture(database.db, CN, '3100002'));
  await addContact(database.db, CN, 'pat@acme.example', viewer);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const set = (headers: Headers, newContacts: Contact[], oldContacts: Contact[]) =>
  app.inject({
    method: 'POST',
    url: '/api/setportalaccess',
    headers,
    payload: { customerNumber: CN, newContacts, oldContacts },
  });
const entries = () => auditEntriesOf(database.db, 'portal-access.');

const initial: Contact[] = [
  { email: 'boss@acme.example', role: admin },
  { email: 'reader@acme.example', role: viewer },
  { email: 'pat@acme.example', role: viewer },
];

describe('portal-access audit', () => {
  it('writes nothing for a refused save (viewer, invalid row) or a save that changes nothing', async () => {
    expect(
      (await set(reader, [...initial, { email: 'x@acme.example', role: viewer }], initial)).statusCode,
    ).toBe(403);
    expect((await set(boss, [...initial, { email: 'bad', role: viewer }], initial)).statusCode).toBe(400);
    expect((await set(boss, initial, initial)).statusCode).toBe(200);
    expect(await entries()).toEqual([]);
  });

  it('writes one entry per contact added, changed and removed, by the user, with the request and address', async () => {
    const next: Contact[] = [
      { email: 'boss@acme.example', role: admin },
      { email: 'pat@acme.example', role: admin },
      { email: 'new@acme.example', role: viewer },
    ];
    const res = await set(boss, next, initial);
    expect(res.statusCode).toBe(200);
    const rows = await entries();
    const by = (action: string) => rows.filter((r) => r.action === action);
    expect(rows).toHaveLength(3);
    for (const r of rows)
      expect(r).toMatchObject({
        customerNumber: CN,
        actorKind: 'user',
        actorName: 'boss@acme.example',
        requestId: expect.any(String),
        clientIp: expect.any(String),
        objectType: 'contact',
      });
    expect(by('portal-access.contact.removed')).toMatchObject([
      { objectId: 'reader@acme.example', before: { role: viewer }, after: null },
    ]);
    expect(by('portal-access.contact.changed')).toMatchObject([
      { objectId: 'pat@acme.example', before: { role: viewer }, after: { role: admin } },
    ]);
    expect(by('portal-access.contact.added')).toMatchObject([
      { objectId: 'new@acme.example', before: null, after: { role: viewer } },
    ]);
  });
});
