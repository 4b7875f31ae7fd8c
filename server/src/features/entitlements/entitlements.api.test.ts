import { entitlementsApi } from '@lp/contract/entitlements/api';
import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import { classifyEntitlements } from '@lp/domain/elastic-entitlements';
import { contactRoles } from '@lp/domain/policy';
import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount, buildEntitlement } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { queryRows } from '../../db/database.ts';
import { entitlements, products } from '../../db/schema.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const BLOCKED = '4100003';
const PART = 'ELA-TEST-1';

/** The account's elastic records as `who` reads them. */
const test = apiTest.extend('records', { scope: 'file' }, async ({ api }) => {
  return async (who: Caller, customerNumber: string = CN) =>
    (await api.ok(who, entitlementsApi.elastic, { customerNumber, customername: 'Acme' })).data;
});

test.beforeAll(async ({ database, cast }) => {
  const elastic = (customerNumber: string, over: Partial<typeof entitlements.$inferInsert> = {}) =>
    buildEntitlement(database.db, customerNumber, {
      kind: 'ELASTIC',
      licenseModel: 'Elastic-AEU',
      state: 'Deployed',
      partNumber: PART,
      quantity: 5000,
      startDate: '2026-01-01',
      endDate: '2099-12-31',
      poNumber: 'PO-2026-11111',
      rateTableVersion: '2025.2.1',
      currency: 'USD',
      ...over,
    });
  await database.db.insert(products).values({
    partNumber: PART,
    name: 'Elastic Units (AEU)',
    family: 'Platform',
    daemon: 'elastic_units',
    featureName: 'elastic_units',
  });
  await buildAccount(database.db, {
    customerNumber: BLOCKED,
    name: 'Blocked',
    exportControlStatus: 'Denied',
  });
  await addContact(database.db, BLOCKED, cast.boss.email, contactRoles.admin);

  await elastic(CN, { activationId: 'EL-CUR', usedCents: 123_456 });
  await elastic(CN, {
    activationId: 'EL-OLD',
    startDate: '2024-01-01',
    endDate: '2024-12-31',
    quantity: 1000,
    usedCents: 100_000,
    poNumber: 'PO-2024-22222',
    rateTableVersion: '2023.1.0',
  });
  await elastic(CN, { activationId: 'EL-DRAFT', state: 'Obsolete' });
  await buildEntitlement(database.db, CN, { activationId: 'SSL-1', kind: 'SSL', licenseModel: 'Lease' });
  await elastic(OTHER, { activationId: 'EL-OTHER' });
  await elastic(BLOCKED, { activationId: 'EL-BLOCKED' });
});

const byId = (list: ElasticEntitlementRecord[], id: string) => list.find((r) => r.ActivationId === id);

