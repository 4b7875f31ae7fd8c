import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
  usageEvents,
} from '../../../harness/elastic-factories.ts';
import { buildAccount } from '../../../harness/factories.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { queryRows } from '../../db/database.ts';
import { reconcile } from '../ledger/service.ts';
import { ingestUsage } from './ingest.ts';

const NOW = new Date('2026-06-30T00:00:00Z');

/** The database with the rate tables, and what the tests build and read on it (no app: ingestUsage is called). */
const test = apiTest.extend('ledger', { scope: 'file' }, async ({ database }) => {
  const { db } = database;
  await buildRateTable(db, '2025.1.0', { Solver: 2, Mesher: 0.5 });
  await buildRateTable(db, '2024.1.0', { Solver: 1 });
  let accounts = 0;
  /** A new account with an elastic server and these entitlements (their ids in order). */
  const account = async (entitlements: { quantity: number; startDate: string; endDate: string }[]) => {
    accounts += 1;
    const customerNumber = String(5_100_000 + accounts);
    await buildAccount(db, { customerNumber });
    const clsId = await buildElasticServer(db, customerNumber);
    const ids: number[] = [];
    for (const e of entitlements) ids.push((await buildElasticEntitlement(db, customerNumber, e)).id);
    return { server: { customerNumber, elasticServerId: clsId }, ids };
  };
  const used = async (id: number) =>
    Number(
      (await queryRows<{ u: string }>(db, sql`select used_cents as u from entitlements where id = ${id}`))[0]
        .u,
    );
  const sessions = (clsId: string) =>
    queryRows<{
      session_id: string;
      hours: number;
      charge: number;
      end_time: unknown;
      session_status: string;
    }>(
      db,
      sql`select session_id, hours, charge, end_time, session_status from usage_sessions where server_id = ${clsId}
        order by session_id`,
    );
  const expectBalanced = async (customerNumber: string) => {
    const [r] = await reconcile(db, customerNumber);
    expect(r.balanced, JSON.stringify(r)).toBe(true);
    return r;
  };
  return { db, account, used, sessions, expectBalanced };
});

