import net from 'node:net';
import { messages } from '@lp/contract/common/errors';
import { type FetchUsageRequest, fetchUsageRequestSchema } from '@lp/contract/transactions/schemas';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Principal } from '../../platform/principal.ts';
import { loadOrCreateSecret } from '../../platform/secrets.ts';
import { parseInput } from '../../platform/validate.ts';
import { listUsage } from './service.ts';

/*
 * Large /api/fetchUsage pages (decision 021): streamed from a database cursor in the same envelope as the
 * in-memory path, and admitted per user (LARGE_PAGES_PER_USER) so one user cannot take the node.
 */
const BIG = '5400001';
// Wide rows (a 2 000-character project) make the whole account ~19 MB: more than socket buffers hold.
const ROWS = 8000;

let database: TestDatabase;
let app: FastifyInstance;
let base: string;
let ctx: AppContext;
let anna: Principal;
const headers: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  app = await createTestApp(database, {
    LARGE_PAGES_PER_USER: '1',
    LARGE_PAGES_PER_NODE: '2',
    LARGE_PAGE_WAIT_MS: '3000',
  });
  await buildAccount(db, { customerNumber: BIG, name: 'Big Usage Ltd' });
  for (const who of ['anna', 'ben']) {
    await addContact(db, BIG, `${who}@big.example`, contactRoles.viewer);
    const signedIn = await signInAs(db, `${who}@big.example`);
    headers[who] = signedIn.headers;
    if (who === 'anna')
      anna = {
        userId: signedIn.userId,
        email: 'anna@big.example',
        name: 'anna',
        vendorRoles: [],
        via: 'session',
      };
  }
  ctx = {
    config: loadConfig({}),
    database,
    db,
    secret: await loadOrCreateSecret(db, 'app-secret'),
    log: app.log,
  };
  // Sessions with ties on StartTime (every 7 share one), running ones (NULL EndTime) and NULL CloudJobIds.
  await db.execute(sql`
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
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** The in-memory path of the same request, for comparison. */
async function inMemory(body: FetchUsageRequest) {
  const page = await listUsage(ctx, anna, parseInput(fetchUsageRequestSchema, body));
  // Through JSON like the wire: dates and undefined as the client would see them.
  return JSON.parse(JSON.stringify({ status: 'SUCCESS', data: page.rows, token: page.token }));
}

const post = (url: string, who: string, body: unknown) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: { ...headers[who], 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/**
 * Sends a request on a raw socket and stops reading once the answer starts. An HTTP client that keeps reading
 * into its own buffers lets Linux grow the receive window (tcp_rmem allows up to 32 MB here), and then the
 * whole page can fit in socket buffers; a socket nobody reads keeps a small window, so the server must wait.
 */
async function holdLargePage(who: string, body: unknown) {
  const payload = JSON.stringify(body);
  const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const head = [
    'POST /api/fetchUsage HTTP/1.1',
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(payload)}`,
    ...Object.entries(headers[who]).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`);
  const first = await new Promise<Buffer>((resolve) => socket.once('data', resolve));
  socket.pause();
  return { socket, statusLine: first.toString('latin1').split('\r\n')[0] };
}

const request = (over: Partial<FetchUsageRequest> = {}): FetchUsageRequest => ({
  customerNumber: BIG,
  limit: 30_000,
  ...over,
});

describe('large usage pages are streamed', { timeout: 120_000 }, () => {
  it.each([
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
  ])('%s: the same rows, order and envelope as the in-memory path', async (_name, body) => {
    const streamed = await post('/api/fetchUsage', 'anna', body);
    expect(streamed.status).toBe(200);
    // Streamed: no length known up front.
    expect(streamed.headers.get('content-length')).toBeNull();
    expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
    const expected = await inMemory(body);
    expect(expected.data.length).toBeGreaterThan(1000);
    expect(await streamed.json()).toEqual(expected);
  });

  it('continues by the streamed page token exactly as by the in-memory one', async () => {
    const first = await (await post('/api/fetchUsage', 'anna', request({ limit: 3000, token: null }))).json();
    expect(first.data).toHaveLength(3000);
    const next = await (
      await post('/api/fetchUsage', 'anna', request({ limit: 20, token: first.token }))
    ).json();
    const all = await inMemory(request({ limit: 3020, token: null }));
    expect(next.data).toEqual(all.data.slice(3000));
  });

  it('answers errors before the first row in the FAILURE shape', async () => {
    const badToken = await post('/api/fetchUsage', 'anna', request({ token: 'forged.token' }));
    expect(badToken.status).toBe(400);
    expect(await badToken.json()).toMatchObject({ status: 'FAILURE', err: expect.any(String) });
    const outsider = await signInAs(database.db, 'eve@elsewhere.example');
    headers.eve = outsider.headers;
    const denied = await post('/api/fetchUsage', 'eve', request());
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      status: 'FAILURE',
      err: messages.noPermissionPage,
      code: 'FORBIDDEN',
    });
  });
});

describe('large usage pages are admitted per user', { timeout: 120_000 }, () => {
  it("refuses a user's extra large page with 429 while another user's is served; the slot frees when the client leaves", async () => {
    // anna's first export holds her one slot: its body is not read, so the stream waits on the socket.
    const held = await holdLargePage('anna', request());
    expect(held.statusLine).toBe('HTTP/1.1 200 OK');

    const extra = await post('/api/fetchUsage', 'anna', request());
    expect(extra.status).toBe(429);
    expect(await extra.json()).toEqual({
      status: 'FAILURE',
      err: messages.tooManyLargeRequests,
      code: 'RATE_LIMITED',
    });

    const other = await post('/api/fetchUsage', 'ben', request({ limit: 1500 }));
    expect(other.status).toBe(200);
    expect((await other.json()).data).toHaveLength(1500);

    // Small pages are never held back.
    const small = await post('/api/fetchUsage', 'anna', request({ limit: 20 }));
    expect(small.status).toBe(200);

    held.socket.destroy();
    // The next one waits in line for the freed slot instead of failing.
    const after = await post('/api/fetchUsage', 'anna', request({ limit: 1500 }));
    expect(after.status).toBe(200);
    expect((await after.json()).data).toHaveLength(1500);
  });
});
