import { messages } from '@lp/contract/common/errors';
import type { FilterRule } from '@lp/contract/query/schemas';
import { fetchUsageResponseSchema, type UsageRow } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
  type UsageSpec,
} from '../../../harness/elastic-factories.ts';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

/*
 * POST /api/fetchUsage (+ /count, /distinct), spec 001 §2.3, §7: usage recorded through the real ingest
 * path, read back through the generic query engine, scoped to one account.
 */
const ACME = '5300001';
const OTHER = '5300002';
const BLOCKED = '5300003';
let database: TestDatabase;
let app: FastifyInstance;
let clsA: string;
let clsB: string;
const headers: Record<string, Record<string, string>> = {};

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

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  app = await createTestApp(database);
  await buildRateTable(db, '2025.1.0', { Fluids: 2, Structures: 1.5 });
  await buildAccount(db, { customerNumber: ACME, name: 'Acme Usage Inc.' });
  await buildAccount(db, { customerNumber: OTHER, name: 'Other Corp' });
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked Ltd', exportControlStatus: 'Denied' });
  for (const cn of [ACME, OTHER, BLOCKED]) {
    await buildElasticEntitlement(db, cn, {
      quantity: 100_000,
      startDate: '2026-01-01',
      endDate: '2099-12-31',
      rateTableVersion: '2025.1.0',
    });
  }
  await addContact(db, ACME, 'admin@acme.example', contactRoles.admin);
  await addContact(db, BLOCKED, 'admin@acme.example', contactRoles.admin);
  await addContact(db, ACME, 'viewer@acme.example', contactRoles.viewer);
  await addContact(db, OTHER, 'admin@other.example', contactRoles.admin);

  clsA = await buildElasticServer(db, ACME, 'CLS-ACME-A');
  clsB = await buildElasticServer(db, ACME, 'CLS-ACME-B');
  const clsOther = await buildElasticServer(db, OTHER, 'CLS-OTHER');
  await recordUsage(db, { customerNumber: ACME, clsId: clsA }, acmeSessions());
  await recordUsage(db, { customerNumber: ACME, clsId: clsB }, [
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
  await recordUsage(db, { customerNumber: OTHER, clsId: clsOther }, [
    { product: 'Fluids', start: iso(T0), end: iso(T0 + 60 * minute), user: 'secret-user', sessionId: 'o-1' },
  ]);
  // The license-server events carry no cloud job id for these; one session ran in the vendor's cloud.
  await db.execute(sql`update usage_sessions set cloud_job_id = 'job-42' where session_id = 'a-3'`);

  headers.admin = (await signInAs(db, 'admin@acme.example')).headers;
  headers.viewer = (await signInAs(db, 'viewer@acme.example')).headers;
  headers.outsider = (await signInAs(db, 'admin@other.example')).headers;
  headers.support = (await signInAs(db, 'support@vendor.example', { vendorRoles: ['support'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, who: string | null, payload: object) =>
  app.inject({ method: 'POST', url, headers: who ? headers[who] : {}, payload });

async function fetchUsage(who: string, payload: object) {
  const res = await post('/api/fetchUsage', who, { customerNumber: ACME, customerName: 'Acme', ...payload });
  expect(res.statusCode, res.body).toBe(200);
  return fetchUsageResponseSchema.parse(res.json());
}

async function count(who: string, payload: object = {}) {
  const res = await post('/api/fetchUsage/count', who, { customerNumber: ACME, ...payload });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: number }).data;
}

async function badRequest(url: string, payload: object): Promise<string> {
  const res = await post(url, 'admin', { customerNumber: ACME, ...payload });
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json() as { status: string; err: string };
  expect(body.status).toBe('FAILURE');
  return body.err;
}

/** Every row of a query, following continuation tokens from the first page. */
async function allByToken(payload: object, limit: number) {
  const rows: UsageRow[] = [];
  let token: string | null = null;
  let pages = 0;
  do {
    const page = await fetchUsage('admin', { ...payload, limit, token });
    rows.push(...page.data);
    token = page.token;
    pages += 1;
  } while (token && pages < 50);
  return { rows, pages };
}

const allFilter = (criteria: FilterRule['criteria']): FilterRule => ({ condition: 'ALL', criteria });

describe('access', () => {
  it('answers 401 without a session on every call', async () => {
    for (const url of ['/api/fetchUsage', '/api/fetchUsage/count', '/api/fetchUsage/distinct']) {
      const key = url.endsWith('/distinct') ? { key: 'User' } : {};
      const res = await post(url, null, { customerNumber: ACME, ...key });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.notSignedIn });
    }
  });

  it('refuses another account and unknown numbers alike, revealing nothing', async () => {
    for (const customerNumber of [ACME, '5399999']) {
      for (const url of ['/api/fetchUsage', '/api/fetchUsage/count', '/api/fetchUsage/distinct']) {
        const key = url.endsWith('/distinct') ? { key: 'User' } : {};
        const res = await post(url, 'outsider', { customerNumber, ...key });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ status: 'FAILURE', err: messages.noPermissionPage, code: 'FORBIDDEN' });
      }
    }
    // The outsider's own account holds only its own session.
    const own = await post('/api/fetchUsage', 'outsider', { customerNumber: OTHER });
    expect((own.json() as { data: UsageRow[] }).data.map((r) => r.User)).toEqual(['secret-user']);
  });

  it('refuses an export-blocked account', async () => {
    const res = await post('/api/fetchUsage', 'admin', { customerNumber: BLOCKED });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ err: messages.exportDenied });
  });

  it('lets a view-only contact and vendor support read', async () => {
    expect((await fetchUsage('viewer', {})).data).toHaveLength(27);
    expect(await count('viewer')).toBe(27);
    expect(await count('support')).toBe(27);
  });
});

