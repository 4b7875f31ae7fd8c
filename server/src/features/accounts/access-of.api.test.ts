import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { principalOf as person } from '../../../test/principal.ts';
import type { Db } from '../../db/database.ts';
import { portalContacts } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { accessOf, authorizeAccount, permitAccount, permits } from './policy.ts';

/** The account gate over many accounts (issue 23 §2, decision 063): one statement, and inside a caller's transaction. */

const ADMIN = 'gate-admin@acme.example';

/** `db` with every statement it prepares counted: what the gate costs, seen from the database's side. */
function counting(db: Db) {
  const counter = { statements: 0 };
  const session = new Proxy((db as unknown as { session: object }).session, {
    get(target, p, receiver) {
      const value = Reflect.get(target, p, receiver);
      if (p !== 'prepareQuery' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counter.statements += 1;
        return value.apply(target, args);
      };
    },
  });
  const counted = new Proxy(db, { get: (t, p) => (p === 'session' ? session : Reflect.get(t, p)) });
  return { db: counted, counter };
}

/** The file's database (no app) with the accounts of the gate's cases; 3100005 is not the user's account. */
const it = apiTest.extend('db', { scope: 'file' }, async ({ database }) => {
  const { db } = database;
  for (const [cn, over] of [
    ['3100001', {}],
    ['3100002', {}],
    ['3100003', { exportControlStatus: 'Denied' }],
    ['3100004', {}],
    ['3100005', {}],
  ] as const)
    await buildAccount(db, { customerNumber: cn, name: `Gate ${cn}`, ...over });
  for (const cn of ['3100001', '3100003', '3100004']) await buildEntitlement(db, cn, { kind: 'SSL' });
  await buildEntitlement(db, '3100002', { kind: 'FSA' });
  await addContact(db, '3100001', ADMIN, contactRoles.admin);
  await addContact(db, '3100002', ADMIN, contactRoles.admin);
  await addContact(db, '3100003', ADMIN, contactRoles.admin);
  await addContact(db, '3100004', ADMIN, contactRoles.viewer);
  return db;
});

describe('accessOf', () => {
  it('answers every account of a list with one statement, as the gate answers each alone', async ({ db }) => {
    const accounts = ['3100001', '3100002', '3100003', '3100004', '3100005', '3199999'];
    const { db: counted, counter } = counting(db);
    const access = await accessOf(counted, person(ADMIN), accounts);
    expect(counter.statements).toBe(1);
    expect([...access.keys()].sort()).toEqual(['3100001', '3100002', '3100003', '3100004']);
    const ctx = { db } as AppContext;
    for (const cn of ['3100001', '3100002', '3100003', '3100004'])
      expect(access.get(cn)).toEqual(await authorizeAccount(ctx, person(ADMIN), cn, 'info'));
    expect(accounts.filter((cn) => permits(access.get(cn), 'activate'))).toEqual(['3100001']);
    expect(() => permitAccount(access, '3100005', 'read')).toThrow(messages.noPermissionPage);
    expect(() => permitAccount(access, '3100003', 'read')).toThrow(messages.exportDenied);
    expect(() => permitAccount(access, '3100004', 'edit')).toThrow(messages.noPermission);
  });

  it('runs inside a caller transaction and sees what it changed (a membership revoked there is gone)', async ({
    db,
  }) => {
    // The transaction is undone by throwing, carrying out what the gate answered inside it.
    const inside = await db
      .transaction(async (tx) => {
        await tx
          .delete(portalContacts)
          .where(and(eq(portalContacts.customerNumber, '3100002'), eq(portalContacts.email, ADMIN)));
        const access = await accessOf(tx as unknown as Db, person(ADMIN), ['3100001', '3100002']);
        throw Object.assign(new Error('undo'), { keys: [...access.keys()] });
      })
      .catch((e: { keys?: string[] }) => e.keys);
    expect(inside).toEqual(['3100001']);
    expect([...(await accessOf(db, person(ADMIN), ['3100002'])).keys()]).toEqual(['3100002']);
  });

  it('vendor staff see every existing account, without a contact role', async ({ db }) => {
    const access = await accessOf(db, person('staff@vendor.example', ['busops']), ['3100005', '3199999']);
    expect([...access.keys()]).toEqual(['3100005']);
  });
});
