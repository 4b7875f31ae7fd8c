import { featureFlagsApi } from '@lp/contract/featureflags/api';
import { describe, expect } from 'vitest';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { features } from '../../db/schema.ts';

/* Issue 13 §1: a staff member's saved feature selection is one vendor-wide audit entry with the list before and after. */

const test = apiTest
  .override('appEnv', { scope: 'file' }, { APP_ENVIRONMENT: 'dev' })
  .extend('staff', { scope: 'file' }, async ({ signIn }) =>
    signIn('dev@vendor.example', { vendorRoles: ['support'] }),
  )
  .extend('customer', { scope: 'file' }, async ({ signIn }) => signIn('user@acme.example'))
  .extend(
    'entries',
    { scope: 'file' },
    async ({ database }) =>
      () =>
        auditEntriesOf(database.db, 'featureflags.'),
  );

test.beforeAll(async ({ database }) => {
  await database.db.insert(features).values([
    { name: 'charts', description: 'Charts', enabled: false, conflicts: ['classic'] },
    { name: 'classic', description: 'Classic', enabled: false, conflicts: [] },
  ]);
});

describe('feature-flag audit', () => {
  test('refused saves (customer, unknown feature, conflicting pair) write nothing', async ({
    api,
    entries,
    staff,
    customer,
  }) => {
    await api.refused(customer, featureFlagsApi.save, { features: ['charts'] }, 403);
    await api.refused(staff, featureFlagsApi.save, { features: ['nope'] }, 400);
    await api.refused(staff, featureFlagsApi.save, { features: ['charts', 'classic'] }, 422);
    expect(await entries()).toEqual([]);
  });

  test('a save is one entry by the staff member; saving the same selection again writes none', async ({
    api,
    entries,
    staff,
  }) => {
    await api.ok(staff, featureFlagsApi.save, { features: ['charts'] });
    await api.ok(staff, featureFlagsApi.save, { features: ['charts'] });
    await api.ok(staff, featureFlagsApi.save, { features: ['classic'] });
    const rows = await entries();
    expect(rows).toHaveLength(2);
    const common = {
      customerNumber: null,
      actorKind: 'user',
      actorName: 'dev@vendor.example',
      action: 'featureflags.selection.saved',
      objectType: 'feature-selection',
      objectId: 'dev@vendor.example',
      requestId: expect.any(String),
      clientIp: expect.any(String),
    };
    expect(rows[0]).toMatchObject({ ...common, before: { enabled: null }, after: { enabled: ['charts'] } });
    expect(rows[1]).toMatchObject({
      ...common,
      before: { enabled: ['charts'] },
      after: { enabled: ['classic'] },
    });
  });
});