describe('bad input', () => {
  it('answers 400 with a clear message for bad filters, sorts, keys and attributes', async () => {
    expect(
      await badRequest('/api/fetchUsage', {
        filter: allFilter([{ name: 'Nope', method: 'EQUALS', value: 'x' }]),
      }),
    ).toBe("Unknown filter column 'Nope'");
    expect(
      await badRequest('/api/fetchUsage/count', {
        filter: { criteria: [{ name: 'User', method: 'LIKE', value: 'x' }] },
      }),
    ).toMatch(/^Invalid request: filter\.criteria\.0\.method/);
    expect(
      await badRequest('/api/fetchUsage', {
        filter: allFilter([{ name: 'Hours', method: 'EQUALS', value: 'abc' }]),
      }),
    ).toBe("Filter EQUALS on column 'Hours' needs a number value");
    expect(
      await badRequest('/api/fetchUsage', {
        filter: allFilter([{ name: 'StartTime', method: 'DATERANGE', value: ['2026-02-30', '2026-03-01'] }]),
      }),
    ).toMatch(/needs a valid date/);
    expect(
      await badRequest('/api/fetchUsage', {
        filter: allFilter([{ name: 'User', method: 'CONTAINS', value: 'x' }]),
        sorting: [{ name: 'Nope', direction: 'asc' }],
      }),
    ).toBe("Unknown sort column 'Nope'");
    // The internal EndTime sort key is not a column of the API.
    expect(
      await badRequest('/api/fetchUsage', { sorting: [{ name: 'EndTimeOrder', direction: 'asc' }] }),
    ).toBe("Unknown sort column 'EndTimeOrder'");
    expect(
      await badRequest('/api/fetchUsage/count', {
        filter: allFilter([{ name: 'EndTimeOrder', method: 'ISDEFINED' }]),
      }),
    ).toBe("Unknown filter column 'EndTimeOrder'");
    expect(await badRequest('/api/fetchUsage/distinct', { key: 'EndTimeOrder' })).toBe(
      "Unknown column 'EndTimeOrder'",
    );
    expect(await badRequest('/api/fetchUsage', { attributes: ['User', 'Password'] })).toMatch(
      /^Invalid request: attributes\.1/,
    );
    expect(await badRequest('/api/fetchUsage', { limit: 30_001 })).toMatch(/^Invalid request: limit/);
    expect(await badRequest('/api/fetchUsage', { token: 'forged.token' })).toBe('Invalid continuation token');
    expect(await badRequest('/api/fetchUsage/distinct', {})).toMatch(/^Invalid request: key/);
  });
});

