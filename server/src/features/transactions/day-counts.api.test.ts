import type { FilterRule } from '@lp/contract/query/schemas';
import { transactionsApi } from '@lp/contract/transactions/api';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { queryRows } from '../../db/database.ts';
import { queryCount, queryDistinct } from '../../platform/query/engine.ts';
import { countStartsIn, startTimeWindow } from './repository.ts';
import { accountScope, usageSessionsResource } from './resource.ts';

/*
 * Decision 076: a count whose filter is only a StartTime range reads whole UTC days from usage_daily_counts (kept by
 * a trigger on usage_sessions) and the raw rows of its edge days. Property: it always equals the engine's count of
 * the raw rows, for every kind of bound, on both engines.
 */

const CN = acme.customerNumber;
const DAY = 86_400_000;
/** Sessions over six UTC days from here (and one long before: the default partition). */
const BASE = Date.UTC(2026, 9, 10);
const SERVERS = ['CLS-DC-1', 'CLS-DC-2'];
const PRODUCTS = ['CFX', 'Fluent', 'HFSS', 'LS-DYNA'];

const test = apiTest.extend('sessions', { scope: 'file' }, async ({ database: { db }, cast: _cast }) => {
  // Users and products spread over the days; the sessions at the edges below have a user and product of their own.
  const sessions: { start: string; user: string; product: string }[] = [];
  for (let i = 0; i < 300; i++)
    sessions.push({
      start: new Date(BASE + ((i * 7_919_333) % (6 * DAY)) + (i % 7)).toISOString(),
      user: `user-${String((i * 7) % 13).padStart(2, '0')}`,
      product: PRODUCTS[i % PRODUCTS.length],
    });
  // Exactly at midnight and a millisecond either side; a year-old one.
  for (let d = 1; d <= 5; d++)
    for (const off of [-1, 0, 1])
      sessions.push({
        start: new Date(BASE + d * DAY + off).toISOString(),
        user: `edge-${d}${off}`,
        product: `P${d}${off}`,
      });
  sessions.push({ start: new Date(BASE - 400 * DAY).toISOString(), user: 'old', product: 'Old' });
  const list = (values: string[]) => `{${values.map((v) => `"${v}"`).join(',')}}`;
  await db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, product, product_count,
      hours, charge, currency, username, host, session_status, server_id)
    select ${CN}, 'dc-' || n, s::timestamptz, p, 1, 1, 1, 'USD', usr, 'h', 'Closed',
      (array[${SERVERS[0]}, ${SERVERS[1]}])[1 + n % 2]
    from unnest(${list(sessions.map((x) => x.start))}::text[], ${list(sessions.map((x) => x.user))}::text[],
      ${list(sessions.map((x) => x.product))}::text[]) with ordinality as t(s, usr, p, n)`);
  // A microsecond before midnight, which no millisecond bound names.
  await db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, product, product_count,
      hours, charge, currency, username, host, session_status, server_id)
    values (${CN}, 'dc-us', ${new Date(BASE + 3 * DAY).toISOString()}::timestamptz - interval '1 microsecond',
      'Micro', 1, 1, 1, 'USD', 'micro', 'h', 'Closed', ${SERVERS[0]})`);
  return sessions.length + 1;
});

/** Instants that fall on and around midnights of the data's days, and anywhere in them. */
const instant = fc.oneof(
  fc.integer({ min: -1, max: 7 }).chain((d) => fc.constantFrom(-1, 0, 1).map((off) => BASE + d * DAY + off)),
  fc.integer({ min: BASE - DAY, max: BASE + 7 * DAY }),
);
const iso = (ms: number) => new Date(ms).toISOString();
const filterArb: fc.Arbitrary<FilterRule | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.tuple(fc.constantFrom('DATERANGE', 'DAYRANGE'), instant, instant).map(([method, a, b]) => ({
    condition: 'ALL' as const,
    criteria: [{ name: 'StartTime', method, value: [iso(Math.min(a, b)), iso(Math.max(a, b))] }],
  })),
  fc.tuple(fc.constantFrom('BEFORE', 'AFTER', 'BEFOREDAY', 'AFTERDAY'), instant).map(([method, a]) => ({
    condition: 'ANY' as const,
    criteria: [{ name: 'StartTime', method, value: iso(a) }],
  })),
);

