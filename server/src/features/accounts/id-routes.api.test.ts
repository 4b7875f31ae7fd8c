import { randomUUID } from 'node:crypto';
import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLicenseServer } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { clsCredentials, emails } from '../../db/schema.ts';

let database: TestDatabase;
let app: FastifyInstance;
const headers: Record<string, Record<string, string>> = {};

const OPEN = '5200001';
const BLOCKED = '5200002';

async function addEmail(customerNumber: string): Promise<number> {
  const [row] = await database.db
    .insert(emails)
    .values({ customerNumber, to: 'ops@x.example', subject: 'Statement', body: '<p>hi</p>' })
    .returning();
  return row.id;
}

const elasticServers = new Set<string>();
async function addCredential(customerNumber: string): Promise<string> {
  const clsId = `CLS-${customerNumber}`;
  if (!elasticServers.has(clsId)) {
    await buildLicenseServer(database.db, customerNumber, { hostIdentity: clsId, kind: 'elastic' });
    elasticServers.add(clsId);
  }
  const [row] = await database.db
    .insert(clsCredentials)
    .values({ customerNumber, clsId, tokenHash: randomUUID(), createdBy: 'busops@vendor.example' })
    .returning();
  return row.id;
}

const deleteEmail = (id: number, who: string) =>
  app.inject({ method: 'DELETE', url: `/api/emails/${id}`, headers: headers[who] });
const revokeCredential = (id: string, who: string) =>
  app.inject({ method: 'DELETE', url: `/api/cls/credentials/${id}`, headers: headers[who] });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await buildAccount(database.db, { customerNumber: OPEN, name: 'Open Ltd' });
  await buildAccount(database.db, {
    customerNumber: BLOCKED,
    name: 'Blocked Ltd',
    exportControlStatus: 'Denied',
  });
  for (const role of ['busops', 'support'] as const) {
    headers[role] = (await signInAs(database.db, `${role}@vendor.example`, { vendorRoles: [role] })).headers;
  }
  await addContact(database.db, OPEN, 'boss@open.example', contactRoles.admin);
  headers.customer = (await signInAs(database.db, 'boss@open.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('routes that name an object by id pass the account gate of its account', () => {
  it('refuses deleting an e-mail of an export-denied account with the export text, and keeps it', async () => {
    const id = await addEmail(BLOCKED);
    for (const who of ['busops', 'support']) {
      const res = await deleteEmail(id, who);
      expect([who, res.statusCode, res.json()]).toEqual([
        who,
        403,
        { status: 'FAILURE', err: messages.exportDenied, code: 'FORBIDDEN' },
      ]);
    }
    expect(await database.db.select().from(emails).where(eq(emails.id, id))).toHaveLength(1);
  });

  it('refuses revoking a credential of an export-denied account with the export text, and keeps it valid', async () => {
    const id = await addCredential(BLOCKED);
    for (const who of ['busops', 'support']) {
      const res = await revokeCredential(id, who);
      expect([who, res.statusCode, res.json()]).toEqual([
        who,
        403,
        { status: 'FAILURE', err: messages.exportDenied, code: 'FORBIDDEN' },
      ]);
    }
    const [row] = await database.db.select().from(clsCredentials).where(eq(clsCredentials.id, id));
    expect(row.revokedAt).toBeNull();
  });

  it('tells users without a staff role nothing about ids, whoever owns them', async () => {
    const own = await addEmail(OPEN);
    const foreign = await addEmail(BLOCKED);
    const answers = await Promise.all(
      [own, foreign, foreign + 1_000_000].map(async (id) => {
        const res = await deleteEmail(id, 'customer');
        return [res.statusCode, res.json()];
      }),
    );
    expect(answers).toEqual(
      Array(3).fill([403, { status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' }]),
    );
    const credential = await addCredential(BLOCKED);
    for (const id of [credential, randomUUID()]) {
      expect((await revokeCredential(id, 'customer')).json()).toMatchObject({ err: messages.noPermission });
    }
  });

  it('still lets staff delete and revoke on an open account, and answers 404 to unknown ids', async () => {
    const emailId = await addEmail(OPEN);
    // Support staff are view-only on an ordinary account (decision 022): deletes are account writes.
    expect((await deleteEmail(emailId, 'support')).json()).toMatchObject({ err: messages.noPermission });
    expect((await deleteEmail(emailId, 'busops')).json()).toEqual({ status: 'SUCCESS' });
    expect((await deleteEmail(emailId, 'busops')).statusCode).toBe(404);
    const credentialId = await addCredential(OPEN);
    expect((await revokeCredential(credentialId, 'busops')).json()).toEqual({ status: 'SUCCESS' });
    expect((await revokeCredential(credentialId, 'busops')).statusCode).toBe(404);
    expect((await revokeCredential(randomUUID(), 'support')).statusCode).toBe(404);
  });

  it('covers every route addressed by an id (a new one must be added here with its gate)', () => {
    const gated = ['DELETE /api/emails/:id', 'DELETE /api/cls/credentials/:id'];
    // Service alerts are global: no account owns them (staff-only admin calls).
    const global = ['PUT /api/notifications/admin/:id', 'POST /api/notifications/admin/:id/resolve'];
    // API tokens belong to a user: the owner, staff, or the administrator of an account the owner is a contact of,
    // named in the body and gated there (api-tokens.api.test.ts); any other id answers like an unknown one.
    const userOwned = ['POST /api/tokens/:id/revoke'];
    // printRoutes draws a tree ("│   └── /:id/resolve (POST)" under its parent); a path is its branch joined.
    const named = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => {
      const branch: string[] = [];
      return app
        .printRoutes({ method, commonPrefix: false })
        .split('\n')
        .flatMap((line) => {
          const [, indent, part, methods] = /^([│├└─\s]*)(\S+)(?: \((.+)\))?$/.exec(line) ?? [];
          if (part === undefined) return [];
          branch.length = indent.length / 4;
          branch.push(part);
          const path = branch.join('');
          return methods && path.includes(':id') ? [`${method} ${path}`] : [];
        });
    });
    expect(named.sort()).toEqual([...gated, ...global, ...userOwned].sort());
  });
});
