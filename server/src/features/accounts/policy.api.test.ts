import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { principalOf as person } from '../../../test/principal.ts';
import type { AppContext } from '../../platform/context.ts';
import { authorizeAccount } from './policy.ts';

/** The account gate, called directly on the file's database (no app). */
const it = apiTest.extend('ctx', { scope: 'file' }, async ({ database }) => {
  const { db } = database;
  await buildAccount(db, { customerNumber: '3000001', name: 'Acme' });
  await buildAccount(db, { customerNumber: '3000002', name: 'Blocked', exportControlStatus: 'Denied' });
  await buildAccount(db, { customerNumber: '3000003', name: 'Indirect', orgType: 'Indirect' });
  await buildEntitlement(db, '3000001', { kind: 'SSL' });
  await addContact(db, '3000001', 'viewer@acme.example', contactRoles.viewer);
  await addContact(db, '3000001', 'admin@acme.example', contactRoles.admin);
  await addContact(db, '3000003', 'admin@acme.example', contactRoles.admin);
  await addContact(db, '3000002', 'admin@acme.example', contactRoles.admin);
  return { db } as AppContext;
});

const denied = (p: Promise<unknown>, message: string) =>
  expect(p).rejects.toMatchObject({ code: 'FORBIDDEN', message });

describe('authorizeAccount', () => {
  it('lets a viewer read but not write', async ({ ctx }) => {
    await expect(
      authorizeAccount(ctx, person('viewer@acme.example'), '3000001', 'read'),
    ).resolves.toBeDefined();
    await denied(
      authorizeAccount(ctx, person('viewer@acme.example'), '3000001', 'edit'),
      messages.noPermission,
    );
    await denied(
      authorizeAccount(ctx, person('viewer@acme.example'), '3000001', 'activate'),
      messages.noPermission,
    );
  });

  it('lets an administrator write and activate when the account has SSL entitlements', async ({ ctx }) => {
    await expect(
      authorizeAccount(ctx, person('admin@acme.example'), '3000001', 'edit'),
    ).resolves.toBeDefined();
    await expect(
      authorizeAccount(ctx, person('admin@acme.example'), '3000001', 'activate'),
    ).resolves.toBeDefined();
    await denied(
      authorizeAccount(ctx, person('admin@acme.example'), '3000003', 'activate'),
      messages.noPermission,
    );
  });

  it('keeps support staff view-only and busops able to write anywhere', async ({ ctx }) => {
    await denied(
      authorizeAccount(ctx, person('s@vendor.example', ['support']), '3000001', 'edit'),
      messages.noPermission,
    );
    await expect(
      authorizeAccount(ctx, person('b@vendor.example', ['busops']), '3000003', 'edit'),
    ).resolves.toBeDefined();
  });

  it('blocks every data action on an export-controlled account, but not the info', async ({ ctx }) => {
    await denied(
      authorizeAccount(ctx, person('admin@acme.example'), '3000002', 'read'),
      messages.exportDenied,
    );
    await denied(
      authorizeAccount(ctx, person('b@vendor.example', ['busops']), '3000002', 'read'),
      messages.exportDenied,
    );
    const info = await authorizeAccount(ctx, person('admin@acme.example'), '3000002', 'info');
    expect(info.permissions.exportBlocked).toBe(true);
  });

  it('refuses e-mails for indirect customers', async ({ ctx }) => {
    await denied(
      authorizeAccount(ctx, person('admin@acme.example'), '3000003', 'emails'),
      messages.noPermission,
    );
  });

  it('gives outsiders the page-permission message whether or not the account exists', async ({ ctx }) => {
    await denied(
      authorizeAccount(ctx, person('viewer@acme.example'), '3000003', 'info'),
      messages.noPermissionPage,
    );
    await denied(
      authorizeAccount(ctx, person('viewer@acme.example'), '0000000', 'info'),
      messages.noPermissionPage,
    );
  });
});
