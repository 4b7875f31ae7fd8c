import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReplicaCluster, startReplicaCluster } from '../../test/replica-cluster.ts';
import { type Database, type Db, openPostgres, queryRows } from './database.ts';
import { ReadRouter } from './replica.ts';

/*
 * Issue 25 §2 against a real streaming standby (initdb, pg_basebackup -R): reads that may lag go to the replica,
 * a caller's own write is read from the primary until the replica has replayed it, and a replica that stops is
 * skipped. PostgreSQL only: the replica is PostgreSQL's streaming replication.
 */

const onPostgres = process.env.TEST_ENGINE === 'postgres';

describe.runIf(onPostgres)('reads from a streaming replica', () => {
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

  const notes = async (db: Db) =>
    (await queryRows<{ id: number }>(db, sql`select id from notes order by id`)).map((r) => r.id);
  const writePosition = async () =>
    (await queryRows<{ lsn: string }>(primary.db, sql`select pg_current_wal_lsn()::text as lsn`))[0].lsn;
  /** Polls until the replica has replayed the primary's current position. */
  const caughtUp = async () => {
    const target = await writePosition();
    await expect
      .poll(
        async () => {
          await router.poll();
          return router.readsFor(target) === replica.db;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
  };

  it('sends reads to the replica once it has replayed what the primary wrote', async () => {
    await primary.db.execute(sql`insert into notes values (1, 'first')`);
    await caughtUp();
    expect(router.status()).toMatchObject({ state: 'ok' });
    expect(router.readsFor()).toBe(replica.db);
    expect(await notes(router.readsFor())).toEqual([1]);
  });

  it("reads a caller's own write from the primary while the replica has not replayed it; others read the replica", async () => {
    await cluster.pauseReplay();
    await primary.db.execute(sql`insert into notes values (2, 'mine')`);
    const mine = await writePosition();
    await router.poll();
    // The writer sees the write; someone who wrote nothing reads the replica, where it is not yet.
    expect(router.readsFor(mine)).toBe(primary.db);
    expect(await notes(router.readsFor(mine))).toEqual([1, 2]);
    expect(await notes(router.readsFor())).toEqual([1]);
    // A position that is not one reads the primary too.
    expect(router.readsFor('not-a-position')).toBe(primary.db);
    await cluster.resumeReplay();
    await caughtUp();
    expect(await notes(router.readsFor(mine))).toEqual([1, 2]);
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
      expect(strict.readsFor()).toBe(primary.db);
    } finally {
      await cluster.resumeReplay();
    }
  });

  it('skips a replica that stops: reads go to the primary and nothing fails', async () => {
    await caughtUp();
    await cluster.stopReplica();
    await router.poll();
    expect(router.status()).toEqual({ state: 'down', lagSeconds: null });
    expect(await notes(router.readsFor())).toEqual([1, 2, 3]);
  });
});
