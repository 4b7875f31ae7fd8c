import { messages } from '@lp/contract/common/errors';
import type { BodyInput } from '@lp/contract/common/operation';
import type { FilterRule } from '@lp/contract/query/schemas';
import { transactionsApi } from '@lp/contract/transactions/api';
import type { UsageRow } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
  type UsageSpec,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';

/*
 * POST /api/fetchUsage (+ /count, /distinct), spec 001 §2.3, §7: usage recorded through the real ingest
 * path, read back through the generic query engine, scoped to one account.
 */
const ACME = acme.customerNumber;
const OTHER = other.customerNumber;
const BLOCKED = '5300003';
const usage = transactionsApi;

const minute = 60_000;
const T0 = Date.UTC(2026, 2, 1, 8, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const users = ['alice', 'bob', 'carol', 'dave'];

/** 24 finished sessions on server A, three of them starting at the same instant, plus two still running. */
function acmeSessions(): UsageSpec[] {
  const finished: UsageSpec[] = Array.from({ length: 21 }, (_, i) => ({
    product: i % 3 === 0 ? 'Fluids' : 'Structures',
    count: 1 + (i % 4),
    start: iso(T0 + i * 90 * minute),
    end: iso(T0 + i * 90 * minute + (30 + i) * minute),
    user: users[i % 4],
    host: `ws-${String(i % 5).padStart(3, '0')}`,
    project: i % 2 ? 'Wing' : 'Hull',
    sessionId: `a-${i}`,
  }));
  // Same StartTime: the EndTime tie-breaker orders them, the running one last.
  const tie = T0 + 40 * 90 * minute;
  const tied: UsageSpec[] = [
    { product: 'Fluids', start: iso(tie), end: iso(tie + 50 * minute), user: 'erin', sessionId: 'tie-late' },
    { product: 'Fluids', start: iso(tie), end: iso(tie + 10 * minute), user: 'erin', sessionId: 'tie-early' },
    {
      product: 'Fluids',
      start: iso(tie),
      end: null,
      seen: iso(tie + 20 * minute),
      user: 'erin',
      sessionId: 'tie-running',
    },
  ];
  const running: UsageSpec = {
    product: 'Structures',
    count: 2,
    start: iso(T0 + 41 * 90 * minute),
    end: null,
    seen: iso(T0 + 41 * 90 * minute + 45 * minute),
    user: 'frank',
    sessionId: 'running-2',
  };
  return [...finished, ...tied, running];
}

type PageBody = Omit<BodyInput<typeof usage.page>, 'customerNumber'>;
type CountBody = Omit<BodyInput<typeof usage.count>, 'customerNumber'>;

const test = apiTest
  /** The elastic license servers of Acme the usage was recorded on (A: the sessions above, B: two of zoe's). */
  .extend('servers', { scope: 'file' }, async ({ database, cast: _accounts }) => {
    const { db } = database;
    await buildRateTable(db, '2025.1.0', { Fluids: 2, Structures: 1.5 });
    await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
    for (const cn of [ACME, OTHER, BLOCKED]) {
      await buildElasticEntitlement(db, cn, {
        quantity: 100_000,
        startDate: '2026-01-01',
        endDate: '2099-12-31',
        rateTableVersion: '2025.1.0',
      });
    }
    await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);

    const clsA = await buildElasticServer(db, ACME, 'CLS-ACME-A');
    const clsB = await buildElasticServer(db, ACME, 'CLS-ACME-B');
    const clsOther = await buildElasticServer(db, OTHER, 'CLS-OTHER');
    await recordUsage(db, { customerNumber: ACME, elasticServerId: clsA }, acmeSessions());
    await recordUsage(db, { customerNumber: ACME, elasticServerId: clsB }, [
      {
        product: 'Fluids',
        start: iso(T0 + 5 * minute),
        end: iso(T0 + 65 * minute),
        user: 'zoe',
        sessionId: 'b-1',
      },
      {
        product: 'Fluids',
        start: iso(T0 + 7 * minute),
        end: iso(T0 + 9 * minute),
        user: 'zoe',
        sessionId: 'b-2',
      },
    ]);
    await recordUsage(db, { customerNumber: OTHER, elasticServerId: clsOther }, [
      {
        product: 'Fluids',
        start: iso(T0),
        end: iso(T0 + 60 * minute),
        user: 'secret-user',
        sessionId: 'o-1',
      },
    ]);
    // The license-server events carry no cloud job id for these; one session ran in the vendor's cloud.
    await db.execute(sql`update usage_sessions set cloud_job_id = 'job-42' where session_id = 'a-3'`);
    return { clsA, clsB };
  })
  /** Acme's usage as its admin (or anyone) asks for it. */
  .extend('calls', { scope: 'file' }, async ({ api, cast: { boss }, servers: _recorded }) => {
    const fetchUsage = async (who: Caller, payload: PageBody = {}) =>
      api.ok(who, usage.page, { customerNumber: ACME, customerName: 'Acme', ...payload });
    return {
      fetchUsage,
      count: async (who: Caller, payload: CountBody = {}) =>
        (await api.ok(who, usage.count, { customerNumber: ACME, ...payload })).data,
      /** The message of a 400 for the admin's call. */
      badRequest: async (operation: (typeof usage)[keyof typeof usage], payload: object) =>
        (await api.refused(boss, operation, { customerNumber: ACME, ...payload }, 400)).err,
      /** Every row of a query, following continuation tokens from the first page. */
      allByToken: async (payload: PageBody, limit: number) => {
        const rows: UsageRow[] = [];
        let token: string | null = null;
        let pages = 0;
        do {
          const page = await fetchUsage(boss, { ...payload, limit, token });
          rows.push(...page.data);
          token = page.token;
          pages += 1;
        } while (token && pages < 50);
        return { rows, pages };
      },
    };
  });

