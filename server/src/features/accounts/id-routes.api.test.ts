import { randomUUID } from 'node:crypto';
import { clsApi } from '@lp/contract/cls/api';
import { messages } from '@lp/contract/common/errors';
import { emailsApi } from '@lp/contract/emails/api';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { buildAccount, buildLicenseServer } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { clsCredentials, emails } from '../../db/schema.ts';

/** Acme (the cast's) is an open account, its admin (boss) a customer user without a staff role. */
const OPEN = acme.customerNumber;
const BLOCKED = '5200002';

const it = apiTest
  /** Adds an e-mail record or a server credential of an account: the objects the routes name by id. */
  .extend('add', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    const { db } = database;
    await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
    const elasticServers = new Set<string>();
    return {
      email: async (customerNumber: string): Promise<number> => {
        const [row] = await db
          .insert(emails)
          .values({ customerNumber, to: 'ops@x.example', subject: 'Statement', body: '<p>hi</p>' })
          .returning();
        return row.id;
      },
      credential: async (customerNumber: string): Promise<string> => {
        const clsId = `CLS-${customerNumber}`;
        if (!elasticServers.has(clsId)) {
          await buildLicenseServer(db, customerNumber, { hostIdentity: clsId, kind: 'elastic' });
          elasticServers.add(clsId);
        }
        const [row] = await db
          .insert(clsCredentials)
          .values({
            customerNumber,
            elasticServerId: clsId,
            tokenHash: randomUUID(),
            createdBy: 'busops@vendor.example',
          })
          .returning();
        return row.id;
      },
    };
  });

const exportDenied = { status: 'FAILURE', err: messages.exportDenied, code: 'FORBIDDEN' };

describe('routes that name an object by id pass the account gate of its account', () => {
  it('refuses deleting an e-mail of an export-denied account with the export text, and keeps it', async ({
    api,
    database,
    cast,
    add,
  }) => {
    const id = await add.email(BLOCKED);
    for (const who of [cast.busops, cast.support]) {
      const refusal = await api.refused(who, emailsApi.remove, { params: { id } }, 403);
      expect(refusal, who.email).toEqual(exportDenied);
    }
    expect(await database.db.select().from(emails).where(eq(emails.id, id))).toHaveLength(1);
  });

  it('refuses revoking a credential of an export-denied account with the export text, and keeps it valid', async ({
    api,
    database,
    cast,
    add,
  }) => {
    const id = await add.credential(BLOCKED);
    for (const who of [cast.busops, cast.support]) {
      const refusal = await api.refused(who, clsApi.revokeCredential, { params: { id } }, 403);
      expect(refusal, who.email).toEqual(exportDenied);
    }
    const [row] = await database.db.select().from(clsCredentials).where(eq(clsCredentials.id, id));
    expect(row.revokedAt).toBeNull();
  });

  it('tells users without a staff role nothing about ids, whoever owns them', async ({
    api,
    cast: { boss: customer },
    add,
  }) => {
    const own = await add.email(OPEN);
    const foreign = await add.email(BLOCKED);
    const answers = await Promise.all(
      [own, foreign, foreign + 1_000_000].map((id) =>
        api.refused(customer, emailsApi.remove, { params: { id } }, 403),
      ),
    );
    expect(answers).toEqual(
      Array(3).fill({ status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' }),
    );
    const credential = await add.credential(BLOCKED);
    for (const id of [credential, randomUUID()]) {
      const refusal = await api.refused(customer, clsApi.revokeCredential, { params: { id } });
      expect(refusal).toMatchObject({ err: messages.noPermission });
    }
  });

  it('still lets staff delete and revoke on an open account, and answers 404 to unknown ids', async ({
    api,
    cast: { busops, support },
    add,
  }) => {
    const emailId = { params: { id: String(await add.email(OPEN)) } };
    // Support staff are view-only on an ordinary account (decision 022): deletes are account writes.
    expect(await api.refused(support, emailsApi.remove, emailId)).toMatchObject({
      err: messages.noPermission,
    });
    expect(await api.ok(busops, emailsApi.remove, emailId)).toEqual({ status: 'SUCCESS' });
    await api.refused(busops, emailsApi.remove, emailId, 404);
    const credentialId = { params: { id: await add.credential(OPEN) } };
    expect(await api.ok(busops, clsApi.revokeCredential, credentialId)).toEqual({ status: 'SUCCESS' });
    await api.refused(busops, clsApi.revokeCredential, credentialId, 404);
    await api.refused(support, clsApi.revokeCredential, { params: { id: randomUUID() } }, 404);
  });

  it('covers every route addressed by an id (a new one must be added here with its gate)', ({ app }) => {
    const gated = ['DELETE /api/emails/:id', 'DELETE /api/cls/credentials/:id'];
    // Service alerts are global: no account owns them (staff-only admin calls).
    const global = ['PUT /api/notifications/admin/:id', 'POST /api/notifications/admin/:id/resolve'];
    // API tokens belong to a user: the owner, staff, or the administrator of an account the owner is a contact of,
    // named in the body and gated there (api-tokens.api.test.ts); any other id answers like an unknown one.
    const userOwned = ['POST /api/tokens/:id/revoke'];
    // SCIM resources are addressed inside their account's path and answered only to a token of that account; another
    // account's id answers 404 (scim.api.test.ts). Discovery ids are the endpoint's own, not an account's.
    const scim = [
      ...['GET', 'PUT', 'PATCH', 'DELETE'].flatMap((m) => [
        `${m} /scim/v2/:customerNumber/Users/:id`,
        `${m} /scim/v2/:customerNumber/Groups/:id`,
      ]),
      'GET /scim/v2/:customerNumber/ResourceTypes/:id',
      'GET /scim/v2/:customerNumber/Schemas/:id',
    ];
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
    expect(named.sort()).toEqual([...gated, ...global, ...userOwned, ...scim].sort());
  });
});
