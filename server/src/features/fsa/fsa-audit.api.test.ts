import { asc, gt, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntitlement, dayFromToday as day } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import type { Db } from '../../db/database.ts';
import { auditEntries, fsaPrices, products } from '../../db/schema.ts';
import { verifyAudit } from '../audit/service.ts';

/*
 * Issue 13 §1: an FSA order is audited as one entry per line drawn, named by the new lease's activation id, by the
 * user with the request; failed lines, refused orders and replayed ones (same orderKey) record nothing.
 */

const CN = '4410001';
const OTHER = '4410002';
const SOLVER = 'FSA-AUD-SOLVER';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let bossId: string;

/** An FSA contract of CN with `budgetCents`, offering SOLVER at 10.00 a week. */
async function contract(db: Db, activationId: string, budgetCents: number, over: { endDate?: string } = {}) {
  const row = await buildEntitlement(db, CN, {
    activationId,
    kind: 'FSA',
    licenseModel: 'FSA',
    startDate: day(-30),
    endDate: over.endDate ?? day(400),
    currency: 'USD',
    poNumber: `PO-${activationId}`,
    priceCents: budgetCents,
    busopsEmails: null,
  });
  await db.insert(fsaPrices).values({ contractId: row.id, partNumber: SOLVER, price7DaysCents: 1_000 });
  return row;
}

const line = (over: Record<string, unknown> = {}) => ({
  ansysbpn: SOLVER,
  ansyscount: 1,
  startdate: day(0),
  duration: '7',
  ...over,
});
const order = (headers: Headers, fsaID: string, lines: object[], over: object = {}) =>
  app.inject({
    method: 'POST',
    url: '/api/entitlements',
    headers,
    payload: { customerNumber: CN, fsaID, products: lines, ...over },
  });

/** The entries written after `from` (the highest id before the call), oldest first. */
const since = (from: number) =>
  database.db.select().from(auditEntries).where(gt(auditEntries.id, from)).orderBy(asc(auditEntries.id));
const mark = async () =>
  (await database.db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0;

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
  ({ boss, reader } = await buildAccountFixture(database.db, CN, OTHER));
  bossId = (await signInAs(database.db, 'boss@acme.example')).userId;
  await contract(database.db, 'FSA-AUD-MAIN', 1_000_000);
  await contract(database.db, 'FSA-AUD-ENDED', 100_000, { endDate: day(-1) });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('FSA order audit', () => {
  it('records each line drawn, by the user with the request; a failed line records nothing', async () => {
    const from = await mark();
    const res = await order(boss, 'FSA-AUD-MAIN', [
      line({ ansyscount: 3 }),
      line({ ansyscount: 2, ansysprice: 1 }),
      line({ ansyscount: 2, startdate: day(1) }),
    ]);
    expect(res.statusCode).toBe(200);
    const [first, failed, last] = res.json().data;
    expect(failed.status).toBe('FAILURE');
    const entries = await since(from);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      chain: CN,
      customerNumber: CN,
      actorKind: 'user',
      actorId: bossId,
      actorName: 'boss@acme.example',
      action: 'fsa.ordered',
      objectType: 'entitlement',
      objectId: first.entitlementId,
      before: null,
      after: {
        contract: 'FSA-AUD-MAIN',
        partNumber: SOLVER,
        count: 3,
        startDate: day(0),
        endDate: day(6),
        costCents: 3_000,
        currency: 'USD',
      },
      clientIp: '127.0.0.1',
    });
    expect(entries[0].requestId).toBeTruthy();
    expect(entries[1]).toMatchObject({
      objectId: last.entitlementId,
      after: { count: 2, startDate: day(1), endDate: day(7), costCents: 2_000 },
    });
  });

  it('records nothing for a refused order, one whose lines all fail, or a replayed one', async () => {
    const from = await mark();
    expect((await order(reader, 'FSA-AUD-MAIN', [line()])).statusCode).toBe(403);
    expect((await order(boss, 'FSA-AUD-ENDED', [line()])).statusCode).toBe(400);
    expect((await order(boss, 'FSA-AUD-MAIN', [line({ ansyscount: 0 })])).statusCode).toBe(200);
    expect(await since(from)).toEqual([]);
    const first = await order(boss, 'FSA-AUD-MAIN', [line({ ansyscount: 4 })], { orderKey: 'audit-order-1' });
    expect(first.json().data[0].status).toBe('SUCCESS');
    expect(await since(from)).toHaveLength(1);
    const again = await order(boss, 'FSA-AUD-MAIN', [line({ ansyscount: 4 })], { orderKey: 'audit-order-1' });
    expect(again.json().replayed).toBe(true);
    expect(await since(from)).toHaveLength(1);
  });

  it('50 parallel orders on two contracts of the account record exactly the lines drawn, the chain unbroken', async () => {
    await contract(database.db, 'FSA-AUD-RACE', 10 * 1_000);
    const from = await mark();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        order(boss, i % 2 ? 'FSA-AUD-RACE' : 'FSA-AUD-MAIN', [line()], {
          orderKey: `audit-race-${i}`,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const drawn = answers.flatMap((a) => a.json().data).filter((r) => r.status === 'SUCCESS');
    // The race contract has room for 10 of its 25 lines; the main contract draws all 25 of its own.
    expect(drawn).toHaveLength(35);
    const entries = await since(from);
    expect(entries.map((e) => e.objectId).sort()).toEqual(drawn.map((r) => r.entitlementId).sort());
    expect(entries.filter((e) => (e.after as { contract: string }).contract === 'FSA-AUD-RACE')).toHaveLength(
      10,
    );
    expect(await verifyAudit(database.db, CN)).toMatchObject([{ chain: CN, ok: true }]);
  }, 120_000);
});
