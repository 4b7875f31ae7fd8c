import { clsApi } from '@lp/contract/cls/api';
import { platformApi } from '@lp/contract/platform/api';
import { prefsApi } from '@lp/contract/prefs/api';
import { statementsApi } from '@lp/contract/statements/api';
import { transactionsApi } from '@lp/contract/transactions/api';
import { webReportingApi } from '@lp/contract/web-reporting/api';
import { webSessionsApi } from '@lp/contract/web-sessions/api';
import { formatDate } from '@lp/domain/dates';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
  usageEvents,
} from '../../harness/elastic-factories.ts';
import { buildAccount } from '../../harness/factories.ts';
import { type ReplicaCluster, startReplicaCluster } from '../../harness/replica-cluster.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { buildAccountFixture } from '../../test/account-fixture.ts';
import { sample } from '../../test/metric-sample.ts';
import { addLease, hoursAgo } from '../../test/web-leases.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';
import type { AppContext } from '../platform/context.ts';
import type { Principal } from '../platform/principal.ts';
import { lagTolerantStream, WRITE_POSITION_COOKIE } from '../platform/read-routing.ts';
import { type Database, type Db, migrateDatabase, openPostgres, queryRows } from './database.ts';
import { ReadRouter, walPosition } from './replica.ts';

/*
 * Issue 25 §2 against a real streaming standby (initdb, pg_basebackup -R): reads that may lag go to the replica,
 * a caller's own write is read from the primary until the replica has replayed it, and a replica that stops is
 * skipped. PostgreSQL only: the replica is PostgreSQL's streaming replication.
 */

