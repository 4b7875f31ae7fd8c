import type { BodyInput } from '@lp/contract/common/operation';
import { prefsApi } from '@lp/contract/prefs/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact } from '../../../harness/factories.ts';
import { acme, apiTest, type Caller, other as otherAccount } from '../../../test/api-fixture.ts';

type SavedView = BodyInput<typeof prefsApi.save>['tables'][number];

const test = apiTest
  .extend('viewer', { scope: 'file' }, async ({ database, cast: _accounts, signIn }) => {
    await addContact(database.db, acme.customerNumber, 'viewer@acme.example', contactRoles.viewer);
    return signIn('viewer@acme.example');
  })
  .extend('other', { scope: 'file' }, async ({ database, cast: _accounts, signIn }) => {
    await addContact(database.db, acme.customerNumber, 'other@acme.example', contactRoles.admin);
    return signIn('other@acme.example');
  })
  .extend('calls', { scope: 'file' }, async ({ api }) => ({
    save: (who: Caller, tables: unknown[]) => api.call(who, prefsApi.save, { tables }),
    load: async (who: Caller) => (await api.ok(who, prefsApi.list, undefined)).data,
  }));

const view: SavedView = {
  customerNumber: acme.customerNumber,
  tableName: 'emailList',
  filterModel: { subject: { filterType: 'text', type: 'contains', filter: 'license' } },
  sortModel: [{ colId: 'date', sort: 'desc', sortIndex: 0 }],
  columnOrder: [
    { colId: 'date', sort: 'desc', sortIndex: 0, hide: false },
    { colId: 'subject', sort: null, hide: false },
  ],
};

describe('saved table views', () => {
  test('stores a view per user, customer and table and returns it', async ({
    viewer,
    other,
    calls: { save, load },
  }) => {
    expect((await save(viewer, [view])).json()).toEqual({ status: 'SUCCESS' });
    expect(await load(viewer)).toEqual([view]);
    // Views are personal: another user of the same account does not see it.
    expect(await load(other)).toEqual([]);
  });

  test('replaces a view on save and keeps date range and active-only fields', async ({
    viewer,
    calls: { save, load },
  }) => {
    const usage = { ...view, tableName: 'UsageTransactions', dateRange: '1 Month', activeOnly: true };
    await save(viewer, [usage, { ...view, sortModel: [] }]);
    const saved = await load(viewer);
    expect(saved).toHaveLength(2);
    expect(saved.find((p) => p.tableName === 'UsageTransactions')).toMatchObject({
      dateRange: '1 Month',
      activeOnly: true,
    });
    expect(saved.find((p) => p.tableName === 'emailList')?.sortModel).toEqual([]);
  });

  test('resets (deletes) a view saved with no filter, sort or columns', async ({
    viewer,
    calls: { save, load },
  }) => {
    await save(viewer, [
      {
        customerNumber: acme.customerNumber,
        tableName: 'emailList',
        filterModel: {},
        sortModel: [],
        columnOrder: [],
      },
    ]);
    expect((await load(viewer)).map((p) => p.tableName)).toEqual(['UsageTransactions']);
  });

  test('refuses bad payloads with a 400 naming the field', async ({ viewer, calls: { save } }) => {
    const bad = [
      [{ ...view, tableName: 'nope' }],
      [{ ...view, sortModel: [{ colId: 'date', sort: 'sideways' }] }],
      [{ ...view, columnOrder: 'date' }],
      [],
    ];
    for (const tables of bad) {
      const res = await save(viewer, tables);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        status: 'FAILURE',
        err: expect.stringContaining('Invalid request'),
      });
    }
  });

  test('refuses views for an account the user cannot see, and stores nothing of the request', async ({
    viewer,
    calls: { save, load },
  }) => {
    const res = await save(viewer, [view, { ...view, customerNumber: otherAccount.customerNumber }]);
    expect(res.statusCode).toBe(403);
    expect((await load(viewer)).map((p) => p.tableName)).toEqual(['UsageTransactions']);
  });
});