describe('listElasticEntitlements', () => {
  test("answers the account's elastic records with the spec's fields; Used is the ledger's draw in units", async ({
    records,
    cast: { boss },
  }) => {
    const list = await records(boss);
    expect(list.map((r) => r.ActivationId).sort()).toEqual(['EL-CUR', 'EL-DRAFT', 'EL-OLD']);
    expect(byId(list, 'EL-CUR')).toEqual({
      ActivationId: 'EL-CUR',
      LicenseModel: 'Elastic-AEU',
      EntitlementState: 'Deployed',
      StartDate: '2026-01-01',
      EndDate: '2099-12-31',
      Currency: 'USD',
      Used: 1234.56,
      LineItemQuantity: 5000,
      PONumber: 'PO-2026-11111',
      CustomAttributes: { Product: 'Elastic Units (AEU)', Count: 5000, RateTableVersion: '2025.2.1' },
    });
    expect(byId(list, 'EL-OLD')?.Used).toBe(1000);
  });

  test('follows the ledger: a new draw shows up in Used on the next call', async ({
    database,
    records,
    cast: { boss },
  }) => {
    await database.db
      .update(entitlements)
      .set({ usedCents: 234_567 })
      .where(eq(entitlements.activationId, 'EL-CUR'));
    expect(byId(await records(boss), 'EL-CUR')?.Used).toBe(2345.67);
  });

  test('classifies into active and inactive the way the page shows them', async ({
    records,
    cast: { boss },
  }) => {
    const { active, inactive } = classifyEntitlements(await records(boss));
    expect(active.map((r) => r.activationId)).toEqual(['EL-CUR']);
    expect(inactive.map((r) => [r.activationId, r.remainingDaysLabel, r.usedPercentage])).toEqual([
      ['EL-OLD', 'EXPIRED', 100],
    ]);
    expect(active[0]).toMatchObject({ remaining: 2654.3, usedPercentage: 47, rateTableLabel: '2025' });
  });

  test('lets view-only contacts and vendor staff read', async ({ records, cast: { reader, support } }) => {
    expect((await records(reader)).length).toBe(3);
    expect((await records(support)).length).toBe(3);
  });

  test("keeps each account's records to itself", async ({ api, records, cast: { boss, outsider } }) => {
    expect((await records(outsider, OTHER)).map((r) => r.ActivationId)).toEqual(['EL-OTHER']);
    await api.refused(boss, entitlementsApi.elastic, { customerNumber: OTHER }, 403);
  });

  test('answers an empty list for an account without elastic entitlements', async ({
    database,
    records,
    cast: { boss },
  }) => {
    const empty = await buildAccount(database.db, { name: 'No elastic' });
    await addContact(database.db, empty.customerNumber, boss.email, contactRoles.admin);
    expect(await records(boss, empty.customerNumber)).toEqual([]);
  });

  test('reports Used exactly as the ledger drew it, earliest expiry first', async ({
    database,
    records,
    cast: { boss },
  }) => {
    const account = await buildAccount(database.db, { name: 'Metered' });
    const cn = account.customerNumber;
    await addContact(database.db, cn, boss.email, contactRoles.admin);
    const clsId = await buildElasticServer(database.db, cn);
    await buildRateTable(database.db, '2025.1.0', { solver: 2, mesher: 0.5 });
    await buildElasticEntitlement(database.db, cn, {
      activationId: `EL-SOON-${cn}`,
      quantity: 10,
      startDate: '2026-01-01',
      endDate: '2099-06-30',
    });
    await buildElasticEntitlement(database.db, cn, {
      activationId: `EL-LATER-${cn}`,
      quantity: 100,
      startDate: '2026-01-01',
      endDate: '2099-12-31',
    });
    await recordUsage(database.db, { customerNumber: cn, elasticServerId: clsId }, [
      // 2 units per count-hour × 2 × 3 h = 12 units: 10 from the entitlement expiring first, 2 from the next.
      { product: 'solver', count: 2, start: '2026-03-02T08:00:00Z', end: '2026-03-02T11:00:00Z' },
      // 0.5 × 1 × 1.5 h = 0.75 units.
      { product: 'mesher', start: '2026-03-03T08:00:00Z', end: '2026-03-03T09:30:00Z' },
    ]);
    const list = await records(boss, cn);
    expect(byId(list, `EL-SOON-${cn}`)?.Used).toBe(10);
    expect(byId(list, `EL-LATER-${cn}`)?.Used).toBe(2.75);
    const ledger = await queryRows<{ activation_id: string; used: string }>(
      database.db,
      sql`
      select e.activation_id, sum(l.amount_cents)::text as used
      from elastic_ledger l join entitlements e on e.id = l.entitlement_id
      where l.customer_number = ${cn} group by e.activation_id`,
    );
    expect(ledger).toHaveLength(2);
    for (const row of ledger) expect(byId(list, row.activation_id)?.Used).toBe(Number(row.used) / 100);
    const { active, inactive } = classifyEntitlements(list);
    expect(active.map((r) => [r.activationId, r.remaining, r.usedPercentage])).toEqual([
      [`EL-LATER-${cn}`, 97.3, 3],
    ]);
    // Used up: 100 % and inactive.
    expect(inactive.map((r) => [r.activationId, r.remaining, r.usedPercentage])).toEqual([
      [`EL-SOON-${cn}`, 0, 100],
    ]);
  });

  test('refuses anonymous callers (401)', async ({ api }) => {
    await api.refused(anonymous, entitlementsApi.elastic, { customerNumber: CN }, 401);
  });

  test('refuses outsiders and unknown accounts alike (403), without data', async ({
    api,
    cast: { outsider },
  }) => {
    for (const customerNumber of [CN, '9999999']) {
      expect(await api.refused(outsider, entitlementsApi.elastic, { customerNumber }, 403)).toEqual({
        status: 'FAILURE',
        err: 'You do not have enough permissions to view this page.',
        code: 'FORBIDDEN',
      });
    }
  });

  test('refuses export-blocked accounts (403) with the export-compliance text', async ({
    api,
    cast: { boss },
  }) => {
    const refusal = await api.refused(boss, entitlementsApi.elastic, { customerNumber: BLOCKED }, 403);
    expect(refusal.err).toBe('Access to this customer is denied per Export Compliance restrictions.');
  });

  test('answers bad input with 400 and the field name', async ({ api, cast: { boss } }) => {
    for (const payload of [{}, { customerNumber: 4100001 }, { customerNumber: '  ' }]) {
      const refusal = await api.refused(boss, entitlementsApi.elastic, payload, 400);
      expect(refusal.err).toMatch(/^Invalid request: customerNumber/);
    }
    const malformed = await api.call(boss, entitlementsApi.elastic, '{"customerNumber":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
  });
});
