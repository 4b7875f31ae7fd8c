import { featureFlagsApi } from '@lp/contract/featureflags/api';
import { describe, expect } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { anonymous, apiOf, apiTest } from '../../../test/api-fixture.ts';
import { features } from '../../db/schema.ts';

const test = apiTest
  .override('appEnv', { scope: 'file' }, { APP_ENVIRONMENT: 'dev' })
  /** The same database served as production, where the selection is fixed. */
  .extend('prodApi', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    const prodApp = await createTestApp(database, {
      APP_ENVIRONMENT: 'prod',
      PUBLIC_URL: 'https://portal.example.com',
    });
    onCleanup(() => prodApp.close());
    return apiOf(prodApp);
  })
  .extend('staff', { scope: 'file' }, async ({ signIn }) =>
    signIn('dev@vendor.example', { vendorRoles: ['support'] }),
  )
  .extend('otherStaff', { scope: 'file' }, async ({ signIn }) =>
    signIn('ops@vendor.example', { vendorRoles: ['busops'] }),
  )
  .extend('customer', { scope: 'file' }, async ({ signIn }) => signIn('user@acme.example'));

test.beforeAll(async ({ database }) => {
  await database.db.insert(features).values([
    { name: 'elastic', description: 'Route /elastic', enabled: true, conflicts: [] },
    { name: 'emails', description: 'Route /emails', enabled: true, conflicts: [] },
    { name: 'charts', description: 'Charts', enabled: false, conflicts: ['classic'] },
    // One-sided on purpose: a conflict listed by either side counts.
    { name: 'classic', description: 'Classic', enabled: false, conflicts: [] },
  ]);
});

describe('feature flags', () => {
  test('refuses anonymous calls with 401', async ({ api }) => {
    await api.refused(anonymous, featureFlagsApi.list, undefined, 401);
    await api.refused(anonymous, featureFlagsApi.save, { features: [] }, 401, {
      headers: { 'x-lp-csrf': '1' },
    });
  });

  test('lists the features with the default set in force', async ({ api, staff, customer }) => {
    const body = await api.ok(staff, featureFlagsApi.list, undefined);
    expect(body.status).toBe('SUCCESS');
    expect(body.data.features).toContainEqual({
      name: 'charts',
      description: 'Charts',
      enabled: false,
      conflicts: ['classic'],
    });
    expect(body.data.enabled).toEqual(['elastic', 'emails']);
    expect(body.data.overridable).toBe(true);
    expect((await api.ok(customer, featureFlagsApi.list, undefined)).data.overridable).toBe(false);
  });

  test('saves a user set that then replaces the defaults for that user only', async ({
    api,
    staff,
    otherStaff,
  }) => {
    const res = await api.ok(staff, featureFlagsApi.save, { features: ['elastic', 'charts', 'elastic'] });
    expect(res).toEqual({ status: 'SUCCESS', data: { enabled: ['charts', 'elastic'] } });
    expect((await api.ok(staff, featureFlagsApi.list, undefined)).data.enabled).toEqual([
      'charts',
      'elastic',
    ]);
    expect((await api.ok(otherStaff, featureFlagsApi.list, undefined)).data.enabled).toEqual([
      'elastic',
      'emails',
    ]);
    // An empty set is a valid choice, not "back to defaults".
    await api.ok(otherStaff, featureFlagsApi.save, { features: [] });
    expect((await api.ok(otherStaff, featureFlagsApi.list, undefined)).data.enabled).toEqual([]);
  });

  test('rejects unknown names and bad bodies with 400', async ({ api, staff }) => {
    const refusal = await api.refused(staff, featureFlagsApi.save, { features: ['elastic', 'nope'] }, 400);
    expect(refusal).toMatchObject({ status: 'FAILURE', err: 'Unknown feature: nope' });
    await api.refused(staff, featureFlagsApi.save, { features: 'elastic' }, 400);
    await api.refused(staff, featureFlagsApi.save, {}, 400);
  });

  test('refuses a conflicting set with 422 and keeps the saved one', async ({ api, staff }) => {
    const refusal = await api.refused(staff, featureFlagsApi.save, { features: ['classic', 'charts'] }, 422);
    expect(refusal).toMatchObject({
      status: 'FAILURE',
      code: 'UNPROCESSABLE',
      err: 'Selections are in conflict. Deselect one or more option. Conflicting: charts and classic.',
    });
    expect((await api.ok(staff, featureFlagsApi.list, undefined)).data.enabled).toEqual([
      'charts',
      'elastic',
    ]);
  });

  test('refuses overrides from customer users', async ({ api, customer }) => {
    await api.refused(customer, featureFlagsApi.save, { features: ['elastic'] }, 403);
  });

  test('refuses overrides in production and ignores sets saved before', async ({ prodApi, staff }) => {
    const refusal = await prodApi.refused(staff, featureFlagsApi.save, { features: ['elastic'] }, 403);
    expect(refusal.err).toBe('Feature flags cannot be changed in production.');
    const { data } = await prodApi.ok(staff, featureFlagsApi.list, undefined);
    expect(data.enabled).toEqual(['elastic', 'emails']);
    expect(data.overridable).toBe(false);
  });
});