describe('POST /api/fetchUsage', () => {
  it('answers rows keyed by the spec attribute names, StartTime ascending by default', async () => {
    const { data, token } = await fetchUsage('admin', { limit: 100 });
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

  it('returns only the requested attributes', async () => {
    const { data } = await fetchUsage('admin', { attributes: ['User', 'StartTime'], limit: 2 });
    expect(data).toEqual([
      { User: 'alice', StartTime: '2026-03-01 08:00:00' },
      { User: 'zoe', StartTime: '2026-03-01 08:05:00' },
    ]);
  });

  it('orders equal start times by end time, running sessions last', async () => {
    const { data } = await fetchUsage('admin', {
      filter: allFilter([{ name: 'User', method: 'EQUALS', value: 'erin' }]),
    });
    expect(data.map((r) => r.DeviceID)).toEqual(['tie-early', 'tie-late', 'tie-running']);
  });

  it('adds StartTime and EndTime ascending as tie-breakers to any sort, also across token pages', async () => {
    const everything = (await fetchUsage('admin', { limit: 100 })).data;
    const byUserDesc = [...everything].sort(
      (a, b) =>
        (b.User as string).localeCompare(a.User as string) ||
        (a.StartTime_ts as number) - (b.StartTime_ts as number) ||
        (a.EndTime_ts ?? Number.POSITIVE_INFINITY) - (b.EndTime_ts ?? Number.POSITIVE_INFINITY),
    );
    const sorting = [{ name: 'User', direction: 'DESC' }];
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

  it('pages by token and by offset to the same rows, without gaps or repeats', async () => {
    const filter = allFilter([{ name: 'Product', method: 'EQUALS', value: 'structures', casefold: true }]);
    const byToken = await allByToken({ filter }, 5);
    const byOffset: UsageRow[] = [];
    for (let offset = 0; offset < 30; offset += 5)
      byOffset.push(...(await fetchUsage('admin', { filter, offset, limit: 5 })).data);
    expect(byToken.rows.map((r) => r.DeviceID)).toEqual(byOffset.map((r) => r.DeviceID));
    expect(byToken.rows).toHaveLength(15);
    expect(byToken.rows.every((r) => r.Product === 'Structures')).toBe(true);
  });

  it('filters a period, active sessions, numbers by equality and text case-insensitively', async () => {
    const period = allFilter([
      { name: 'StartTime', method: 'DATERANGE', value: ['2026-03-01 08:00:00', '2026-03-01 12:59:59.999'] },
    ]);
    const inPeriod = (await fetchUsage('admin', { filter: period })).data;
    // 08:00, 09:30, 11:00, 12:30 on A and both sessions of B.
    expect(inPeriod.map((r) => r.DeviceID)).toEqual(['a-0', 'b-1', 'b-2', 'a-1', 'a-2', 'a-3']);

    const active = allFilter([{ name: 'Active', method: 'EQUALS', value: true }]);
    const running = (await fetchUsage('admin', { filter: active })).data;
    expect(running.map((r) => r.DeviceID)).toEqual(['tie-running', 'running-2']);
    expect(running.every((r) => r.EndTime === null)).toBe(true);
    expect(await count('admin', { filter: active })).toBe(2);

    const hours = allFilter([{ name: 'Hours', method: 'EQUALS', value: '0.75' }]);
    expect((await fetchUsage('admin', { filter: hours })).data.map((r) => r.DeviceID)).toEqual([
      'a-15',
      'running-2',
    ]);
    const user = allFilter([{ name: 'User', method: 'CONTAINS', value: 'AL', casefold: true }]);
    expect(await count('admin', { filter: user })).toBe(6);
    const values = allFilter([{ name: 'User', method: 'ARRAY_CONTAINS', value: ['bob', 'zoe'] }]);
    expect(await count('admin', { filter: values })).toBe(7);
  });

  it('narrows to one elastic license server', async () => {
    const { data } = await fetchUsage('admin', { serverId: clsB });
    expect(data.map((r) => r.DeviceID)).toEqual(['b-1', 'b-2']);
    expect(await count('admin', { serverId: clsB })).toBe(2);
    expect(await count('admin', { serverId: 'CLS-OTHER' })).toBe(0);
  });
});

describe('POST /api/fetchUsage/count and /distinct', () => {
  it('counts the account rows matching the filter', async () => {
    expect(await count('admin')).toBe(27);
    const fluids = allFilter([{ name: 'Product', method: 'EQUALS', value: 'Fluids' }]);
    expect(await count('admin', { filter: fluids })).toBe(12);
  });

  it('answers distinct values in order, dates in the display format', async () => {
    const res = await post('/api/fetchUsage/distinct', 'admin', { customerNumber: ACME, key: 'User' });
    expect(res.json()).toEqual({
      status: 'SUCCESS',
      data: ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'zoe'],
    });
    const narrowed = await post('/api/fetchUsage/distinct', 'admin', {
      customerNumber: ACME,
      key: 'Host',
      filter: allFilter([{ name: 'Host', method: 'CONTAINS', value: '00', casefold: true }]),
      limit: 3,
    });
    expect(narrowed.statusCode).toBe(400);
    expect(narrowed.json()).toMatchObject({ err: messages.tooManyDistinct });
    const starts = await post('/api/fetchUsage/distinct', 'admin', {
      customerNumber: ACME,
      key: 'StartTime',
      filter: allFilter([{ name: 'User', method: 'EQUALS', value: 'erin' }]),
    });
    expect(starts.json()).toEqual({ status: 'SUCCESS', data: ['2026-03-03 20:00:00'] });
  });
});
