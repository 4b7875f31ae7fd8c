import net from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { transactionsApi } from '@lp/contract/transactions/api';
import { type FetchUsageRequest, fetchUsageRequestSchema } from '@lp/contract/transactions/schemas';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { acme, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { loadConfig } from '../../platform/config.ts';
import { loadOrCreateSecret } from '../../platform/secrets.ts';
import { parseInput } from '../../platform/validate.ts';
import { listUsage } from './service.ts';

/*
 * Large /api/fetchUsage pages (decision 021): streamed from a database cursor in the same envelope as the
 * in-memory path, and admitted per user (LARGE_PAGES_PER_USER) so one user cannot take the node. Over a real
 * socket (the app listening): what is tested is the streaming and the client that stops reading.
 */
const BIG = acme.customerNumber;
// Wide rows (a 2 000-character project) make the whole account ~19 MB: more than socket buffers hold.
const ROWS = 8000;
const PATH = transactionsApi.page.path;

const request = (over: Partial<FetchUsageRequest> = {}): FetchUsageRequest => ({
  customerNumber: BIG,
  limit: 30_000,
  ...over,
});

const test = apiTest
  .override(
    'appEnv',
    { scope: 'file' },
    {
      LARGE_PAGES_PER_USER: '1',
      LARGE_PAGES_PER_NODE: '2',
      LARGE_PAGE_WAIT_MS: '3000',
    },
  )
  /** The page as a real HTTP client asks for it. */
  .extend(
    'post',
    { scope: 'file' },
    async ({ baseUrl }) =>
      (who: Caller, body: unknown) =>
        fetch(`${baseUrl}${PATH}`, {
          method: 'POST',
          headers: { ...who.headers, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
  )
  /** The in-memory path of the same request (the reader asking), for comparison. */
  .extend('inMemory', { scope: 'file' }, async ({ app, database, cast: { reader } }) => {
    const ctx = {
      config: loadConfig({}),
      database,
      db: database.db,
      secret: await loadOrCreateSecret(database.db, 'app-secret'),
      log: app.log,
    };
    const principal = {
      userId: reader.userId,
      email: reader.email,
      name: 'reader',
      vendorRoles: [],
      via: 'session' as const,
    };
    return async (body: FetchUsageRequest) => {
      const page = await listUsage(ctx, principal, parseInput(fetchUsageRequestSchema, body));
      // Through JSON like the wire: dates and undefined as the client would see them.
      return JSON.parse(JSON.stringify({ status: 'SUCCESS', data: page.rows, token: page.token }));
    };
  })
  /**
   * Sends a request on a raw socket and stops reading once the answer starts. An HTTP client that keeps reading
   * into its own buffers lets Linux grow the receive window (tcp_rmem allows up to 32 MB here), and then the
   * whole page can fit in socket buffers; a socket nobody reads keeps a small window, so the server must wait.
   */
  .extend('holdLargePage', { scope: 'file' }, async ({ baseUrl }) => async (who: Caller, body: unknown) => {
    const payload = JSON.stringify(body);
    const socket = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const head = [
      `POST ${PATH} HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(payload)}`,
      ...Object.entries(who.headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`);
    const first = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
    socket.pause();
    return { socket, statusLine: first.toString('latin1').split('\r\n')[0] };
  });

// The cast comes first: its account Acme owns the usage.
test.beforeAll(async ({ database, cast: _accounts }) => {
  // Sessions with ties on StartTime (every 7 share one), running ones (NULL EndTime) and NULL CloudJobIds.
  await database.db.execute(sql`
    insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
      product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
      server_id, rate_table_version, rate, charged_cents)
    select ${BIG}, 'S' || g, st,
      case when g % 97 = 0 then null else st + make_interval(secs => 60 + (g * 37) % 36000) end,
      (array['Fluent','Mechanical','CFX'])[1 + g % 3], '2025 R1', 1 + g % 8,
      round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8, round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8,
      'USD', 'user' || g % 40, 'host-' || g % 25, 'project-' || g % 12 || '-' || repeat('x', 2000),
      case when g % 97 = 0 then 'Active' else 'Completed' end, '10.0.' || g % 250 || '.1',
      case when g % 3 = 0 then 'job-' || g end, 'SRV1', '2025.1.0', 2, (g * 13) % 5000
    from generate_series(1, ${ROWS}) g,
      lateral (select '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => (g / 7) * 60) as st) t`);
}, 120_000);

describe('large usage pages are streamed', { timeout: 120_000 }, () => {
  test.for([
    ['the limit of 30 000 over the whole account: one page, no token', request()],
    ['a chunk boundary: 2 000 rows, the extra row in the next chunk', request({ limit: 2000 })],
    ['the last page by offset', request({ limit: 2500, offset: 5800 })],
    [
      'sorted by product desc then a nullable column, some attributes',
      request({
        limit: 2500,
        offset: 700,
        sorting: [
          { name: 'Product', direction: 'desc' },
          { name: 'CloudJobId', direction: 'asc' },
        ],
        attributes: ['DeviceID', 'Product', 'CloudJobId', 'EndTime', 'EndTime_ts'],
      }),
    ],
    [
      'by token, filtered',
      request({
        limit: 1500,
        token: null,
        filter: { condition: 'ALL', criteria: [{ name: 'User', method: 'CONTAINS', value: 'user1' }] },
      }),
    ],
  ] as const)(
    '%s: the same rows, order and envelope as the in-memory path',
    async ([_name, body], { cast: { reader }, post, inMemory }) => {
      const streamed = await post(reader, body);
      expect(streamed.status).toBe(200);
      // Streamed: no length known up front.
      expect(streamed.headers.get('content-length')).toBeNull();
      expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
      const expected = await inMemory(body);
      expect(expected.data.length).toBeGreaterThan(1000);
      expect(await streamed.json()).toEqual(expected);
    },
  );

  test('continues by the streamed page token exactly as by the in-memory one', async ({
    cast: { reader },
    post,
    inMemory,
  }) => {
    const first = await (await post(reader, request({ limit: 3000, token: null }))).json();
    expect(first.data).toHaveLength(3000);
    const next = await (await post(reader, request({ limit: 20, token: first.token }))).json();
    const all = await inMemory(request({ limit: 3020, token: null }));
    expect(next.data).toEqual(all.data.slice(3000));
  });

  test('answers errors before the first row in the FAILURE shape', async ({
    signIn,
    cast: { reader },
    post,
  }) => {
    const badToken = await post(reader, request({ token: 'forged.token' }));
    expect(badToken.status).toBe(400);
    expect(await badToken.json()).toMatchObject({ status: 'FAILURE', err: expect.any(String) });
    // Someone of no account at all.
    const eve = await signIn('eve@elsewhere.example');
    const denied = await post(eve, request());
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      status: 'FAILURE',
      err: messages.noPermissionPage,
      code: 'FORBIDDEN',
    });
  });
});

describe('large usage pages are admitted per user', { timeout: 120_000 }, () => {
  test("refuses a user's extra large page with 429 while another user's is served; the slot frees when the client leaves", async ({
    cast: { reader, boss },
    post,
    holdLargePage,
  }) => {
    // The reader's first export holds their one slot: its body is not read, so the stream waits on the socket.
    const held = await holdLargePage(reader, request());
    expect(held.statusLine).toBe('HTTP/1.1 200 OK');

    const extra = await post(reader, request());
    expect(extra.status).toBe(429);
    expect(await extra.json()).toEqual({
      status: 'FAILURE',
      err: messages.tooManyLargeRequests,
      code: 'RATE_LIMITED',
    });

    const other = await post(boss, request({ limit: 1500 }));
    expect(other.status).toBe(200);
    expect((await other.json()).data).toHaveLength(1500);

    // Small pages are never held back.
    const small = await post(reader, request({ limit: 20 }));
    expect(small.status).toBe(200);

    held.socket.destroy();
    // The next one waits in line for the freed slot instead of failing.
    const after = await post(reader, request({ limit: 1500 }));
    expect(after.status).toBe(200);
    expect((await after.json()).data).toHaveLength(1500);
  });
});
