import type { AddressInfo } from 'node:net';
import { queryRows } from '@lp/server/db/database';
import { issueServerCredential } from '@lp/server/features/cls-api/server-credentials';
import { reconcile } from '@lp/server/features/ledger/service';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
} from '@lp/server/harness/elastic-factories';
import { buildAccount } from '@lp/server/harness/factories';
import { createTestApp } from '@lp/server/harness/test-app';
import { createTestDatabase, type TestDatabase } from '@lp/server/test/test-db';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageSimulator } from './simulate.ts';

const CN = '5300001';
let database: TestDatabase;
let app: FastifyInstance;
let url: string;
let token: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await buildRateTable(database.db, '2025.1.0', { Solver: 2, Mesher: 0.5, Optics: 1.5 });
  await buildAccount(database.db, { customerNumber: CN });
  const clsId = await buildElasticServer(database.db, CN);
  const today = new Date().toISOString().slice(0, 10);
  await buildElasticEntitlement(database.db, CN, { quantity: 50, startDate: '2020-01-01', endDate: today });
  ({ token } = await issueServerCredential(database.db, {
    customerNumber: CN,
    elasticServerId: clsId,
    createdBy: 'test',
  }));
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('license-server simulator', () => {
  it('backfills history and runs live sessions through the API; the ledger balances', async () => {
    const logs: string[] = [];
    const simulator = new UsageSimulator(
      { url, token, rate: 240, duration: 3, backfillDays: 3, heartbeat: 1, leaveActive: true, seed: 7 },
      (line) => logs.push(line),
    );
    const result = await simulator.run();
    expect(result.rejected).toBe(0);
    expect(result.sent).toBeGreaterThan(30);
    expect(logs[0]).toContain('3 products, rate table 2025.1.0');
    const [counts] = await queryRows<{ finished: number; active: number; products: number; users: number }>(
      database.db,
      sql`select count(*) filter (where end_time is not null)::int as finished,
        count(*) filter (where end_time is null)::int as active, count(distinct product)::int as products,
        count(distinct username)::int as users from usage_sessions where customer_number = ${CN}`,
    );
    expect(counts.finished).toBeGreaterThanOrEqual(15);
    expect(counts.active).toBe(result.active);
    expect(counts.products).toBe(3);
    expect(counts.users).toBeGreaterThan(3);
    const [r] = await reconcile(database.db, CN);
    expect(r.balanced).toBe(true);
    expect(r.sessions).toBeGreaterThan(0);
  }, 60_000);

  it('reports a revoked or wrong token as a clear error', async () => {
    const simulator = new UsageSimulator(
      {
        url,
        token: 'cls_wrong',
        rate: 1,
        duration: 1,
        backfillDays: 0,
        heartbeat: 1,
        leaveActive: false,
        seed: 1,
      },
      () => {},
    );
    await expect(simulator.run()).rejects.toThrow('/cls/v1/policy: HTTP 401 Unauthorised');
  });
});