/** The three calls, each with what it needs besides the account. */
const everyCall = [
  [usage.page, {}],
  [usage.count, {}],
  [usage.distinct, { key: 'User' }],
] as const;

const allFilter = (criteria: FilterRule['criteria']): FilterRule => ({ condition: 'ALL', criteria });

describe('access', () => {
  test('answers 401 without a session on every call', async ({ api }) => {
    for (const [operation, key] of everyCall) {
      const refusal = await api.refused(anonymous, operation, { customerNumber: ACME, ...key }, 401);
      expect(refusal).toMatchObject({ status: 'FAILURE', err: messages.notSignedIn });
    }
  });

  test('refuses another account and unknown numbers alike, revealing nothing', async ({
    api,
    cast: { outsider },
    servers: _recorded,
  }) => {
    for (const customerNumber of [ACME, '5399999']) {
      for (const [operation, key] of everyCall) {
        const refusal = await api.refused(outsider, operation, { customerNumber, ...key }, 403);
        expect(refusal).toEqual({ status: 'FAILURE', err: messages.noPermissionPage, code: 'FORBIDDEN' });
      }
    }
    // The outsider's own account holds only its own session.
    const own = await api.ok(outsider, usage.page, { customerNumber: OTHER });
    expect(own.data.map((r) => r.User)).toEqual(['secret-user']);
  });

  test('refuses an export-blocked account', async ({ api, cast: { boss }, servers: _recorded }) => {
    const refusal = await api.refused(boss, usage.page, { customerNumber: BLOCKED }, 403);
    expect(refusal).toMatchObject({ err: messages.exportDenied });
  });

  test('lets a view-only contact and vendor support read', async ({
    cast: { reader, support },
    calls: { fetchUsage, count },
  }) => {
    expect((await fetchUsage(reader)).data).toHaveLength(27);
    expect(await count(reader)).toBe(27);
    expect(await count(support)).toBe(27);
  });
});

describe('bad input', () => {
  test('answers 400 with a clear message for bad filters, sorts, keys and attributes', async ({
    calls: { badRequest },
  }) => {
    expect(
      await badRequest(usage.page, {
        filter: allFilter([{ name: 'Nope', method: 'EQUALS', value: 'x' }]),
      }),
    ).toBe("Unknown filter column 'Nope'");
    expect(
      await badRequest(usage.count, {
        filter: { criteria: [{ name: 'User', method: 'LIKE', value: 'x' }] },
      }),
    ).toMatch(/^Invalid request: filter\.criteria\.0\.method/);
    expect(
      await badRequest(usage.page, {
        filter: allFilter([{ name: 'Hours', method: 'EQUALS', value: 'abc' }]),
      }),
    ).toBe("Filter EQUALS on column 'Hours' needs a number value");
    expect(
      await badRequest(usage.page, {
        filter: allFilter([{ name: 'StartTime', method: 'DATERANGE', value: ['2026-02-30', '2026-03-01'] }]),
      }),
    ).toMatch(/needs a valid date/);
    expect(
      await badRequest(usage.page, {
        filter: allFilter([{ name: 'User', method: 'CONTAINS', value: 'x' }]),
        sorting: [{ name: 'Nope', direction: 'asc' }],
      }),
    ).toBe("Unknown sort column 'Nope'");
    // The internal EndTime sort key is not a column of the API.
    expect(await badRequest(usage.page, { sorting: [{ name: 'EndTimeOrder', direction: 'asc' }] })).toBe(
      "Unknown sort column 'EndTimeOrder'",
    );
    expect(
      await badRequest(usage.count, {
        filter: allFilter([{ name: 'EndTimeOrder', method: 'ISDEFINED' }]),
      }),
    ).toBe("Unknown filter column 'EndTimeOrder'");
    expect(await badRequest(usage.distinct, { key: 'EndTimeOrder' })).toBe("Unknown column 'EndTimeOrder'");
    expect(await badRequest(usage.page, { attributes: ['User', 'Password'] })).toMatch(
      /^Invalid request: attributes\.1/,
    );
    expect(await badRequest(usage.page, { limit: 30_001 })).toMatch(/^Invalid request: limit/);
    expect(await badRequest(usage.page, { token: 'forged.token' })).toBe('Invalid continuation token');
    expect(await badRequest(usage.distinct, {})).toMatch(/^Invalid request: key/);
  });
});

