import fs from 'node:fs';
import path from 'node:path';
import { type Database, type Db, openPglite, queryRows } from '@lp/server/db/database';
import { simulateWebSessions } from '@lp/server/features/demo/web-simulator';
import { issueWebCredential } from '@lp/server/features/web-sessions/web-credentials';
import { buildAccount, buildEntitlement, buildProduct, dayFromToday } from '@lp/server/harness/factories';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { addGroupTerms, addWebGroup, addWebPerson, assignNamedSeat } from '@lp/server/test/web-leases';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../test/run-cli.ts';

/* Issue 24 §2: the web-session simulator drives checkouts, heartbeats, releases and the sweep on a simulated clock. */

const CN = '5300024';
const NAMED = 'SIM-NU';
const SHARED = 'SIM-SW';
const engine = process.env.TEST_ENGINE ?? 'pglite';

/** An account with a named pool of 3 seats for 5 holders' demand and a shared pool of 4 seats for 10 people. */
async function buildWebAccount(db: Db) {
  await buildAccount(db, { customerNumber: CN });
  await buildProduct(db, NAMED, { name: 'Sim Fluids - Named User', featureName: 'sim_nu' });
  await buildProduct(db, SHARED, { name: 'Sim Mechanical - Shared Web', featureName: 'sim_sw' });
  for (const [partNumber, licenseModel, quantity] of [
    [NAMED, 'Named User', 3],
    [SHARED, 'Shared Web', 4],
  ] as const)
    await buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate: dayFromToday(-60),
      endDate: dayFromToday(300),
    });
  const ids: string[] = [];
  for (let i = 1; i <= 12; i++)
    ids.push(await addWebPerson(db, CN, `p${String(i).padStart(2, '0')}@sim.example`));
  await addWebPerson(db, CN, 'gone@sim.example', 'suspended');
  for (const id of ids.slice(0, 3)) await assignNamedSeat(db, CN, NAMED, id);
  const design = await addWebGroup(db, CN, 'Design', ids.slice(3, 8));
  const test = await addWebGroup(db, CN, 'Test', ids.slice(8, 12));
  // Design keeps 2 seats and may hold 3; Test may hold 1 at once.
  await addGroupTerms(db, CN, SHARED, design, 2, 3);
  await addGroupTerms(db, CN, SHARED, test, 0, 1);
  // Half-hour windows: heartbeats every 29 minutes keep the week's calls few.
  for (const partNumber of [NAMED, SHARED])
    await db.execute(
      sql`insert into web_pool_policies (customer_number, part_number, heartbeat_window_seconds, idle_timeout_seconds)
        values (${CN}, ${partNumber}, 1800, 1800)`,
    );
  await issueWebCredential(db, { product: 'Sim Online', partNumbers: [NAMED, SHARED], createdBy: 'test' });
}

