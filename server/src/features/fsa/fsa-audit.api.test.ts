import { fsaApi } from '@lp/contract/fsa/api';
import { asc, gt, max } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { dayFromToday as day } from '../../../harness/factories.ts';
import {
  buildFsaContract,
  type FsaOrder,
  type FsaOrderLine,
  fsaLine,
} from '../../../harness/fsa-factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import type { Db } from '../../db/database.ts';
import { auditEntries, products } from '../../db/schema.ts';
import { verifyAudit } from '../audit/service.ts';

/*
 * Issue 13 §1: an FSA order is audited as one entry per line drawn, named by the new lease's activation id, by the
 * user with the request; failed lines, refused orders and replayed ones (same orderKey) record nothing.
 */

const CN = acme.customerNumber;
const SOLVER = 'FSA-AUD-SOLVER';

/** An FSA contract of CN with `budgetCents`, offering SOLVER at 10.00 a week. */
const contract = (db: Db, activationId: string, budgetCents: number, over: { endDate?: string } = {}) =>
  buildFsaContract(
    db,
    CN,
    activationId,
    budgetCents,
    { [SOLVER]: { price7DaysCents: 1_000 } },
    {
      poNumber: `PO-${activationId}`,
      ...over,
    },
  );
const line = (over: Partial<FsaOrderLine> = {}) => fsaLine(SOLVER, over);
const order = (fsaID: string, lines: FsaOrderLine[], over: Partial<FsaOrder> = {}): FsaOrder => ({
  customerNumber: CN,
  fsaID,
  products: lines,
  ...over,
});

const test = apiTest
  /** The entries written after `from` (the highest id before the call), oldest first. */
  .extend(
    'since',
    { scope: 'file' },
    async ({ database }) =>
      (from: number) =>
        database.db
          .select()
          .from(auditEntries)
          .where(gt(auditEntries.id, from))
          .orderBy(asc(auditEntries.id)),
  )
  .extend(
    'mark',
    { scope: 'file' },
    async ({ database }) =>
      async () =>
        (await database.db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0,
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
  await contract(database.db, 'FSA-AUD-MAIN', 1_000_000);
  await contract(database.db, 'FSA-AUD-ENDED', 100_000, { endDate: day(-1) });
});

describe('FSA order audit', () => {
  test('records each line drawn, by the user with the request; a failed line records nothing', async ({
    api,
    cast: { boss },
    mark,
    since,
  }) => {
    const from = await mark();
    const { data } = await api.ok(
      boss,
      fsaApi.order,
      order('FSA-AUD-MAIN', [
        line({ ansyscount: 3 }),
        line({ ansyscount: 2, ansysprice: 1 }),
        line({ ansyscount: 2, startdate: day(1) }),
      ]),
    );
    const [first, failed, last] = data;
    expect(failed.status).toBe('FAILURE');
    const entries = await since(from);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      chain: CN,
      customerNumber: CN,
      actorKind: 'user',
      actorId: boss.userId,
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

  test('records nothing for a refused order, one whose lines all fail, or a replayed one', async ({
    api,
    cast: { boss, reader },
    mark,
    since,
  }) => {
    const from = await mark();
    await api.refused(reader, fsaApi.order, order('FSA-AUD-MAIN', [line()]), 403);
    await api.refused(boss, fsaApi.order, order('FSA-AUD-ENDED', [line()]), 400);
    await api.ok(boss, fsaApi.order, order('FSA-AUD-MAIN', [line({ ansyscount: 0 })]));
    expect(await since(from)).toEqual([]);
    const keyed = order('FSA-AUD-MAIN', [line({ ansyscount: 4 })], { orderKey: 'audit-order-1' });
    const first = await api.ok(boss, fsaApi.order, keyed);
    expect(first.data[0].status).toBe('SUCCESS');
    expect(await since(from)).toHaveLength(1);
    const again = await api.ok(boss, fsaApi.order, keyed);
    expect(again.replayed).toBe(true);
    expect(await since(from)).toHaveLength(1);
  });

  test('50 parallel orders on two contracts of the account record exactly the lines drawn, the chain unbroken', async ({
    api,
    database,
    cast: { boss },
    mark,
    since,
  }) => {
    await contract(database.db, 'FSA-AUD-RACE', 10 * 1_000);
    const from = await mark();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.ok(
          boss,
          fsaApi.order,
          order(i % 2 ? 'FSA-AUD-RACE' : 'FSA-AUD-MAIN', [line()], { orderKey: `audit-race-${i}` }),
        ),
      ),
    );
    const drawn = answers.flatMap((a) => a.data).filter((r) => r.status === 'SUCCESS');
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