describe('rating', () => {
  test('charges rate × count × hours with the 0.01-hour floor on finished sessions', async ({
    ledger: { db, account, used, sessions, expectBalanced },
  }) => {
    const { server, ids } = await account([
      { quantity: 1000, startDate: '2026-01-01', endDate: '2026-12-31' },
    ]);
    await recordUsage(db, server, [
      {
        sessionId: 'a',
        product: 'Solver',
        count: 2,
        start: '2026-06-01T10:00:00Z',
        end: '2026-06-01T11:30:00Z',
      },
      {
        sessionId: 'b',
        product: 'Mesher',
        count: 1,
        start: '2026-06-01T10:00:00Z',
        end: '2026-06-01T10:00:05Z',
      },
    ]);
    const rows = await sessions(server.elasticServerId);
    expect(rows.map((r) => [r.session_id, r.hours, r.charge, r.session_status])).toEqual([
      ['a', 1.5, 6, 'Completed'],
      ['b', 0.01, 0.01, 'Completed'],
    ]);
    expect(await used(ids[0])).toBe(601);
    await expectBalanced(server.customerNumber);
  });

  test('lets an active session accrue with heartbeats and stops at its end', async ({
    ledger: { db, account, sessions, expectBalanced },
  }) => {
    const { server } = await account([{ quantity: 1000, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const base = {
      sessionId: 'live',
      startTime: '2026-06-02T08:00:00Z',
      product: 'Solver',
      productCount: 1,
      user: 'u',
      host: 'h',
    };
    await ingestUsage(db, server, [{ ...base, type: 'start', time: base.startTime }], NOW);
    await ingestUsage(db, server, [{ ...base, type: 'heartbeat', time: '2026-06-02T10:00:00Z' }], NOW);
    let [row] = await sessions(server.elasticServerId);
    expect([row.hours, row.charge, row.end_time, row.session_status]).toEqual([2, 4, null, 'Active']);
    await ingestUsage(db, server, [{ ...base, type: 'end', time: '2026-06-02T11:00:00Z' }], NOW);
    // A heartbeat that arrives after the end changes nothing.
    await ingestUsage(db, server, [{ ...base, type: 'heartbeat', time: '2026-06-02T12:00:00Z' }], NOW);
    [row] = await sessions(server.elasticServerId);
    expect([row.hours, row.charge, row.session_status]).toEqual([3, 6, 'Completed']);
    await expectBalanced(server.customerNumber);
  });

  test('prices a session with the rate table of the entitlement that pays first', async ({
    ledger: { db, account, sessions },
  }) => {
    const { server } = await account([
      { quantity: 100, startDate: '2026-01-01', endDate: '2026-12-31', rateTableVersion: '2024.1.0' },
    ] as never);
    await recordUsage(db, server, [
      { sessionId: 'x', product: 'Solver', start: '2026-03-01T00:00:00Z', end: '2026-03-01T01:00:00Z' },
    ]);
    expect((await sessions(server.elasticServerId))[0].charge).toBe(1);
  });
});

describe('draw-down', () => {
  test('draws the earliest-expiring entitlement first, never below zero, and records the rest as overage', async ({
    ledger: { db, account, used, expectBalanced },
  }) => {
    const { server, ids } = await account([
      { quantity: 10, startDate: '2026-01-01', endDate: '2026-12-31' },
      { quantity: 5, startDate: '2026-01-01', endDate: '2026-07-31' },
    ]);
    // 2 units/h × 10 h = 20 units: 5 from the July entitlement, 10 from December, 5 uncovered.
    await recordUsage(db, server, [
      { product: 'Solver', start: '2026-06-01T00:00:00Z', end: '2026-06-01T10:00:00Z' },
    ]);
    expect([await used(ids[1]), await used(ids[0])]).toEqual([500, 1000]);
    const r = await expectBalanced(server.customerNumber);
    expect([r.sessions, r.drawn, r.overage]).toEqual([20, 15, 5]);
  });

  test('skips entitlements not valid on the usage day', async ({
    ledger: { db, account, used, expectBalanced },
  }) => {
    const { server, ids } = await account([
      { quantity: 100, startDate: '2026-07-01', endDate: '2026-12-31' },
      { quantity: 100, startDate: '2025-01-01', endDate: '2025-12-31' },
    ]);
    await recordUsage(db, server, [
      { product: 'Solver', start: '2026-06-01T00:00:00Z', end: '2026-06-01T01:00:00Z' },
    ]);
    expect([await used(ids[0]), await used(ids[1])]).toEqual([0, 0]);
    expect((await expectBalanced(server.customerNumber)).overage).toBe(2);
  });
});

describe('ledger rows', () => {
  test('a batch posts one row per entitlement, product and UTC day, summing its sessions and dated by the latest', async ({
    ledger: { db, account, used, expectBalanced },
  }) => {
    // 40 sessions over two days and two products; the first entitlement runs out, the second pays the rest and
    // what neither covers is overage.
    const { server, ids } = await account([
      { quantity: 30, startDate: '2026-01-01', endDate: '2026-07-31' },
      { quantity: 60, startDate: '2026-01-01', endDate: '2026-12-31' },
    ]);
    const specs = Array.from({ length: 40 }, (_, i) => {
      const day = i % 2 === 0 ? '2026-06-01' : '2026-06-02';
      const startHour = String(1 + (i % 17)).padStart(2, '0');
      const minutes = String(10 + i).padStart(2, '0');
      return {
        sessionId: `r${i}`,
        product: i % 3 === 0 ? 'Mesher' : 'Solver',
        count: 4,
        start: `${day}T${startHour}:00:00Z`,
        end: `${day}T${startHour}:${minutes}:00Z`,
      };
    });
    await recordUsage(db, server, specs);
    const rows = await queryRows<{
      entitlement_id: string | null;
      kind: string;
      product: string;
      day: string;
      at: string;
      cents: string;
    }>(
      db,
      sql`select entitlement_id::text, kind, product, to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day,
          to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at, amount_cents::text as cents
        from elastic_ledger where customer_number = ${server.customerNumber} order by 1, 2, 3, 4`,
    );
    const keys = rows.map((r) => `${r.entitlement_id}|${r.kind}|${r.product}|${r.day}`);
    expect(new Set(keys).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(['usage', 'overage']));
    expect(rows.length).toBeLessThanOrEqual(3 * 2 * 2);
    // Per product and day, the rows hold exactly what its sessions were charged; each is dated by the latest
    // session end it sums.
    const charged = await queryRows<{ product: string; day: string; cents: string; last: string }>(
      db,
      sql`select product, to_char(end_time at time zone 'UTC', 'YYYY-MM-DD') as day, sum(charged_cents)::text as cents,
          to_char(max(end_time) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last
        from usage_sessions where server_id = ${server.elasticServerId} group by 1, 2 order by 1, 2`,
    );
    expect(charged).toHaveLength(4);
    for (const c of charged) {
      const group = rows.filter((r) => r.product === c.product && r.day === c.day);
      expect(group.reduce((sum, r) => sum + Number(r.cents), 0)).toBe(Number(c.cents));
      expect(group.every((r) => r.at <= c.last)).toBe(true);
      expect(group.some((r) => r.at === c.last)).toBe(true);
    }
    for (const id of ids) {
      const drawn = rows
        .filter((r) => r.entitlement_id === String(id))
        .reduce((sum, r) => sum + Number(r.cents), 0);
      expect(drawn).toBe(await used(id));
    }
    expect(await used(ids[0])).toBe(3000);
    await expectBalanced(server.customerNumber);
  });
});

describe('storage', () => {
  test("a session's end is a HOT update: its row's new version on the same page, no new index entries", async ({
    ledger: { db, account, sessions },
  }) => {
    const { server } = await account([{ quantity: 1000, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const specs = Array.from({ length: 150 }, (_, i) => ({
      sessionId: `h${i}`,
      product: 'Solver',
      start: `2026-06-10T08:${String(i % 60).padStart(2, '0')}:00Z`,
      end: null,
    }));
    const starts = usageEvents(specs);
    const ends = starts.map((e) => ({ ...e, type: 'end' as const, time: '2026-06-10T12:00:00Z' }));
    expect((await ingestUsage(db, server, starts, NOW)).rejected).toEqual([]);
    const parts = await queryRows<{ part: string }>(
      db,
      sql`select distinct tableoid::regclass::text as part from usage_sessions
        where server_id = ${server.elasticServerId}`,
    );
    expect(parts).toHaveLength(1);
    const part = parts[0].part;

    // The partition's counters as this connection sees them, read twice inside one transaction (they are flushed
    // only between transactions, so they may still hold an earlier one's): no waiting for statistics.
    const counted = await db.transaction(async (tx) => {
      const read = async () =>
        (
          await queryRows<{ updated: number; hot: number }>(
            tx,
            sql`select pg_stat_get_xact_tuples_updated(${part}::regclass)::int as updated,
              pg_stat_get_xact_tuples_hot_updated(${part}::regclass)::int as hot`,
          )
        )[0];
      const before = await read();
      expect((await ingestUsage(tx, server, ends, NOW)).rejected).toEqual([]);
      const after = await read();
      return { updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    expect(counted.updated).toBe(150);
    // An ended row is a little longer (its end, its status), so the last row or so of a page may not fit; with
    // full pages (fillfactor 100), or an update of an indexed column, none would be HOT.
    expect(counted.hot).toBeGreaterThanOrEqual(135);
    expect((await sessions(server.elasticServerId)).every((s) => s.session_status === 'Completed')).toBe(
      true,
    );
  });
});

describe('idempotency and bad events', () => {
  test('replaying a batch 10 times changes nothing', async ({ ledger: { db, account, sessions } }) => {
    const { server } = await account([{ quantity: 50, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const events = usageEvents([
      { product: 'Solver', start: '2026-05-01T00:00:00Z', end: '2026-05-01T03:00:00Z' },
      { product: 'Mesher', count: 4, start: '2026-05-01T00:00:00Z', end: null, seen: '2026-05-01T02:00:00Z' },
    ]);
    await ingestUsage(db, server, events, NOW);
    const first = await reconcile(db, server.customerNumber);
    const rows = await sessions(server.elasticServerId);
    for (let i = 0; i < 10; i++) await ingestUsage(db, server, events, NOW);
    expect(await reconcile(db, server.customerNumber)).toEqual(first);
    expect(await sessions(server.elasticServerId)).toEqual(rows);
    const ledgerRows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from elastic_ledger where customer_number = ${server.customerNumber}`,
    );
    expect(ledgerRows[0].n).toBe(2);
  });

  test("finds a session by its start's months: an end months later beside today's sessions, a start an hour off; an id reused days apart is another session", async ({
    ledger: { db, account, expectBalanced },
  }) => {
    const { server } = await account([{ quantity: 500, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const [longStart, longEnd] = usageEvents([
      { sessionId: 'long', product: 'Solver', start: '2026-02-03T10:00:00Z', end: '2026-06-29T10:00:00Z' },
    ]);
    await ingestUsage(db, server, [longStart], NOW);
    // Its end comes in a batch with today's sessions.
    const today = usageEvents([
      {
        sessionId: 'today',
        product: 'Mesher',
        start: '2026-06-29T08:00:00Z',
        end: null,
        seen: '2026-06-29T09:00:00Z',
      },
      { sessionId: 'other', product: 'Mesher', start: '2026-06-29T08:30:00Z', end: null },
    ]);
    await ingestUsage(db, server, [today[0]], NOW);
    await ingestUsage(db, server, [longEnd, today[2]], NOW);
    // A heartbeat alone in its batch that says its session started an hour later than the start event did.
    await ingestUsage(db, server, [{ ...today[1], startTime: '2026-06-29T09:00:00Z' }], NOW);
    // A license server that reuses a session id four days later has started another session.
    const [reused] = usageEvents([
      { sessionId: 'today', product: 'Mesher', start: '2026-06-25T08:00:00Z', end: null },
    ]);
    await ingestUsage(db, server, [reused], NOW);

    const rows = await queryRows<{
      session_id: string;
      start: string;
      hours: number;
      session_status: string;
    }>(
      db,
      sql`select session_id, to_char(start_time at time zone 'UTC', 'MM-DD HH24:MI') as start, hours, session_status
        from usage_sessions where server_id = ${server.elasticServerId} order by session_id, start_time`,
    );
    expect(rows.map((r) => [r.session_id, r.start, r.hours, r.session_status])).toEqual([
      ['long', '02-03 10:00', 3504, 'Completed'],
      ['other', '06-29 08:30', 0, 'Active'],
      ['today', '06-25 08:00', 0, 'Active'],
      ['today', '06-29 08:00', 1, 'Active'],
    ]);
    await expectBalanced(server.customerNumber);
  });

  test('handles an end that arrives before its start', async ({
    ledger: { db, account, sessions, expectBalanced },
  }) => {
    const { server } = await account([{ quantity: 50, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const [start, end] = usageEvents([
      { product: 'Solver', start: '2026-05-01T00:00:00Z', end: '2026-05-01T02:00:00Z' },
    ]);
    await ingestUsage(db, server, [end], NOW);
    await ingestUsage(db, server, [start], NOW);
    const [row] = await sessions(server.elasticServerId);
    expect([row.hours, row.charge, row.session_status]).toEqual([2, 4, 'Completed']);
    await expectBalanced(server.customerNumber);
  });

  test('rejects bad events with their index and reason and keeps the good ones', async ({
    ledger: { db, account, sessions },
  }) => {
    const { server } = await account([{ quantity: 50, startDate: '2026-01-01', endDate: '2026-12-31' }]);
    const [good] = usageEvents([{ product: 'Solver', start: '2026-05-01T00:00:00Z', end: null }]);
    const result = await ingestUsage(
      db,
      server,
      [
        { ...good, productCount: 0 },
        good,
        { ...good, sessionId: 'n', product: 'Unknown' },
        { ...good, sessionId: 'f', time: '2027-01-01T00:00:00Z' },
        'not an event',
        { ...good, sessionId: 'ip', ip: '999.1.1.1' },
      ],
      NOW,
    );
    expect(result.accepted).toBe(1);
    expect(result.rejected.map((r) => r.index)).toEqual([0, 2, 3, 4, 5]);
    expect(result.rejected[1].reason).toBe('product: "Unknown" is not priced in rate table 2025.1.0');
    expect(result.rejected[2].reason).toBe('time: event time is in the future');
    expect(await sessions(server.elasticServerId)).toHaveLength(1);
  });
});

describe('ledger invariants', () => {
  test('hold for random event streams with duplicates and reordering', async ({
    ledger: { db, account, used },
  }) => {
    const session = fc.record({
      product: fc.constantFrom('Solver', 'Mesher'),
      count: fc.integer({ min: 1, max: 8 }),
      startMinute: fc.integer({ min: 0, max: 60 * 24 * 20 }),
      minutes: fc.integer({ min: 0, max: 60 * 30 }),
      active: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(session, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.integer({ min: 0, max: 200 }),
        async (specs, shuffle, quantity) => {
          const { server, ids } = await account([
            { quantity, startDate: '2026-01-01', endDate: '2026-01-10' },
            { quantity: Math.floor(quantity / 2), startDate: '2026-01-05', endDate: '2026-01-31' },
          ]);
          const at = (minute: number) => new Date(Date.UTC(2026, 0, 1) + minute * 60_000).toISOString();
          const events = usageEvents(
            specs.map((s, i) => ({
              sessionId: `p${i}`,
              product: s.product,
              count: s.count,
              start: at(s.startMinute),
              end: s.active ? null : at(s.startMinute + s.minutes),
              seen: at(s.startMinute + s.minutes),
            })),
          );
          // Duplicate some events and shuffle the stream, then send it in two batches.
          const stream = [...events, ...shuffle.map((k) => events[k % events.length])];
          for (const [i, k] of shuffle.entries()) {
            const j = k % stream.length;
            [stream[i % stream.length], stream[j]] = [stream[j], stream[i % stream.length]];
          }
          const half = Math.ceil(stream.length / 2);
          await ingestUsage(db, server, stream.slice(0, half), NOW);
          await ingestUsage(db, server, stream.slice(half), NOW);
          const once = await reconcile(db, server.customerNumber);
          await ingestUsage(db, server, events, NOW);
          expect(await reconcile(db, server.customerNumber)).toEqual(once);
          const [r] = once;
          expect(r.balanced).toBe(true);
          for (const id of ids) {
            const cents = await used(id);
            expect(cents).toBeGreaterThanOrEqual(0);
          }
          expect(await used(ids[0])).toBeLessThanOrEqual(Math.round(quantity * 100));
          expect(await used(ids[1])).toBeLessThanOrEqual(Math.round((quantity / 2) * 100));
        },
      ),
      { numRuns: 25 },
    );
  });

  test('20 parallel batches for one account never overdraw and reconcile exactly', async ({
    ledger: { db, account, used, expectBalanced },
  }) => {
    const { server, ids } = await account([
      { quantity: 300, startDate: '2026-01-01', endDate: '2026-12-31' },
      { quantity: 100, startDate: '2026-01-01', endDate: '2026-09-30' },
    ]);
    const batches = Array.from({ length: 20 }, (_, b) =>
      usageEvents(
        Array.from({ length: 10 }, (_, i) => ({
          sessionId: `b${b}-s${i}`,
          product: 'Solver',
          count: 1 + (i % 3),
          start: '2026-04-01T00:00:00Z',
          end: `2026-04-01T0${1 + (i % 5)}:00:00Z`,
        })),
      ),
    );
    const results = await Promise.all(batches.map((events) => ingestUsage(db, server, events, NOW)));
    expect(results.every((r) => r.accepted === 20)).toBe(true);
    expect(await used(ids[1])).toBe(10_000);
    expect(await used(ids[0])).toBe(30_000);
    const r = await expectBalanced(server.customerNumber);
    // Per batch Σ count × hours = 56, at 2 units/h: 112 units; 20 batches: 2240, of which 400 are covered.
    expect([r.sessions, r.drawn, r.overage]).toEqual([2240, 400, 1840]);
  });
});
