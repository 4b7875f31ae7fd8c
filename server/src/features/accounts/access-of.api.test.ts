import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import type { Db } from '../../db/database.ts';
import { portalContacts } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { accessOf, authorizeAccount, permitAccount, permits } from './policy.ts';

/** The account gate over many accounts (issue 23 §2, decision 063): one statement, and inside a caller's transaction. */

let database: TestDatabase;
const person = (email: string, vendorRoles: Principal['vendorRoles'] = []): Principal => ({
  userId: '00000000-0000-0000-0000-000000000000',
  email,
  name: email,
  vendorRoles,
  via: 'session',
});
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

beforeAll(async () => {
  database = await createTestDatabase();
  for (const [cn, over] of [
    ['3100001', {}],
    ['3100002', {}],
    ['3100003', { exportControlStatus: 'Denied' }],
    ['3100004', {}],
    ['3100005', {}],
  ] as const)
    await buildAccount(database.db, { customerNumber: cn, name: `Gate ${cn}`, ...over });
  for (const cn of ['3100001', '3100003', '3100004'])
    await buildEntitlement(database.db, cn, { kind: 'SSL' });
  await buildEntitlement(database.db, '3100002', { kind: 'FSA' });
  await addContact(database.db, '3100001', ADMIN, contactRoles.admin);
  await addContact(database.db, '3100002', ADMIN, contactRoles.admin);
  await addContact(database.db, '3100003', ADMIN, contactRoles.admin);
  await addContact(database.db, '3100004', ADMIN, contactRoles.viewer);
  // 3100005: not the user's account.
});

afterAll(async () => database?.close());

describe('accessOf', () => {
  it('answers every account of a list with one statement, as the gate answers each alone', async () => {
    const accounts = ['3100001', '3100002', '3100003', '3100004', '3100005', '3199999'];
    const { db, counter } = counting(database.db);
    const access = await accessOf(db, person(ADMIN), accounts);
    expect(counter.statements).toBe(1);
    expect([...access.keys()].sort()).toEqual(['3100001', '3100002', '3100003', '3100004']);
    const ctx = { db: database.db } as AppContext;
    for (const cn of ['3100001', '3100002', '3100003', '3100004'])
      expect(access.get(cn)).toEqual(await authorizeAccount(ctx, person(ADMIN), cn, 'info'));
    expect(accounts.filter((cn) => permits(access.get(cn), 'activate'))).toEqual(['3100001']);
    expect(() => permitAccount(access, '3100005', 'read')).toThrow(messages.noPermissionPage);
    expect(() => permitAccount(access, '3100003', 'read')).toThrow(messages.exportDenied);
    expect(() => permitAccount(access, '3100004', 'edit')).toThrow(messages.noPermission);
  });

  it('runs inside a caller transaction and sees what it changed (a membership revoked there is gone)', async () => {
    // The transaction is undone by throwing, carrying out what the gate answered inside it.
    const inside = await database.db
      .transaction(async (tx) => {
        await tx
          .delete(portalContacts)
          .where(and(eq(portalContacts.customerNumber, '3100002'), eq(portalContacts.email, ADMIN)));
        const access = await accessOf(tx as unknown as Db, person(ADMIN), ['3100001', '3100002']);
        throw Object.assign(new Error('undo'), { keys: [...access.keys()] });
      })
      .catch((e: { keys?: string[] }) => e.keys);
    expect(inside).toEqual(['3100001']);
    expect([...(await accessOf(database.db, person(ADMIN), ['3100002'])).keys()]).toEqual(['3100002']);
  });

  it('vendor staff see every existing account, without a contact role', async () => {
    const access = await accessOf(database.db, person('staff@vendor.example', ['busops']), [
      '3100005',
      '3199999',
    ]);
    expect([...access.keys()]).toEqual(['3100005']);
  });
});
