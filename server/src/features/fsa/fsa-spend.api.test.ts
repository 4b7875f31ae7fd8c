import { fsaApi } from '@lp/contract/fsa/api';
import type { FsaContract } from '@lp/contract/fsa/schemas';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { dayFromToday as day } from '../../../harness/factories.ts';
import { buildFsaContract, type FsaOrderLine, fsaLine } from '../../../harness/fsa-factories.ts';
import { acme, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { entitlements, products } from '../../db/schema.ts';

/** Issue 12 §4, decision 037: each contract of /api/fsa/contracts carries its spend per UTC order day. */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const SOLVER = 'FSA-S-SOLVER';

const line = (over: Partial<FsaOrderLine> = {}) => fsaLine(SOLVER, over);
const total = (c: FsaContract) => c.dailySpend.reduce((sum, d) => sum + d.cents, 0);

const test = apiTest
  /** Orders the lines (all must succeed) and answers the new leases' activation ids. */
  .extend('order', { scope: 'file' }, async ({ api }) => {
    return async (who: Caller, customerNumber: string, fsaID: string, lines: FsaOrderLine[]) => {
      const { data } = await api.ok(who, fsaApi.order, { customerNumber, fsaID, products: lines });
      expect(data.map((d) => d.status)).toEqual(lines.map(() => 'SUCCESS'));
      return data.map((d) => d.entitlementId);
    };
  })
  /** Moves the lines' order time (orders are stamped now; the spend of earlier days is made this way). */
  .extend(
    'orderedAt',
    { scope: 'file' },
    async ({ database }) =>
      (activationIds: string[], at: string) =>
        database.db
          .update(entitlements)
          .set({ orderedAt: new Date(at) })
          .where(inArray(entitlements.activationId, activationIds)),
  )
  .extend(
    'contracts',
    { scope: 'file' },
    async ({ api }) =>
      async (who: Caller, customerNumber: string = CN) =>
        (await api.ok(who, fsaApi.contracts, { customerNumber })).data,
  )
  .extend(
    'view',
    { scope: 'file' },
    async ({ contracts, cast }) =>
      async (id: string) =>
        (await contracts(cast.boss)).find((c) => c.entitlementId === id)!,
  );

// The cast comes first: its accounts own the contracts.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await database.db.insert(products).values({
    partNumber: SOLVER,
    name: 'Solver',
    family: 'Platform',
    daemon: 'simlmd',
    featureName: 'solver',
  });
  const prices = { [SOLVER]: { price7DaysCents: 1_000, price30DaysCents: 3_500, price1YearCents: 30_000 } };
  await buildFsaContract(database.db, CN, 'FSA-SPEND', 1_000_000, prices);
  await buildFsaContract(database.db, CN, 'FSA-QUIET', 1_000_000, prices);
  await buildFsaContract(database.db, OTHER, 'FSA-ELSEWHERE', 1_000_000, prices);
});

describe('dailySpend of listFsaContracts', () => {
  test('sums the order lines per UTC order day, ascending, manual lines included', async ({
    cast: { boss, busops, outsider },
    order,
    orderedAt,
    view,
  }) => {
    expect((await view('FSA-SPEND')).dailySpend).toEqual([]);
    // Three days ago: the first and the last second of that UTC day.
    const [early] = await order(boss, CN, 'FSA-SPEND', [line({ ansyscount: 2 })]);
    const [late] = await order(boss, CN, 'FSA-SPEND', [line({ duration: '30' })]);
    await orderedAt([early!], `${day(-3)}T00:00:00.000Z`);
    await orderedAt([late!], `${day(-3)}T23:59:59.999Z`);
    // Today: a standard line and a business operations' manual entry (3 × 50.00).
    await order(boss, CN, 'FSA-SPEND', [line({ ansyscount: 4 })]);
    await order(busops, CN, 'FSA-SPEND', [
      line({
        ansysbpn: undefined,
        ansyscount: 3,
        manualentry: true,
        manualProductName: 'Custom - Named User',
        enddate: day(30),
        unitCents: 5_000,
      }),
    ]);
    // Another account's order on the same days adds nothing here.
    await order(outsider, OTHER, 'FSA-ELSEWHERE', [line({ ansyscount: 9 })]);

    const c = await view('FSA-SPEND');
    expect(c.dailySpend).toEqual([
      { day: day(-3), cents: 2 * 1_000 + 3_500 },
      { day: day(0), cents: 4 * 1_000 + 3 * 5_000 },
    ]);
    expect(total(c)).toBe(c.usedCents);
    expect(c.remainingCents).toBe(c.budgetCents - total(c));
    expect((await view('FSA-QUIET')).dailySpend).toEqual([]);
  });

  test('counts a line without an order time on its start day, so the days still add up to Used', async ({
    database,
    cast: { boss },
    order,
    view,
  }) => {
    const [id] = await order(boss, CN, 'FSA-QUIET', [line({ startdate: day(2) })]);
    await database.db.update(entitlements).set({ orderedAt: null }).where(eq(entitlements.activationId, id!));
    const c = await view('FSA-QUIET');
    expect(c.dailySpend).toEqual([{ day: day(2), cents: 1_000 }]);
    expect(total(c)).toBe(c.usedCents);
  });

  test('adds up to Used for every contract of both accounts', async ({
    cast: { boss, outsider },
    contracts,
  }) => {
    for (const [headers, cn] of [
      [boss, CN],
      [outsider, OTHER],
    ] as const)
      for (const c of await contracts(headers, cn)) {
        expect(total(c), c.entitlementId).toBe(c.usedCents);
        expect(c.dailySpend.map((d) => d.day)).toEqual(c.dailySpend.map((d) => d.day).sort());
      }
  });

  test("answers an outsider 403 and none of the account's spend", async ({
    api,
    cast: { outsider },
    contracts,
  }) => {
    const refusal = JSON.stringify(
      await api.refused(outsider, fsaApi.contracts, { customerNumber: CN }, 403),
    );
    expect(refusal).not.toContain('FSA-SPEND');
    expect(refusal).not.toContain('dailySpend');
    // Its own answer carries only its own contract.
    expect((await contracts(outsider, OTHER)).map((c) => c.entitlementId)).toEqual(['FSA-ELSEWHERE']);
  });

  test("answers 404 for another account's contract", async ({ api, cast: { boss } }) => {
    await api.refused(boss, fsaApi.products, { customerNumber: CN, entitlementId: 'FSA-ELSEWHERE' }, 404);
  });
});
