import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../../harness/factories.ts';
import { withDatabase } from '../../test/global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { addLease } from '../../test/web-leases.ts';
import {
  type Database,
  migrateDatabase,
  migrationsFolder,
  openPglite,
  openPostgres,
  queryRows,
} from './database.ts';
import { ensureMonthPartitions, ensureUsagePartitions, monthPartitions, monthStart } from './partitions.ts';

/* Issue 25 §1, decision 073: usage sessions partitioned by UTC month, on both engines. */

const opened: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const d of opened.reverse()) await d.close();
});

async function migrated(): Promise<TestDatabase> {
  const d = await createTestDatabase();
  opened.push(d);
  return d;
}

/** An empty database of the run's engine, and its URL on PostgreSQL. */
async function emptyDatabase(): Promise<{ d: Database; url?: string }> {
  const base = process.env.TEST_DATABASE_URL;
  if (process.env.TEST_ENGINE !== 'postgres' || !base) {
    const d = await openPglite(undefined);
    opened.push(d);
    return { d };
  }
  const name = `lp_p_${randomBytes(5).toString('hex')}`;
  const admin = await openPostgres(base, 1);
  await admin.db.execute(sql.raw(`create database ${name}`));
  const url = withDatabase(base, name);
  const d = await openPostgres(url, 2);
  opened.push({
    async close() {
      await d.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  });
  return { d, url };
}

/** The migrations up to and including `lastTag`, as a folder of their own (the release before it). */
function migrationsUpTo(lastTag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-migrations-'));
  opened.push({ close: async () => fs.rmSync(dir, { recursive: true, force: true }) });
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'));
  const last = journal.entries.findIndex((e: { tag: string }) => e.tag === lastTag);
  const entries = journal.entries.slice(0, last + 1);
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const { tag } of entries)
    fs.copyFileSync(path.join(migrationsFolder, `${tag}.sql`), path.join(dir, `${tag}.sql`));
  return dir;
}

