import { activationsApi } from '@lp/contract/activations/api';
import { messages } from '@lp/contract/common/errors';
import type { BodyInput } from '@lp/contract/common/operation';
import { leasesApi } from '@lp/contract/leases/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, other } from '../../../test/api-fixture.ts';
import { type entitlements, products } from '../../db/schema.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const BLOCKED = '4100003';
const UNTYPED = '4100004';
const GENERATOR = '4100005';

type LeasePage = typeof leasesApi.active | typeof leasesApi.inactive | typeof leasesApi.page;

/** The activation ids of a page of leases as the boss reads it (SSL, Deployed unless told otherwise). */
const test = apiTest.extend('ids', { scope: 'file' }, async ({ api, cast: { boss } }) => {
  return async (operation: LeasePage, body: Partial<BodyInput<LeasePage>> = {}) =>
    (await api.ok(boss, operation, { customerNumber: CN, type: 'SSL', state: 'Deployed', ...body })).data.map(
      (r) => r.ActivationId,
    );
});

test.beforeAll(async ({ database, cast: { boss } }) => {
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
  await buildAccount(database.db, {
    customerNumber: BLOCKED,
    name: 'Blocked',
    exportControlStatus: 'Denied',
  });
  await addContact(database.db, BLOCKED, boss.email, contactRoles.admin);
  await buildAccount(database.db, { customerNumber: UNTYPED, name: 'Untyped', orgType: 'Undefined' });
  await addContact(database.db, UNTYPED, boss.email, contactRoles.admin);
  // A license generator: self-serve licensing is off, so no leases (issue 21: the menu's and the page's rule).
  await buildAccount(database.db, {
    customerNumber: GENERATOR,
    name: 'Generator',
    isFnpLicenseGenerator: true,
  });
  await addContact(database.db, GENERATOR, boss.email, contactRoles.admin);
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
  await lease(GENERATOR, 'G-1');
});

