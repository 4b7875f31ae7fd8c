import os from 'node:os';
import { transactionsApi } from '@lp/contract/transactions/api';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { acme, apiTest } from '../../test/api-fixture.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from './config.ts';

const BIG = acme.customerNumber;
const ROWS = 3000;

const test = apiTest
  /** The app's log lines, as JSON (cleared by each test before it acts). */
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('lines', { scope: 'file' }, async ({}) => [] as Record<string, unknown>[])
  // The test app, but logging at info into `lines`.
  .override('app', { scope: 'file' }, async ({ database, lines }, { onCleanup }) => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: os.tmpdir(),
      SEED_ON_EMPTY: 'false',
      JOBS_ENABLED: 'false',
      WEB_DIST: '/nonexistent',
      SHUTDOWN_GRACE_MS: '0',
    });
    const app = await buildApp(config, database, {
      logStream: { write: (line) => lines.push(JSON.parse(line)) },
    });
    onCleanup(() => app.close());
    return app;
  })
  /** The usage page's URL on the app, listening (a real HTTP client, so streaming and encodings are real). */
  .extend('usageUrl', { scope: 'file' }, async ({ baseUrl }) => `${baseUrl}${transactionsApi.page.path}`);

// The cast comes first: its account Acme owns the usage.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await database.db.execute(sql`
    insert into usage_sessions (customer_number, session_id, start_time, end_time, product, product_version,
      product_count, hours, charge, currency, username, host, project, session_status, referer_ip, cloud_job_id,
      server_id, rate_table_version, rate, charged_cents)
    select ${BIG}, 'S' || g, st, st + interval '1 hour', 'Fluent', '2025 R1', 1, 1, 2, 'USD', 'user' || g % 40,
      'host-' || g % 25, 'project-' || g % 12 || '-' || repeat('x', 500), 'Completed', '10.0.0.1', null, 'SRV1',
      '2025.1.0', 2, 200
    from generate_series(1, ${ROWS}) g,
      lateral (select '2026-01-01T00:00:00Z'::timestamptz + make_interval(secs => g * 60) as st) t`);
}, 120_000);

/*
 * Issue 22 §2: a request that succeeded logs no warning or error (every large usage page used to log "Promise
 * errored, but reply.sent = true was set" at error level), and request log lines name the contract operation.
 */
describe('request logs', () => {
  test('a large (streamed) usage page that succeeds logs no warning or error', async ({
    cast: { reader },
    lines,
    usageUrl,
  }) => {
    lines.length = 0;
    for (const encoding of ['identity', 'gzip', 'br']) {
      const answer = await fetch(usageUrl, {
        method: 'POST',
        headers: { ...reader.headers, 'content-type': 'application/json', 'accept-encoding': encoding },
        body: JSON.stringify({ customerNumber: BIG, limit: 30_000 }),
      });
      expect(answer.status).toBe(200);
      expect((await answer.json()).data).toHaveLength(ROWS);
    }
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'request completed')).toHaveLength(3);
  });

  test("names the request's operation in its completed-request line", async ({
    cast: { reader },
    lines,
    usageUrl,
  }) => {
    lines.length = 0;
    const small = await fetch(usageUrl, {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ customerNumber: BIG, limit: 10 }),
    });
    expect(small.status).toBe(200);
    await small.arrayBuffer();
    const completed = lines.find((l) => l.msg === 'request completed');
    expect(completed).toMatchObject({ operation: 'listUsage', res: { statusCode: 200 } });
    expect(lines.filter((l) => (l.level as number) >= 40)).toEqual([]);
  });
});
