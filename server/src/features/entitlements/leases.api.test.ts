import { messages } from '@lp/contract/common/errors';
import { leasesPageResponseSchema } from '@lp/contract/leases/schemas';
import { contactRoles } from '@lp/domain/policy';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { type entitlements, products } from '../../db/schema.ts';

const CN = '4400001';
const OTHER = '4400002';
const BLOCKED = '4400003';
const UNTYPED = '4400004';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let outsider: Headers;

const lease = (
  customerNumber: string,
  activationId: string,
  over: Partial<typeof entitlements.$inferInsert> = {},
) =>
  buildLease(database.db, customerNumber, activationId, {
    partNumber: 'SIM-1',
    quantity: 1200,
    endDate: day(100),
    ...over,
  });

const post = (url: string, headers: Headers | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });
const ids = async (url: string, body: object = {}) => {
  const res = await post(url, boss, { customerNumber: CN, type: 'SSL', state: 'Deployed', ...body });
  expect(res.statusCode).toBe(200);
  return leasesPageResponseSchema.parse(res.json()).data.map((r) => r.ActivationId);
};

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values([
    { partNumber: 'SIM-1', name: 'Solver', family: 'Platform', daemon: 'simlmd', featureName: 'solver' },
    {
      partNumber: 'FSA0030216',
      name: 'Flexible Spending Account Manual Drawdown',
      family: 'Platform',
      daemon: 'simlmd',
      featureName: 'fsa',
    },
  ]);
  ({ boss, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  await buildAccount(database.db, {
    customerNumber: BLOCKED,
    name: 'Blocked',
    exportControlStatus: 'Denied',
  });
  await addContact(database.db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  await buildAccount(database.db, { customerNumber: UNTYPED, name: 'Untyped', orgType: 'Undefined' });
  await addContact(database.db, UNTYPED, 'boss@acme.example', contactRoles.admin);
  await lease(CN, 'A-SOON', { endDate: day(10) });
  await lease(CN, 'A-LATER', { endDate: day(300), isEvaluation: true });
  await lease(CN, 'A-TODAY', { endDate: day(0) });
  await lease(CN, 'A-PERM', { endDate: null, versionDate: day(50), licenseModel: 'Network Borrow' });
  await lease(CN, 'I-EXPIRED', { startDate: day(-400), endDate: day(-1) });
  await lease(CN, 'I-FUTURE', { startDate: day(1), endDate: day(365) });
  await lease(CN, 'I-FUTURE-PERM', { startDate: day(5), endDate: null, versionDate: day(400) });
  await lease(CN, 'X-MANUAL', { partNumber: 'FSA0030216' });
  await lease(CN, 'X-OBSOLETE', { state: 'Obsolete' });
  await lease(CN, 'X-ELASTIC', { kind: 'ELASTIC', licenseModel: 'Elastic-AEU' });
  await lease(OTHER, 'O-1');
  await lease(BLOCKED, 'B-1');
  await lease(UNTYPED, 'U-1');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('leases and perpetuals', () => {
  it('splits active and inactive in SQL from today, sorted by expiration with perpetuals last', async () => {
    expect(await ids('/api/fetchEntitlements/active')).toEqual(['A-TODAY', 'A-SOON', 'A-LATER', 'A-PERM']);
    expect(await ids('/api/fetchEntitlements/inactive')).toEqual(['I-EXPIRED', 'I-FUTURE', 'I-FUTURE-PERM']);
    expect((await ids('/api/fetchEntitlements')).sort()).toEqual([
      'A-LATER',
      'A-PERM',
      'A-SOON',
      'A-TODAY',
      'I-EXPIRED',
      'I-FUTURE',
      'I-FUTURE-PERM',
    ]);
    const count = async (url: string) => (await post(url, boss, { customerNumber: CN })).json().data;
    expect(await count('/api/fetchEntitlementsActive/count')).toBe(4);
    expect(await count('/api/fetchEntitlementsInactive/count')).toBe(3);
    expect(await count('/api/fetchEntitlements/count')).toBe(7);
  });

  it('counts the rows a partial date filter finds: a month as a day range (issue 21, decision 052)', async () => {
    const month = day(10).slice(0, 7);
    const [y, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const filter = {
      condition: 'ALL',
      criteria: [{ name: 'EndDate', method: 'DAYRANGE', value: [`${month}-01`, last] }],
    };
    const ends: Record<string, string> = { 'A-TODAY': day(0), 'A-SOON': day(10), 'A-LATER': day(300) };
    const inMonth = Object.keys(ends).filter((id) => ends[id].startsWith(month));
    expect(await ids('/api/fetchEntitlements/active', { filter })).toEqual(inMonth);
    const count = await post('/api/fetchEntitlementsActive/count', boss, { customerNumber: CN, filter });
    expect(count.json().data).toBe(inMonth.length);
  });

  it("answers the spec's record fields", async () => {
    const res = await post('/api/fetchEntitlements/active', boss, {
      customerNumber: CN,
      filter: { condition: 'ALL', criteria: [{ name: 'ActivationId', method: 'EQUALS', value: 'A-PERM' }] },
    });
    expect(res.json().data).toEqual([
      {
        ActivationId: 'A-PERM',
        ProductName: 'Solver',
        PartNumber: 'SIM-1',
        LineItemQuantity: 1200,
        StartDate: day(-100),
        EndDate: null,
        LicenseModel: 'Network Borrow',
        VersionDate: day(50),
        IsActivationPermanent: 'true',
        Type: '',
        EntitlementName: 'A-PERM',
        EntitlementState: 'Deployed',
        meta_accountId: CN,
        Activated: 0,
      },
    ]);
  });

  it('filters, sorts and pages through the query engine', async () => {
    expect(
      await ids('/api/fetchEntitlements/active', {
        filter: { criteria: [{ name: 'Type', method: 'EQUALS', value: 'Evaluation' }] },
      }),
    ).toEqual(['A-LATER']);
    expect(
      await ids('/api/fetchEntitlements/inactive', {
        filter: { criteria: [{ name: 'EndDate', method: 'BEFOREDAY', value: day(0) }] },
      }),
    ).toEqual(['I-EXPIRED']);
    expect(
      await ids('/api/fetchEntitlements/active', {
        filter: {
          criteria: [{ name: 'EndDate', method: 'CONTAINS', value: day(10).slice(0, 7), tostring: true }],
        },
        sorting: [{ name: 'ActivationId', direction: 'DESC' }],
      }),
    ).toContain('A-SOON');
    expect(
      await ids('/api/fetchEntitlements/active', {
        sorting: [{ name: 'EndDate', direction: 'desc' }],
        limit: 2,
      }),
    ).toEqual(['A-PERM', 'A-LATER']);
    const distinct = await post('/api/fetchEntitlements/distinct', boss, {
      customerNumber: CN,
      key: 'LicenseModel',
    });
    expect(distinct.json().data).toEqual(['Network', 'Network Borrow']);
    const unknown = await post('/api/fetchEntitlements/active', boss, {
      customerNumber: CN,
      filter: { criteria: [{ name: 'price', method: 'EQUALS', value: 1 }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().status).toBe('FAILURE');
  });

  it('refuses outsiders, export-denied accounts and customer types that may not see leases', async () => {
    expect((await post('/api/fetchEntitlements/active', undefined, { customerNumber: CN })).statusCode).toBe(
      401,
    );
    const outside = await post('/api/fetchEntitlements/active', outsider, { customerNumber: CN });
    expect(outside.statusCode).toBe(403);
    expect(JSON.stringify(outside.json())).not.toContain('A-SOON');
    const blocked = await post('/api/fetchEntitlements/active', boss, { customerNumber: BLOCKED });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().err).toBe(messages.exportDenied);
    expect((await post('/api/fetchEntitlements/active', boss, { customerNumber: UNTYPED })).statusCode).toBe(
      403,
    );
    expect(
      (await post('/api/fetchEntitlements/active', boss, { customerNumber: CN, type: 'FSA' })).statusCode,
    ).toBe(400);
  });

  it("counts activated seats per activation id of the account's leases only", async () => {
    const created = await post('/api/fulfillments/create', boss, {
      customerNumber: CN,
      serverName: 'count1',
      serverId: '0a0b0c0d0e0f',
      serverIdType: 'ETHERNET',
      activations: [{ id: 'A-SOON', count: 7 }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const res = await post('/api/fulfillments/count', boss, {
      customerNumber: CN,
      activationId: ['A-SOON', 'A-LATER', 'O-1', 'nope', 'X-MANUAL', 'X-ELASTIC'],
    });
    // Other accounts' ids, the hidden drawdown product and other kinds are left out, as in the lease lists.
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { 'A-SOON': 7, 'A-LATER': 0 } });
    const untyped = await post('/api/fulfillments/count', boss, {
      customerNumber: UNTYPED,
      activationId: ['x'],
    });
    expect(untyped.statusCode).toBe(403);
  });
});