describe('POST /api/fetchUsage', () => {
  test('answers rows keyed by the spec attribute names, StartTime ascending by default', async ({
    cast: { boss },
    servers: { clsA },
    calls: { fetchUsage },
  }) => {
    const { data, token } = await fetchUsage(boss, { limit: 100 });
    expect(token).toBeNull();
    expect(data).toHaveLength(27);
    const starts = data.map((r) => r.StartTime_ts as number);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(data.some((r) => r.User === 'secret-user')).toBe(false);
    const first = data[0];
    expect(first).toEqual({
      StartTime: '2026-03-01 08:00:00',
      EndTime: '2026-03-01 08:30:00',
      StartTime_ts: T0,
      EndTime_ts: T0 + 30 * minute,
      Product: 'Fluids',
      ProductCount: 1,
      Hours: 0.5,
      Charge: 1,
      Currency: 'USD',
      User: 'alice',
      Host: 'ws-000',
      Project: 'Hull',
      DeviceID: 'a-0',
      SessionStatus: 'Completed',
      REFERER_IP_ADDRESS: '203.0.113.10',
      productVersion: '2025 R1',
      CloudJobId: null,
      ServerID: clsA,
      AccountID: ACME,
      RateFileVersion: '2025.1.0',
      Active: false,
    });
    expect(data.find((r) => r.DeviceID === 'a-3')?.CloudJobId).toBe('job-42');
    const running = data.find((r) => r.DeviceID === 'running-2');
    expect(running).toMatchObject({
      EndTime: null,
      EndTime_ts: null,
      Active: true,
      Hours: 0.75,
      Charge: 2.25,
    });
  });

  test('returns only the requested attributes', async ({ cast: { boss }, calls: { fetchUsage } }) => {
    const { data } = await fetchUsage(boss, { attributes: ['User', 'StartTime'], limit: 2 });
    expect(data).toEqual([
      { User: 'alice', StartTime: '2026-03-01 08:00:00' },
      { User: 'zoe', StartTime: '2026-03-01 08:05:00' },
    ]);
  });

  test('orders equal start times by end time, running sessions last', async ({
    cast: { boss },
    calls: { fetchUsage },
  }) => {
    const { data } = await fetchUsage(boss, {
      filter: allFilter([{ name: 'User', method: 'EQUALS', value: 'erin' }]),
    });
    expect(data.map((r) => r.DeviceID)).toEqual(['tie-early', 'tie-late', 'tie-running']);
  });

  test('adds StartTime and EndTime ascending as tie-breakers to any sort, also across token pages', async ({
    cast: { boss },
    calls: { fetchUsage, allByToken },
  }) => {
    const everything = (await fetchUsage(boss, { limit: 100 })).data;
    const byUserDesc = [...everything].sort(
      (a, b) =>
        (b.User as string).localeCompare(a.User as string) ||
        (a.StartTime_ts as number) - (b.StartTime_ts as number) ||
        (a.EndTime_ts ?? Number.POSITIVE_INFINITY) - (b.EndTime_ts ?? Number.POSITIVE_INFINITY),
    );
    const sorting = [{ name: 'User', direction: 'DESC' as const }];
    const paged = await allByToken({ sorting }, 4);
    expect(paged.pages).toBe(7);
    expect(paged.rows.map((r) => r.DeviceID)).toEqual(byUserDesc.map((r) => r.DeviceID));

    // EndTime descending: running sessions (no end) first, as PostgreSQL sorts NULLs descending.
    const byEnd = await allByToken({ sorting: [{ name: 'EndTime', direction: 'desc' }] }, 5);
    const ends = byEnd.rows.map((r) => r.EndTime_ts ?? Number.POSITIVE_INFINITY);
    expect(ends.slice(0, 2)).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    expect([...ends].sort((a, b) => b - a)).toEqual(ends);
    expect(new Set(byEnd.rows.map((r) => r.DeviceID)).size).toBe(27);
  });

  test('pages by token and by offset to the same rows, without gaps or repeats', async ({
    cast: { boss },
    calls: { fetchUsage, allByToken },
  }) => {
    const filter = allFilter([{ name: 'Product', method: 'EQUALS', value: 'structures', casefold: true }]);
    const byToken = await allByToken({ filter }, 5);
    const byOffset: UsageRow[] = [];
    for (let offset = 0; offset < 30; offset += 5)
      byOffset.push(...(await fetchUsage(boss, { filter, offset, limit: 5 })).data);
    expect(byToken.rows.map((r) => r.DeviceID)).toEqual(byOffset.map((r) => r.DeviceID));
    expect(byToken.rows).toHaveLength(15);
    expect(byToken.rows.every((r) => r.Product === 'Structures')).toBe(true);
  });

  test('filters a period, active sessions, numbers by equality and text case-insensitively', async ({
    cast: { boss },
    calls: { fetchUsage, count },
  }) => {
    const period = allFilter([
      { name: 'StartTime', method: 'DATERANGE', value: ['2026-03-01 08:00:00', '2026-03-01 12:59:59.999'] },
    ]);
    const inPeriod = (await fetchUsage(boss, { filter: period })).data;
    // 08:00, 09:30, 11:00, 12:30 on A and both sessions of B.
    expect(inPeriod.map((r) => r.DeviceID)).toEqual(['a-0', 'b-1', 'b-2', 'a-1', 'a-2', 'a-3']);

    const active = allFilter([{ name: 'Active', method: 'EQUALS', value: true }]);
    const running = (await fetchUsage(boss, { filter: active })).data;
    expect(running.map((r) => r.DeviceID)).toEqual(['tie-running', 'running-2']);
    expect(running.every((r) => r.EndTime === null)).toBe(true);
    expect(await count(boss, { filter: active })).toBe(2);

    const hours = allFilter([{ name: 'Hours', method: 'EQUALS', value: '0.75' }]);
    expect((await fetchUsage(boss, { filter: hours })).data.map((r) => r.DeviceID)).toEqual([
      'a-15',
      'running-2',
    ]);
    const user = allFilter([{ name: 'User', method: 'CONTAINS', value: 'AL', casefold: true }]);
    expect(await count(boss, { filter: user })).toBe(6);
    const values = allFilter([{ name: 'User', method: 'ARRAY_CONTAINS', value: ['bob', 'zoe'] }]);
    expect(await count(boss, { filter: values })).toBe(7);
  });

  test('narrows to one elastic license server', async ({
    cast: { boss },
    servers: { clsB },
    calls: { fetchUsage, count },
  }) => {
    const { data } = await fetchUsage(boss, { serverId: clsB });
    expect(data.map((r) => r.DeviceID)).toEqual(['b-1', 'b-2']);
    expect(await count(boss, { serverId: clsB })).toBe(2);
    expect(await count(boss, { serverId: 'CLS-OTHER' })).toBe(0);
  });
});

