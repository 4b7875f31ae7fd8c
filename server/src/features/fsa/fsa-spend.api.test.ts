import type { FsaContract } from '@lp/contract/fsa/schemas';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntitlement, dayFromToday as day } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture, signInStaff } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { entitlements, fsaPrices, products } from '../../db/schema.ts';

/** Issue 12 §4, decision 037: each contract of /api/fsa/contracts carries its spend per UTC order day. */

const CN = '4410001';
const OTHER = '4410002';
const SOLVER = 'FSA-S-SOLVER';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let outsider: Headers;
let busops: Headers;

const post = (url: string, headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

async function contract(customerNumber: string, activationId: string, budgetCents: number) {
  const row = await buildEntitlement(database.db, customerNumber, {
    activationId,
    kind: 'FSA',
    licenseModel: 'FSA',
    startDate: day(-30),
    endDate: day(400),
    currency: 'USD',
    priceCents: budgetCents,
    busopsEmails: null,
  });
  await database.db.insert(fsaPrices).values({
    contractId: row.id,
    partNumber: SOLVER,
    price7DaysCents: 1_000,
    price30DaysCents: 3_500,
    price1YearCents: 30_000,
  });
  return row;
}

const line = (over: Record<string, unknown> = {}) => ({
  ansysbpn: SOLVER,
  ansyscount: 1,
  startdate: day(0),
  duration: '7',
  ...over,
});

/** Orders the lines (all must succeed) and answers the new leases' activation ids. */
async function order(headers: Headers, customerNumber: string, fsaID: string, lines: object[]) {
  const res = await post('/api/entitlements', headers, { customerNumber, fsaID, products: lines });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as { status: string; entitlementId: string }[];
  expect(data.map((d) => d.status)).toEqual(lines.map(() => 'SUCCESS'));
  return data.map((d) => d.entitlementId);
}

/** Moves the lines' order time (orders are stamped now; the spend of earlier days is made this way). */
const orderedAt = (activationIds: string[], at: string) =>
  database.db
    .update(entitlements)
    .set({ orderedAt: new Date(at) })
    .where(inArray(entitlements.activationId, activationIds));

async function contracts(headers: Headers, customerNumber = CN) {
  const res = await post('/api/fsa/contracts', headers, { customerNumber });
  expect(res.statusCode).toBe(200);
  return res.json().data as FsaContract[];
}
const view = async (id: string) => (await contracts(boss)).find((c) => c.entitlementId === id)!;
const total = (c: FsaContract) => c.dailySpend.reduce((sum, d) => sum + d.cents, 0);

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values({
    partNumber: SOLVER,
    name: 'Solver',
    family: 'Platform',
    daemon: 'simlmd',
    featureName: 'solver',
  });
  ({ boss, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  busops = await signInStaff(database.db, 'busops');
  await contract(CN, 'FSA-SPEND', 1_000_000);
  await contract(CN, 'FSA-QUIET', 1_000_000);
  await contract(OTHER, 'FSA-ELSEWHERE', 1_000_000);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('dailySpend of /api/fsa/contracts', () => {
  it('sums the order lines per UTC order day, ascending, manual lines included', async () => {
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

  it('counts a line without an order time on its start day, so the days still add up to Used', async () => {
    const [id] = await order(boss, CN, 'FSA-QUIET', [line({ startdate: day(2) })]);
    await database.db.update(entitlements).set({ orderedAt: null }).where(eq(entitlements.activationId, id!));
    const c = await view('FSA-QUIET');
    expect(c.dailySpend).toEqual([{ day: day(2), cents: 1_000 }]);
    expect(total(c)).toBe(c.usedCents);
  });

  it('adds up to Used for every contract of both accounts', async () => {
    for (const [headers, cn] of [
      [boss, CN],
      [outsider, OTHER],
    ] as const)
      for (const c of await contracts(headers, cn)) {
        expect(total(c), c.entitlementId).toBe(c.usedCents);
        expect(c.dailySpend.map((d) => d.day)).toEqual(c.dailySpend.map((d) => d.day).sort());
      }
  });

  it("answers an outsider 403 and none of the account's spend", async () => {
    const res = await post('/api/fsa/contracts', outsider, { customerNumber: CN });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('FSA-SPEND');
    expect(res.body).not.toContain('dailySpend');
    // Its own answer carries only its own contract.
    expect((await contracts(outsider, OTHER)).map((c) => c.entitlementId)).toEqual(['FSA-ELSEWHERE']);
  });

  it("answers 404 for another account's contract", async () => {
    const res = await post('/api/fsa/products', boss, { customerNumber: CN, entitlementId: 'FSA-ELSEWHERE' });
    expect(res.statusCode).toBe(404);
  });
});