describe('leases and perpetuals', () => {
  test('splits active and inactive in SQL from today, sorted by expiration with perpetuals last', async ({
    api,
    ids,
    cast: { boss },
  }) => {
    expect(await ids(leasesApi.active)).toEqual(['A-TODAY', 'A-SOON', 'A-LATER', 'A-PERM']);
    expect(await ids(leasesApi.inactive)).toEqual(['I-EXPIRED', 'I-FUTURE', 'I-FUTURE-PERM']);
    expect((await ids(leasesApi.page)).sort()).toEqual([
      'A-LATER',
      'A-PERM',
      'A-SOON',
      'A-TODAY',
      'I-EXPIRED',
      'I-FUTURE',
      'I-FUTURE-PERM',
    ]);
    const count = async (operation: typeof leasesApi.activeCount | typeof leasesApi.inactiveCount) =>
      (await api.ok(boss, operation, { customerNumber: CN })).data;
    expect(await count(leasesApi.activeCount)).toBe(4);
    expect(await count(leasesApi.inactiveCount)).toBe(3);
    expect((await api.ok(boss, leasesApi.count, { customerNumber: CN })).data).toBe(7);
  });

  test("finds perpetuals by their missing end date and a perpetual by its maintenance day (the page's PERMANENT and Maintenance filters)", async ({
    api,
    ids,
    cast: { boss },
  }) => {
    // As the page asks: no end date among the started ones (PERMANENT), the maintenance day (Maintenance ends on).
    const started = { name: 'StartDate', method: 'AFTERDAY' as const, value: day(0), not: true };
    const permanent = () => ({
      criteria: [{ name: 'EndDate', method: 'ISDEFINED' as const, value: false }, started],
    });
    expect(await ids(leasesApi.active, { filter: permanent() })).toEqual(['A-PERM']);
    expect(await ids(leasesApi.inactive, { filter: permanent() })).toEqual([]);
    expect(
      (await api.ok(boss, leasesApi.activeCount, { customerNumber: CN, filter: permanent() })).data,
    ).toBe(1);
    const maintenance = () => ({
      criteria: [{ name: 'VersionDate', method: 'DAYRANGE' as const, value: [day(50), day(50)] }],
    });
    expect(await ids(leasesApi.active, { filter: maintenance() })).toEqual(['A-PERM']);
    expect(await ids(leasesApi.inactive, { filter: maintenance() })).toEqual([]);
  });

  test('counts the rows a partial date filter finds: a month as a day range (issue 21, decision 052)', async ({
    api,
    ids,
    cast: { boss },
  }) => {
    const month = day(10).slice(0, 7);
    const [y, m] = month.split('-').map(Number);
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const filter = {
      condition: 'ALL' as const,
      criteria: [{ name: 'EndDate', method: 'DAYRANGE' as const, value: [`${month}-01`, last] }],
    };
    const ends: Record<string, string> = { 'A-TODAY': day(0), 'A-SOON': day(10), 'A-LATER': day(300) };
    const inMonth = Object.keys(ends).filter((id) => ends[id].startsWith(month));
    expect(await ids(leasesApi.active, { filter })).toEqual(inMonth);
    const count = await api.ok(boss, leasesApi.activeCount, { customerNumber: CN, filter });
    expect(count.data).toBe(inMonth.length);
  });

  test("answers the spec's record fields", async ({ api, cast: { boss } }) => {
    const res = await api.ok(boss, leasesApi.active, {
      customerNumber: CN,
      filter: { condition: 'ALL', criteria: [{ name: 'ActivationId', method: 'EQUALS', value: 'A-PERM' }] },
    });
    expect(res.data).toEqual([
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

  test('filters, sorts and pages through the query engine', async ({ api, ids, cast: { boss } }) => {
    expect(
      await ids(leasesApi.active, {
        filter: { criteria: [{ name: 'Type', method: 'EQUALS', value: 'Evaluation' }] },
      }),
    ).toEqual(['A-LATER']);
    expect(
      await ids(leasesApi.inactive, {
        filter: { criteria: [{ name: 'EndDate', method: 'BEFOREDAY', value: day(0) }] },
      }),
    ).toEqual(['I-EXPIRED']);
    expect(
      await ids(leasesApi.active, {
        filter: {
          criteria: [{ name: 'EndDate', method: 'CONTAINS', value: day(10).slice(0, 7), tostring: true }],
        },
        sorting: [{ name: 'ActivationId', direction: 'DESC' }],
      }),
    ).toContain('A-SOON');
    expect(
      await ids(leasesApi.active, {
        sorting: [{ name: 'EndDate', direction: 'desc' }],
        limit: 2,
      }),
    ).toEqual(['A-PERM', 'A-LATER']);
    const distinct = await api.ok(boss, leasesApi.distinct, {
      customerNumber: CN,
      key: 'LicenseModel',
    });
    expect(distinct.data).toEqual(['Network', 'Network Borrow']);
    await api.refused(
      boss,
      leasesApi.active,
      { customerNumber: CN, filter: { criteria: [{ name: 'price', method: 'EQUALS', value: 1 }] } },
      400,
    );
  });

  test('refuses outsiders, export-denied accounts, customer types that may not see leases and accounts without self-serve licensing', async ({
    api,
    cast: { boss, outsider },
  }) => {
    await api.refused(anonymous, leasesApi.active, { customerNumber: CN }, 401);
    const outside = await api.refused(outsider, leasesApi.active, { customerNumber: CN }, 403);
    expect(JSON.stringify(outside)).not.toContain('A-SOON');
    const blocked = await api.refused(boss, leasesApi.active, { customerNumber: BLOCKED }, 403);
    expect(blocked.err).toBe(messages.exportDenied);
    await api.refused(boss, leasesApi.active, { customerNumber: UNTYPED }, 403);
    const generator = await api.refused(boss, leasesApi.active, { customerNumber: GENERATOR }, 403);
    expect(generator.err).toBe(messages.noPermission);
    expect(JSON.stringify(generator)).not.toContain('G-1');
    await api.refused(boss, leasesApi.active, { customerNumber: CN, type: 'FSA' }, 400);
  });

  test("counts activated seats per activation id of the account's leases only", async ({
    api,
    cast: { boss },
  }) => {
    await api.ok(boss, activationsApi.create, {
      customerNumber: CN,
      serverName: 'count1',
      serverId: '0a0b0c0d0e0f',
      serverIdType: 'ETHERNET',
      activations: [{ id: 'A-SOON', count: 7 }],
    });
    const res = await api.ok(boss, leasesApi.fulfillmentCount, {
      customerNumber: CN,
      activationId: ['A-SOON', 'A-LATER', 'O-1', 'nope', 'X-MANUAL', 'X-ELASTIC'],
    });
    // Other accounts' ids, the hidden drawdown product and other kinds are left out, as in the lease lists.
    expect(res).toEqual({ status: 'SUCCESS', data: { 'A-SOON': 7, 'A-LATER': 0 } });
    await api.refused(
      boss,
      leasesApi.fulfillmentCount,
      { customerNumber: UNTYPED, activationId: ['x'] },
      403,
    );
  });
});