describe('POST /api/fetchUsage/count and /distinct', () => {
  test('counts the account rows matching the filter', async ({ cast: { boss }, calls: { count } }) => {
    expect(await count(boss)).toBe(27);
    const fluids = allFilter([{ name: 'Product', method: 'EQUALS', value: 'Fluids' }]);
    expect(await count(boss, { filter: fluids })).toBe(12);
  });

  test('answers distinct values in order, dates in the display format', async ({
    api,
    cast: { boss },
    servers: _recorded,
  }) => {
    expect(await api.ok(boss, usage.distinct, { customerNumber: ACME, key: 'User' })).toEqual({
      status: 'SUCCESS',
      data: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'zoe'],
    });
    const narrowed = await api.refused(
      boss,
      usage.distinct,
      {
        customerNumber: ACME,
        key: 'Host',
        filter: allFilter([{ name: 'Host', method: 'CONTAINS', value: '00', casefold: true }]),
        limit: 3,
      },
      400,
    );
    expect(narrowed).toMatchObject({ err: messages.tooManyDistinct });
    const starts = await api.ok(boss, usage.distinct, {
      customerNumber: ACME,
      key: 'StartTime',
      filter: allFilter([{ name: 'User', method: 'EQUALS', value: 'erin' }]),
    });
    expect(starts).toEqual({ status: 'SUCCESS', data: ['2026-03-03 20:00:00'] });
  });
});
