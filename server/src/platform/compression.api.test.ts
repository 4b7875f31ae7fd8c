import zlib from 'node:zlib';
import { messages } from '@lp/contract/common/errors';
import { transactionsApi } from '@lp/contract/transactions/api';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { acme, apiTest, type Caller } from '../../test/api-fixture.ts';
import { COMPRESS_THRESHOLD_BYTES } from './compression.ts';

/*
 * Issue 21 §3: API answers are compressed (br or gzip, as Accept-Encoding allows) above a small size, the
 * streamed export pages included; small answers and clients that ask for nothing get them as they are.
 */
const ACCOUNT = acme.customerNumber;
const ROWS = 2500;

const test = apiTest.extend('fetchUsage', { scope: 'file' }, async ({ api }) => {
  return (who: Caller, limit: number, acceptEncoding?: string) =>
    api.call(
      who,
      transactionsApi.page,
      { customerNumber: ACCOUNT, limit },
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
    );
});

// The cast comes first: its account Acme owns the usage.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await database.db.execute(sql`
    insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
      product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
      server_id, rate_table_version, rate, charged_cents)
    select ${ACCOUNT}, 'S' || g, st, st + make_interval(secs => 60 + (g * 37) % 36000),
      (array['Fluent','Mechanical','CFX'])[1 + g % 3], '2025 R1', 1 + g % 8,
      round(((60 + (g * 37) % 36000) / 3600.0)::numeric, 2)::float8, round(((g * 13) % 5000 / 10.0)::numeric, 2)::float8,
      'USD', 'user' || g % 40, 'host-' || g % 25, 'project-' || g % 12, 'Completed', '10.0.' || g % 250 || '.1',
      case when g % 3 = 0 then 'job-' || g end, 'SRV1', '2025.1.0', 2, (g * 13) % 5000
    from generate_series(1, ${ROWS}) g,
      lateral (select '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => g * 60) as st) t`);
}, 120_000);

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;

describe('API answers are compressed as the client accepts', { timeout: 60_000 }, () => {
  test.for([
    ['a JSON page of 1 000 rows', 1000],
    ['the export page of 2 500 rows, streamed from a cursor', ROWS],
  ] as const)(
    '%s: br or gzip when asked, as it is otherwise, the same bytes',
    async ([, limit], { cast: { reader }, fetchUsage }) => {
      const plain = await fetchUsage(reader, limit);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.json().data).toHaveLength(limit);

      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['br;q=0.5, gzip', 'gzip'],
        ['gzip', 'gzip'],
        ['identity', undefined],
        ['deflate', undefined],
      ] as const) {
        const res = await fetchUsage(reader, limit, accept);
        expect([accept, res.statusCode, res.headers['content-encoding']]).toEqual([accept, 200, encoding]);
        expect(decode(encoding, res.rawPayload).equals(plain.rawPayload)).toBe(true);
        // The API's own headers stay: never cached, and a cache must tell the encodings apart.
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        if (encoding) {
          expect(res.headers.vary).toMatch(/accept-encoding/i);
          expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
        }
      }
    },
  );

  test('leaves small answers and error envelopes readable as they are', async ({
    cast: { reader, outsider },
    fetchUsage,
  }) => {
    const small = await fetchUsage(reader, 1, 'br, gzip');
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().data).toHaveLength(1);

    const denied = await fetchUsage(outsider, ROWS, 'br, gzip');
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['content-encoding']).toBeUndefined();
    expect(denied.json()).toEqual({ status: 'FAILURE', err: messages.noPermissionPage, code: 'FORBIDDEN' });
    expect(denied.headers['cache-control']).toBe('no-store');
  });
});