describe('usage counts from the daily counts', () => {
  test('equal the raw rows counted, for every StartTime window, scope and edge', async ({
    database: { db },
    sessions,
  }) => {
    const [{ n }] = await queryRows<{ n: number }>(
      db,
      sql`select sum(sessions)::int as n from usage_daily_counts where customer_number = ${CN}`,
    );
    expect(n).toBe(sessions);
    await fc.assert(
      fc.asyncProperty(filterArb, fc.constantFrom(undefined, ...SERVERS), async (filter, server) => {
        const window = startTimeWindow(filter);
        expect(window).not.toBeNull();
        const fast = await countStartsIn(db, CN, server, window ?? {});
        const raw = await queryCount(db, usageSessionsResource, { scope: accountScope(CN, server), filter });
        expect(fast).toBe(raw);
      }),
      { numRuns: 150 },
    );
  });

  test('are what POST /api/fetchUsage/count answers; other filters count the raw rows', async ({
    api,
    cast: { boss },
    sessions,
  }) => {
    expect((await api.ok(boss, transactionsApi.count, { customerNumber: CN })).data).toBe(sessions);
    const day = { name: 'StartTime', method: 'DAYRANGE' as const, value: [iso(BASE + DAY), iso(BASE + DAY)] };
    const { data: oneDay } = await api.ok(boss, transactionsApi.count, {
      customerNumber: CN,
      filter: { condition: 'ALL', criteria: [day] },
    });
    expect(oneDay).toBeGreaterThan(0);
    // With a second criterion the raw rows are counted: the same number, as the currency is the same everywhere.
    const usd = { name: 'Currency', method: 'EQUALS' as const, value: 'USD' };
    expect(startTimeWindow({ condition: 'ALL', criteria: [day, usd] })).toBeNull();
    const withCurrency = await api.ok(boss, transactionsApi.count, {
      customerNumber: CN,
      filter: { condition: 'ALL', criteria: [day, usd] },
    });
    expect(withCurrency.data).toBe(oneDay);
    // A negated range is not a window.
    expect(startTimeWindow({ condition: 'ALL', criteria: [{ ...day, not: true }] })).toBeNull();
  });

  test('distinct Users and Products answered without reading every session equal the raw rows', async ({
    api,
    database: { db },
    cast: { boss },
    sessions: _sessions,
  }) => {
    // Decision 077: the values dialog's distinct values over the page's period, through the endpoint, against the
    // engine's statement over the raw rows; a limit below the number of values is refused in the same words.
    const engine = async (
      filter: FilterRule | undefined,
      server: string | undefined,
      key: string,
      limit: number,
    ) => {
      try {
        const values = await queryDistinct(db, usageSessionsResource, {
          scope: accountScope(CN, server),
          filter,
          key,
          limit,
        });
        return { status: 200, values };
      } catch (e) {
        return { status: 400, err: (e as Error).message };
      }
    };
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        filterArb,
        fc.constantFrom(undefined, ...SERVERS),
        fc.constantFrom('User', 'Product'),
        fc.constantFrom(2, 8, 500),
        async (filter, server, key, limit) => {
          const answer = await api.call(boss, transactionsApi.distinct, {
            customerNumber: CN,
            serverId: server,
            filter,
            key,
            limit,
          });
          const body = answer.json() as { data?: unknown[]; err?: string };
          const got =
            answer.statusCode === 200
              ? { status: 200, values: body.data }
              : { status: answer.statusCode, err: body.err };
          expect(got).toEqual(await engine(filter, server, key, limit));
          seen.add(
            got.status === 200 ? `${key} ${(got.values ?? []).length > 0 ? 'values' : 'none'}` : 'refused',
          );
        },
      ),
      { numRuns: 150 },
    );
    // The runs met values, windows without any and limits that refuse.
    expect([...seen].sort()).toEqual([
      'Product none',
      'Product values',
      'User none',
      'User values',
      'refused',
    ]);
  });
});