describe('web-session simulator', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await buildWebAccount(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('writes a week of sessions and denials through the service, never above a pool’s seats', async () => {
    const until = new Date();
    const started = Date.now();
    const result = await simulateWebSessions(database.db, {
      customerNumber: CN,
      days: 7,
      until,
      seed: 11,
      heartbeatSeconds: 1740,
      // Most people every working day: more demand than seats whatever the weekdays of the week simulated.
      attendance: 0.9,
      openAtEnd: 2,
    });
    console.info(`web-simulate: a week in ${Date.now() - started} ms`, JSON.stringify(result));
    const { db } = database;
    expect(result.pools).toBe(2);
    expect(result.granted).toBeGreaterThan(40);
    // Leases on every working day of the week simulated (the days before today).
    const days = await queryRows<{ day: string }>(
      db,
      sql`select distinct to_char(started_at at time zone 'UTC', 'YYYY-MM-DD') as day from web_leases
        where customer_number = ${CN} and outcome <> 'denied' order by 1`,
    );
    for (let d = 1; d <= 7; d++) {
      const day = new Date(until.getTime() - d * 86_400_000);
      if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
      expect(days.map((r) => r.day)).toContain(day.toISOString().slice(0, 10));
    }
    // At no instant more leases of a pool than its seats: counted at every checkout (where the count can grow).
    const peaks = await queryRows<{ part_number: string; peak: number }>(
      db,
      sql`select s.part_number, max((select count(*) from web_leases l
          where l.customer_number = s.customer_number and l.part_number = s.part_number and l.outcome <> 'denied'
            and l.started_at <= s.started_at and (l.ended_at is null or l.ended_at > s.started_at)))::int as peak
        from web_leases s where s.customer_number = ${CN} and s.outcome <> 'denied'
        group by s.part_number order by s.part_number`,
    );
    expect(peaks).toEqual([
      { part_number: NAMED, peak: expect.any(Number) },
      { part_number: SHARED, peak: expect.any(Number) },
    ]);
    expect(peaks[0].peak).toBeLessThanOrEqual(3);
    expect(peaks[1].peak).toBeLessThanOrEqual(4);
    // Test's cap: never more than one seat counted to it at once.
    const [{ test_peak }] = await queryRows<{ test_peak: number }>(
      db,
      sql`with t as (select l.* from web_leases l join web_groups g on g.id = l.group_id and g.name = 'Test'
          where l.part_number = ${SHARED} and l.outcome <> 'denied')
        select coalesce(max((select count(*) from t l where l.started_at <= s.started_at
          and (l.ended_at is null or l.ended_at > s.started_at))), 0)::int as test_peak from t s`,
    );
    expect(test_peak).toBeLessThanOrEqual(1);
    // Demand above the seats was refused, with its reasons; sessions ended every way a session ends.
    const reasons = await queryRows<{ denial_reason: string }>(
      db,
      sql`select distinct denial_reason from web_leases where customer_number = ${CN} and outcome = 'denied'
        order by 1`,
    );
    expect(reasons.map((r) => r.denial_reason)).toEqual(expect.arrayContaining(['group-cap', 'pool-full']));
    expect(Object.keys(result.ended).sort()).toEqual(['heartbeat-lost', 'idle-timeout', 'released']);
    expect(result.open).toBeGreaterThanOrEqual(2);
    // The same seed writes the same history (leases as the sessions started, reasons, outcomes).
    const history = async () =>
      queryRows<{ h: string }>(
        db,
        sql`select md5(string_agg(concat_ws(',', email, part_number, started_at, ended_at, outcome, denial_reason),
            '|' order by id)) as h from web_leases where customer_number = ${CN}`,
      );
    const first = await history();
    await db.execute(sql`delete from web_leases where customer_number = ${CN}`);
    await simulateWebSessions(db, {
      customerNumber: CN,
      days: 7,
      until,
      seed: 11,
      heartbeatSeconds: 1740,
      attendance: 0.9,
      openAtEnd: 2,
    });
    expect(await history()).toEqual(first);
  }, 120_000);
});

describe('web-simulate command', () => {
  let dataDir: string;
  let pgDatabase: TestDatabase | undefined;
  const cli = (...args: string[]): Promise<CliRun> => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    if (pgDatabase?.url) env.DATABASE_URL = pgDatabase.url;
    return runCli(args, { env });
  };
  /** The database the command wrote, opened once it has ended (a PGlite folder has one user). */
  const withDatabase = async <T>(work: (database: Database) => Promise<T>): Promise<T> => {
    if (pgDatabase) return work(pgDatabase);
    const database = await openPglite(path.join(dataDir, 'pglite'));
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  };
  beforeAll(async () => {
    dataDir = await migratedDataDir('web-simulate');
    if (engine === 'postgres') pgDatabase = await createTestDatabase();
    await withDatabase(({ db }) => buildWebAccount(db));
  });
  afterAll(async () => {
    await pgDatabase?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('simulates the days asked for and answers what it did on stdout', async () => {
    const run = await cli(
      'web-simulate',
      '--account',
      CN,
      '--days',
      '2',
      '--seed',
      '5',
      '--heartbeat',
      '1700',
    );
    expect(run.stderr).toContain(`Simulating 2 days of web sessions for account ${CN} (seed 5)`);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ pools: 2, people: 13 });
    const leases = await withDatabase(async ({ db }) =>
      queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from web_leases where customer_number = ${CN}`,
      ),
    );
    expect(leases[0].n).toBe(result.checkouts);
  }, 120_000);

  it('refuses an account without a credential of its pools, and a call without --account', async () => {
    const none = await cli('web-simulate', '--account', CN, '--product', 'Nobody');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      `No active web credential covers a web seat pool of account ${CN} for product "Nobody"`,
    );
    const usage = await cli('web-simulate', '--days', '3');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('web-simulate needs --account CUSTOMER_NUMBER');
  });
});