/** Inserts one session per start time (id from the sequence); answers nothing. */
async function insertSessions(d: { db: Database['db'] }, starts: string[], customerNumber = '7100001') {
  await d.db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, product, product_count,
      hours, charge, currency, username, host, session_status, server_id)
    select ${customerNumber}, 's-' || n, t::timestamptz, (array['Solver', 'Mesher'])[1 + n % 2], 1, 1, 1, 'EUR', 'ann', 'h1', 'Completed', 'CLS-P'
      from jsonb_array_elements_text(${JSON.stringify(starts)}::jsonb) with ordinality as x(t, n)`);
}

/** Per session id: the partition that holds it. */
async function whereSessionsAre(d: { db: Database['db'] }): Promise<Record<string, string>> {
  const rows = await queryRows<{ session_id: string; part: string }>(
    d.db,
    sql`select session_id, tableoid::regclass::text as part from usage_sessions order by id`,
  );
  return Object.fromEntries(rows.map((r) => [r.session_id, r.part]));
}

/** The tables a query's plan reads (EXPLAIN's relation names). */
async function tablesRead(d: { db: Database['db'] }, query: string): Promise<string[]> {
  const [row] = await queryRows<Record<string, unknown>>(d.db, sql.raw(`explain (format json) ${query}`));
  const plan = Object.values(row)[0];
  const text = typeof plan === 'string' ? plan : JSON.stringify(plan);
  return [...new Set([...text.matchAll(/"Relation Name":\s*"([^"]+)"/g)].map((m) => m[1]))].sort();
}

describe('usage sessions by month', () => {
  it('keeps a session in the partition of the month it started; a month without one holds it in the default partition until it is made', async () => {
    const d = await migrated();
    await ensureMonthPartitions(d.db, 'usage_sessions', new Date('2026-01-15'), new Date('2026-02-01'));
    await insertSessions(d, ['2026-01-31T23:59:59.999Z', '2026-02-01T00:00:00Z', '2031-07-04T12:00:00Z']);
    expect(await whereSessionsAre(d)).toEqual({
      's-1': 'usage_sessions_p2026_01',
      's-2': 'usage_sessions_p2026_02',
      's-3': 'usage_sessions_default',
    });
    const before = await queryRows(d.db, sql`select * from usage_sessions order by id`);

    await ensureMonthPartitions(d.db, 'usage_sessions', new Date('2031-07-01'), new Date('2031-07-01'));
    expect((await whereSessionsAre(d))['s-3']).toBe('usage_sessions_p2031_07');
    // Moved, not copied or lost: the same rows, value for value.
    expect(await queryRows(d.db, sql`select * from usage_sessions order by id`)).toEqual(before);
    expect((await monthPartitions(d.db, 'usage_sessions')).map((p) => p.month)).toEqual(
      expect.arrayContaining(['2026-01-01', '2026-02-01', '2031-07-01']),
    );
  });

  it('makes the months ingest can write, from the backfill window to three months ahead, and again safely', async () => {
    const d = await migrated();
    const now = new Date('2027-05-20T10:00:00Z');
    await ensureUsagePartitions(d.db, now, 60);
    await Promise.all([ensureUsagePartitions(d.db, now, 60), ensureUsagePartitions(d.db, now, 60)]);
    const months = (await monthPartitions(d.db, 'usage_sessions')).map((p) => p.month);
    for (const m of ['2027-03-01', '2027-04-01', '2027-05-01', '2027-06-01', '2027-07-01', '2027-08-01'])
      expect(months).toContain(m);
    expect(months).not.toContain('2027-09-01');
    expect(monthStart(now, 3)).toBe('2027-08-01');
    // Web leases start when they are checked out: this month and three ahead.
    const web = (await monthPartitions(d.db, 'web_leases')).map((p) => p.month);
    for (const m of ['2027-05-01', '2027-06-01', '2027-07-01', '2027-08-01']) expect(web).toContain(m);
    expect(web).not.toContain('2027-04-01');
  });

  it("gives every usage month partition, old and new, the default partition's fillfactor; web leases keep the default", async () => {
    const d = await migrated();
    await ensureMonthPartitions(d.db, 'usage_sessions', new Date('2033-01-01'), new Date('2033-02-01'));
    await ensureMonthPartitions(d.db, 'web_leases', new Date('2033-01-01'), new Date('2033-01-01'));
    const options = await queryRows<{ name: string; options: string | null }>(
      d.db,
      sql`select c.relname as name, array_to_string(c.reloptions, ',') as options
            from pg_inherits i join pg_class c on c.oid = i.inhrelid
           where i.inhparent in ('usage_sessions'::regclass, 'web_leases'::regclass)`,
    );
    const usage = options.filter((o) => o.name.startsWith('usage_sessions_'));
    expect(usage.map((o) => o.name)).toEqual(
      expect.arrayContaining([
        'usage_sessions_default',
        'usage_sessions_p2033_01',
        'usage_sessions_p2033_02',
      ]),
    );
    for (const o of usage) expect(o.options, o.name).toBe('fillfactor=50');
    const web = options.filter((o) => o.name.startsWith('web_leases_'));
    expect(web.map((o) => o.name)).toContain('web_leases_p2033_01');
    for (const o of web) expect(o.options, o.name).toBeNull();
  });

  it("reads only the partitions of the months a query's period covers (EXPLAIN)", async () => {
    const d = await migrated();
    await ensureMonthPartitions(d.db, 'usage_sessions', new Date('2026-01-01'), new Date('2026-06-01'));
    await insertSessions(d, ['2026-01-10T00:00:00Z', '2026-03-10T00:00:00Z', '2026-05-10T00:00:00Z']);
    const account = `customer_number = '7100001'`;
    expect(
      await tablesRead(
        d,
        `select id from usage_sessions where ${account}
           and start_time >= '2026-03-01T00:00:00Z' and start_time < '2026-04-01T00:00:00Z'
         order by start_time desc, id desc limit 100`,
      ),
    ).toEqual(['usage_sessions_p2026_03']);
    expect(
      await tablesRead(
        d,
        `select count(*) from usage_sessions where ${account}
           and start_time >= '2026-02-15T00:00:00Z' and start_time < '2026-04-15T00:00:00Z'`,
      ),
    ).toEqual(['usage_sessions_p2026_02', 'usage_sessions_p2026_03', 'usage_sessions_p2026_04']);
  });
});

describe('migrations 0018 and 0020', () => {
  it('turn the unpartitioned usage tables into partitioned ones without losing a row; ids go on from the same sequences', async () => {
    const { d, url } = await emptyDatabase();
    await migrateDatabase(d, url, undefined, migrationsUpTo('0017_web_usage_rollups'));
    const [{ kind }] = await queryRows<{ kind: string }>(
      d.db,
      sql`select relkind::text as kind from pg_class where relname = 'usage_sessions'`,
    );
    expect(kind).toBe('r');
    const now = new Date();
    // Three sessions a month for the last 14 months, one from 12 years ago (older than the migration's ten).
    const starts = Array.from({ length: 42 }, (_, i) =>
      new Date(
        Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - Math.floor(i / 3), 1 + (i % 3) * 9, 8),
      ).toISOString(),
    );
    await insertSessions(d, [...starts, '2014-06-01T00:00:00Z']);
    const before = await queryRows(d.db, sql`select * from usage_sessions order by id`);
    await buildAccount(d.db, { customerNumber: '7100001' });
    for (const start of starts.slice(0, 6))
      await addLease(d.db, {
        customerNumber: '7100001',
        partNumber: 'P-SW',
        email: 'ann@example.com',
        start,
        end: null,
      });
    const leasesBefore = await queryRows<{ id: string | number }>(
      d.db,
      sql`select * from web_leases order by id`,
    );
    const [{ last }] = await queryRows<{ last: string }>(
      d.db,
      sql`select max(id)::text as last from usage_sessions`,
    );

    await migrateDatabase(d, url);

    const [{ kind: after }] = await queryRows<{ kind: string }>(
      d.db,
      sql`select relkind::text as kind from pg_class where relname = 'usage_sessions'`,
    );
    expect(after).toBe('p');
    expect(await queryRows(d.db, sql`select * from usage_sessions order by id`)).toEqual(before);
    const where = await whereSessionsAre(d);
    expect(where['s-43']).toBe('usage_sessions_default');
    expect(where['s-1']).toBe(`usage_sessions_p${monthStart(now).slice(0, 7).replace('-', '_')}`);
    expect(Object.values(where).filter((p) => p === 'usage_sessions_default')).toHaveLength(1);
    // Migrations 0021 and 0022 counted the sessions there were per account, server, UTC day and product (decisions
    // 076 and 077), and the index of an account's users orders each user's sessions by start.
    const daily = sql`select customer_number, server_id, (start_time at time zone 'UTC')::date::text as day,
        product, count(*)::int as n from usage_sessions group by 1, 2, 3, 4 order by 1, 2, 3, 4`;
    expect(
      await queryRows(
        d.db,
        sql`select customer_number, server_id, day::text as day, product, sessions::int as n from usage_daily_counts
          order by 1, 2, 3, 4`,
      ),
    ).toEqual(await queryRows(d.db, daily));
    expect(
      await queryRows(
        d.db,
        sql`select indexdef from pg_indexes where indexname = 'usage_sessions_customer_user_idx'`,
      ),
    ).toEqual([{ indexdef: expect.stringContaining('(customer_number, username, start_time, id)') }]);
    // The next session continues the old numbering.
    await insertSessions(d, [now.toISOString()], '7100002');
    const [{ id }] = await queryRows<{ id: string }>(
      d.db,
      sql`select id::text as id from usage_sessions where customer_number = '7100002'`,
    );
    expect(BigInt(id)).toBeGreaterThan(BigInt(last));
    // Web leases: every row and its lease id kept, in its month; the identity goes on after the old ids.
    expect(await queryRows(d.db, sql`select * from web_leases order by id`)).toEqual(leasesBefore);
    const parts = await queryRows<{ part: string }>(
      d.db,
      sql`select distinct tableoid::regclass::text as part from web_leases`,
    );
    expect(parts.map((p) => p.part)).not.toContain('web_leases_default');
    await addLease(d.db, {
      customerNumber: '7100001',
      partNumber: 'P-SW',
      email: 'bo@example.com',
      start: now.toISOString(),
    });
    const [{ newest }] = await queryRows<{ newest: number }>(
      d.db,
      sql`select max(id)::int as newest from web_leases`,
    );
    expect(newest).toBe(Math.max(...leasesBefore.map((l) => Number(l.id))) + 1);
    expect(await queryRows(d.db, sql`select to_regclass('usage_sessions_unpartitioned') as t`)).toEqual([
      { t: null },
    ]);
  });
});
