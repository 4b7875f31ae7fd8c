import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

let database: TestDatabase;
let app: FastifyInstance;
let viewer: Record<string, string>;
let other: Record<string, string>;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await buildAccount(database.db, { customerNumber: '2000001', name: 'Acme' });
  await buildAccount(database.db, { customerNumber: '2000002', name: 'Other' });
  await addContact(database.db, '2000001', 'viewer@acme.example', contactRoles.viewer);
  await addContact(database.db, '2000001', 'other@acme.example', contactRoles.admin);
  viewer = (await signInAs(database.db, 'viewer@acme.example')).headers;
  other = (await signInAs(database.db, 'other@acme.example')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const save = (headers: Record<string, string>, tables: unknown[]) =>
  app.inject({ method: 'POST', url: '/api/featureflag/pref', headers, payload: { tables } });
const load = async (headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/api/featureflag/pref', headers })).json().data;

const view = {
  customerNumber: '2000001',
  tableName: 'emailList',
  filterModel: { subject: { filterType: 'text', type: 'contains', filter: 'license' } },
  sortModel: [{ colId: 'date', sort: 'desc', sortIndex: 0 }],
  columnOrder: [
    { colId: 'date', sort: 'desc', sortIndex: 0, hide: false },
    { colId: 'subject', sort: null, hide: false },
  ],
};

describe('saved table views', () => {
  it('stores a view per user, customer and table and returns it', async () => {
    expect((await save(viewer, [view])).json()).toEqual({ status: 'SUCCESS' });
    expect(await load(viewer)).toEqual([view]);
    // Views are personal: another user of the same account does not see it.
    expect(await load(other)).toEqual([]);
  });

  it('replaces a view on save and keeps date range and active-only fields', async () => {
    const usage = { ...view, tableName: 'UsageTransactions', dateRange: '1 Month', activeOnly: true };
    await save(viewer, [usage, { ...view, sortModel: [] }]);
    const saved = await load(viewer);
    expect(saved).toHaveLength(2);
    expect(saved.find((p: { tableName: string }) => p.tableName === 'UsageTransactions')).toMatchObject({
      dateRange: '1 Month',
      activeOnly: true,
    });
    expect(saved.find((p: { tableName: string }) => p.tableName === 'emailList').sortModel).toEqual([]);
  });

  it('resets (deletes) a view saved with no filter, sort or columns', async () => {
    await save(viewer, [
      { customerNumber: '2000001', tableName: 'emailList', filterModel: {}, sortModel: [], columnOrder: [] },
    ]);
    expect((await load(viewer)).map((p: { tableName: string }) => p.tableName)).toEqual([
      'UsageTransactions',
    ]);
  });

  it('refuses bad payloads with a 400 naming the field', async () => {
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

  it('refuses views for an account the user cannot see, and stores nothing of the request', async () => {
    const res = await save(viewer, [view, { ...view, customerNumber: '2000002' }]);
    expect(res.statusCode).toBe(403);
    expect((await load(viewer)).map((p: { tableName: string }) => p.tableName)).toEqual([
      'UsageTransactions',
    ]);
  });
});