// The api-pglite project leaves `*.postgres.api.test.ts` out (vitest.config.ts).
describe('reads from a streaming replica', () => {
  let cluster: ReplicaCluster;
  let primary: Database;
  let replica: Database;
  let router: ReadRouter;

  beforeAll(async () => {
    cluster = await startReplicaCluster();
    primary = await openPostgres(cluster.primaryUrl, 2);
    replica = await openPostgres(cluster.replicaUrl, 2, { connectMs: 2_000 });
    await primary.db.execute(sql`create table notes (id int primary key, text text not null)`);
    router = new ReadRouter(primary, replica, 30);
  }, 120_000);

  afterAll(async () => {
    await replica?.close();
    await primary?.close();
    await cluster?.stop();
  });

  /** Where the router sends a read of a caller whose last write is `lastWrite`. */
  const readsFor = (lastWrite?: string, by = router) => (by.replicaFor(lastWrite) ? replica.db : primary.db);
  const notes = async (db: Db) =>
    (await queryRows<{ id: number }>(db, sql`select id from notes order by id`)).map((r) => r.id);
  const writePosition = () => walPosition(primary.db);
  /** Polls until the replica has replayed the primary's current position. */
  const caughtUp = async () => {
    const target = await writePosition();
    await expect
      .poll(
        async () => {
          await router.poll();
          return readsFor(target) === replica.db;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  };

  it('sends reads to the replica once it has replayed what the primary wrote', async () => {
    await primary.db.execute(sql`insert into notes values (1, 'first')`);
    await caughtUp();
    expect(router.status()).toMatchObject({ state: 'ok' });
    expect(readsFor()).toBe(replica.db);
    expect(await notes(readsFor())).toEqual([1]);
  });

  it("reads a caller's own write from the primary while the replica has not replayed it; others read the replica", async () => {
    await cluster.pauseReplay();
    await primary.db.execute(sql`insert into notes values (2, 'mine')`);
    const mine = await writePosition();
    await router.poll();
    // The writer sees the write; someone who wrote nothing reads the replica, where it is not yet.
    expect(readsFor(mine)).toBe(primary.db);
    expect(await notes(readsFor(mine))).toEqual([1, 2]);
    expect(await notes(readsFor())).toEqual([1]);
    // A position that is not one reads the primary too.
    expect(readsFor('not-a-position')).toBe(primary.db);
    await cluster.resumeReplay();
    await caughtUp();
    expect(await notes(readsFor(mine))).toEqual([1, 2]);
  });

  it('calls a replica behind the bound lagging and reads the primary', async () => {
    const strict = new ReadRouter(primary, replica, 1);
    await cluster.pauseReplay();
    try {
      const now = Date.now();
      await primary.db.execute(sql`insert into notes values (3, 'late')`);
      await strict.poll(now);
      await strict.poll(now + 2_500);
      expect(strict.status().state).toBe('lagging');
      expect(strict.status().lagSeconds).toBeGreaterThan(1);
      expect(readsFor(undefined, strict)).toBe(primary.db);
    } finally {
      await cluster.resumeReplay();
    }
  });

  it('skips a replica that stops: reads go to the primary and nothing fails', async () => {
    await caughtUp();
    await cluster.stopReplica();
    // Before any poll has noticed: a read and a stream that find the replica gone run on the primary instead.
    const ctx = { replica: router, db: primary.db, database: primary, log: pino({ level: 'silent' }) };
    const reader = { lastWrite: undefined } as Principal;
    expect(router.status().state).toBe('ok');
    const streamed: number[] = [];
    for await (const chunk of lagTolerantStream(ctx as unknown as AppContext, reader, (database) =>
      database.streamRows(sql`select id from notes order by id`, 2),
    ))
      streamed.push(...chunk.map((r) => Number(r.id)));
    expect(streamed).toEqual([1, 2, 3]);
    expect(router.status().state).toBe('down');
    // A write followed for freshness counts as visible once reads go to the primary, which has it.
    const visible: number[] = [];
    router.onVisible = (seconds) => visible.push(seconds);
    router.follow(await writePosition(), Date.now() - 5_000);
    await router.poll();
    expect(visible).toHaveLength(1);
    expect(visible[0]).toBeGreaterThanOrEqual(5);
    expect(router.status()).toEqual({ state: 'down', lagSeconds: null });
    expect(await notes(readsFor())).toEqual([1, 2, 3]);
  });
});

describe('the app with DATABASE_REPLICA_URL', () => {
  const CN = '7500001';
  const METRICS = 'metrics-token-0123456789';
  const SERVER = 'CLS-REPLICA-1';
  let cluster: ReplicaCluster;
  let primary: Database;
  let app: FastifyInstance;
  let cast: Awaited<ReturnType<typeof buildAccountFixture>>;
  let session = 0;

  /** `count` new sessions, as the license server posts them (on the primary). */
  const addSessions = async (count: number) => {
    const start = Date.now() - 3 * 3_600_000;
    await recordUsage(
      primary.db,
      { customerNumber: CN, elasticServerId: SERVER },
      Array.from({ length: count }, () => ({
        product: 'Fluent',
        count: 1,
        start: new Date(start + ++session * 60_000).toISOString(),
        end: new Date(start + session * 60_000 + 600_000).toISOString(),
        user: `u${session}`,
      })),
    );
  };
  const sessions = async (headers: Record<string, string>) => {
    const res = await app.inject({
      method: 'POST',
      url: transactionsApi.count.path,
      headers,
      payload: { customerNumber: CN },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as number;
  };
  /** A web checkout refused (on the primary): the web transactions and the denials report count it. */
  const addDenial = () =>
    addLease(primary.db, {
      customerNumber: CN,
      partNumber: 'WEB-REPLICA',
      email: `p${++session}@example.com`,
      // A minute apart from each other, so "data as of" moves with each.
      start: new Date(Date.parse(hoursAgo(3)) + session * 60_000).toISOString(),
      denial: 'pool-full',
    });
  const post = async (path: string, headers: Record<string, string>, payload: object) => {
    const res = await app.inject({ method: 'POST', url: path, headers, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /**
   * What every read that may lag shows this caller: the usage grid's export (streamed, over 1 000 rows asked),
   * the statement, the web transactions' count and "data as of", and the denials report.
   */
  const reads = async (headers: Record<string, string>) => {
    const today = formatDate(new Date());
    const period = { customerNumber: CN, from: formatDate(new Date(Date.now() - 2 * 86_400_000)), to: today };
    const exported = await post(transactionsApi.page.path, headers, { customerNumber: CN, limit: 30_000 });
    const statement = await post(statementsApi.statement.path, headers, {
      customerNumber: CN,
      from: '2020-01-01',
      to: today,
    });
    const webCount = await post(webSessionsApi.count.path, headers, { customerNumber: CN });
    const asOf = await post(webSessionsApi.transactionsAsOf.path, headers, { customerNumber: CN });
    const denials = await post(webReportingApi.denials.path, headers, period);
    return {
      exported: exported.data.length,
      statementUsed: statement.data.Records.map((r: { Used: number }) => r.Used),
      webTransactions: webCount.data,
      asOf: asOf.data.asOf,
      denials: denials.data.map((d: { total: number }) => d.total),
    };
  };
  const visibleBatches = async () => {
    const res = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } });
    return {
      count: sample(res.body, 'lp_usage_visible_seconds_count'),
      sum: sample(res.body, 'lp_usage_visible_seconds_sum') ?? 0,
    };
  };
  const readyz = async () => (await app.inject({ method: 'GET', url: platformApi.ready.path })).json();
  const replicaState = async () => (await readyz()).replica?.state;

  beforeAll(async () => {
    cluster = await startReplicaCluster();
    primary = await openPostgres(cluster.primaryUrl, 5);
    await migrateDatabase(primary, cluster.primaryUrl);
    cast = await buildAccountFixture(primary.db, CN, '7500002');
    await buildRateTable(primary.db, '2025.1.0', { Fluent: 2 });
    await buildElasticServer(primary.db, CN, SERVER);
    await buildElasticEntitlement(primary.db, CN, {
      activationId: 'ACT-REPLICA',
      quantity: 1_000,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    });
    await addSessions(3);
    await addDenial();
    app = await createTestApp(primary, {
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URL: cluster.replicaUrl,
      METRICS_TOKEN: METRICS,
      PIN_ENCRYPTION_KEY: 'a'.repeat(64),
      AUDIT_CHECKPOINT_KEY: 'b'.repeat(64),
    });
    await app.ready();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await primary?.close();
    await cluster?.stop();
  });

  it('measures how long a posted usage batch takes to reach the replica the usage pages read', async () => {
    await expect.poll(replicaState, { timeout: 30_000 }).toBe('ok');
    // Another account's server, so the usage of the test below stays as it counts it.
    const account = '7500003';
    await buildAccount(primary.db, { customerNumber: account, name: 'Freshness' });
    await buildElasticServer(primary.db, account, 'CLS-REPLICA-2');
    await buildElasticEntitlement(primary.db, account, {
      activationId: 'ACT-REPLICA-2',
      quantity: 1_000,
      startDate: '2020-01-01',
      endDate: '2099-12-31',
    });
    const { token } = await issueServerCredential(primary.db, {
      customerNumber: account,
      elasticServerId: 'CLS-REPLICA-2',
      createdBy: 'test',
    });
    const start = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const events = usageEvents([{ product: 'Fluent', start, end: new Date().toISOString() }]);
    const before = await visibleBatches();
    await cluster.pauseReplay();
    const posted = Date.now();
    const res = await app.inject({
      method: 'POST',
      url: clsApi.usage.path,
      headers: { authorization: `Bearer ${token}` },
      payload: { events },
    });
    expect(res.json()).toMatchObject({ accepted: 2 });
    // Held while the replica replays nothing: the app's polls see it behind, so the batch is not yet visible.
    await expect
      .poll(async () => (await readyz()).replica.lagSeconds, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect((await visibleBatches()).count).toBe(before.count);
    const held = (Date.now() - posted) / 1000;
    await cluster.resumeReplay();
    await expect
      .poll(async () => (await visibleBatches()).count, { timeout: 30_000 })
      .toBe((before.count ?? 0) + 1);
    expect((await visibleBatches()).sum - before.sum).toBeGreaterThanOrEqual(held);
  });

  it("reads usage from the replica, a user's own writes from the primary until replayed, and the primary when the replica stops", async () => {
    await expect.poll(replicaState, { timeout: 30_000 }).toBe('ok');
    await expect.poll(() => sessions(cast.reader), { timeout: 30_000 }).toBe(3);

    await expect.poll(async () => (await reads(cast.reader)).webTransactions, { timeout: 30_000 }).toBe(1);
    const before = await reads(cast.reader);
    expect(before).toMatchObject({ exported: 3, webTransactions: 1, denials: [1] });

    // New usage while the replica replays nothing: readers of the replica do not see it yet.
    await cluster.pauseReplay();
    await addSessions(2);
    await addDenial();
    expect(await sessions(cast.reader)).toBe(3);
    expect(await sessions(cast.boss)).toBe(3);
    expect(await reads(cast.reader)).toEqual(before);
    expect(await reads(cast.boss)).toEqual(before);

    // The boss writes (a saved view): from then on their usage reads come from the primary.
    const saved = await app.inject({
      method: 'POST',
      url: prefsApi.save.path,
      headers: cast.boss,
      payload: {
        tables: [
          {
            customerNumber: CN,
            tableName: 'emailList',
            filterModel: {},
            sortModel: [],
            columnOrder: [{ colId: 'date', sort: null, hide: false }],
          },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const position = saved.cookies.find((c) => c.name === WRITE_POSITION_COOKIE);
    expect(position?.value).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const boss = { ...cast.boss, cookie: `${cast.boss.cookie}; ${WRITE_POSITION_COOKIE}=${position?.value}` };
    expect(await sessions(boss)).toBe(5);
    expect(await sessions(cast.reader)).toBe(3);
    // Every other read that may lag follows the same rule: the writer reads the primary, where each has changed.
    const mine = await reads(boss);
    expect(mine).toMatchObject({ exported: 5, webTransactions: 2, denials: [2] });
    expect(mine.statementUsed).not.toEqual(before.statementUsed);
    expect(mine.asOf).not.toEqual(before.asOf);
    expect(await reads(cast.reader)).toEqual(before);

    await cluster.resumeReplay();
    await expect.poll(() => sessions(cast.reader), { timeout: 30_000 }).toBe(5);
    await expect.poll(() => reads(cast.reader), { timeout: 30_000 }).toEqual(mine);

    // The replica stops between two polls: the next read fails over to the primary, and nothing fails.
    await cluster.stopReplica();
    expect(await sessions(cast.reader)).toBe(5);
    expect(await replicaState()).toBe('down');
    await addSessions(1);
    expect(await sessions(cast.reader)).toBe(6);
    expect(await reads(cast.reader)).toMatchObject({ exported: 6, webTransactions: 2 });
  }, 120_000);
});
