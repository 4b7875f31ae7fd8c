import { statementsApi } from '@lp/contract/statements/api';
import { webReportingApi } from '@lp/contract/web-reporting/api';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  buildElasticEntitlement,
  buildElasticServer,
  buildRateTable,
  recordUsage,
} from '../../../harness/elastic-factories.ts';
import { buildEntitlement, buildProduct } from '../../../harness/factories.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { addLease, addWebPerson } from '../../../test/web-leases.ts';
import { queryRows } from '../../db/database.ts';
import { ensureMonthPartitions, monthPartitions } from '../../db/partitions.ts';
import { reconcile } from '../ledger/service.ts';
import { rollUpWebUsage } from '../web-reporting/service.ts';
import { retireUsageMonths } from './service.ts';

/* Issue 25 §1, decision 073: raw sessions past retention are rolled up and their months dropped; nothing else moves. */

const CN = acme.customerNumber;
const SERVER = 'CLS-RETAIN-1';
const year2024 = { customerNumber: CN, from: '2024-01-01', to: '2024-12-31' };

const session = (start: string, hours: number, user: string) => ({
  product: 'Fluent',
  count: 2,
  start,
  end: new Date(Date.parse(start) + hours * 3_600_000).toISOString(),
  user,
});

const test = apiTest.extend('world', { scope: 'file' }, async ({ database, cast: _accounts }) => {
  const { db } = database;
  await buildRateTable(db, '2025.1.0', { Fluent: 3 });
  await buildElasticServer(db, CN, SERVER);
  await buildElasticEntitlement(db, CN, {
    activationId: 'ACT-RETAIN',
    quantity: 10_000,
    startDate: '2024-01-01',
    endDate: '2027-12-31',
  });
  await ensureMonthPartitions(db, 'usage_sessions', new Date('2024-01-01'), new Date('2026-12-01'));
  // A year of sessions (two a month, the second across a day boundary), and some in 2026.
  const sessions = [];
  for (let m = 1; m <= 12; m++) {
    const mm = String(m).padStart(2, '0');
    sessions.push(session(`2024-${mm}-05T09:00:00Z`, 3, 'ann'), session(`2024-${mm}-20T22:00:00Z`, 5, 'bob'));
  }
  sessions.push(session('2026-02-10T08:00:00Z', 2, 'ann'));
  await recordUsage(db, { customerNumber: CN, elasticServerId: SERVER }, sessions);
  return {};
});

const count = async (db: Parameters<typeof queryRows>[0], text: string) =>
  Number(Object.values((await queryRows<Record<string, unknown>>(db, sql.raw(text)))[0])[0]);

describe('usage retention', () => {
  test("keeps a year's statement, the ledger and the balance when the year's raw sessions are dropped; the rollups hold their sums", async ({
    api,
    database: { db },
    cast: { boss },
    world: _world,
  }) => {
    const statementBefore = await api.ok(boss, statementsApi.statement, year2024);
    const ledger = `select count(*) || ':' || sum(amount_cents) from elastic_ledger where customer_number = '${CN}'`;
    const ledgerBefore = await queryRows(db, sql.raw(ledger));
    const sessions2024 = `from usage_sessions where start_time < '2025-01-01'`;
    const sums = await queryRows<{ n: number; cents: string; hours: number }>(
      db,
      sql.raw(
        `select count(*)::int as n, sum(charged_cents)::text as cents, sum(hours) as hours ${sessions2024}`,
      ),
    );
    expect(sums[0].n).toBe(24);

    // 2027-02-14 with 25 months kept: January 2025 is the oldest month kept, so all of 2024 goes.
    const retired = await retireUsageMonths(db, new Date('2027-02-14T03:00:00Z'), 25);
    expect(retired.map((r) => r.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}-01`),
    );
    expect(retired.every((r) => r.sessions === 2)).toBe(true);

    expect(await count(db, `select count(*) ${sessions2024}`)).toBe(0);
    const months = (await monthPartitions(db, 'usage_sessions')).map((p) => p.month);
    expect(months[0]).toBe('2025-01-01');
    expect(await api.ok(boss, statementsApi.statement, year2024)).toEqual(statementBefore);
    expect(await queryRows(db, sql.raw(ledger))).toEqual(ledgerBefore);
    // The rollups: one row per account, day, server and product; together the sums of the sessions dropped.
    const rolled = await queryRows<{ n: number; cents: string; hours: number; days: number }>(
      db,
      sql.raw(`select sum(sessions)::int as n, sum(charged_cents)::text as cents, sum(hours) as hours,
                      count(*)::int as days
                 from usage_daily_rollups where customer_number = '${CN}' and day < '2025-01-01'`),
    );
    expect(rolled[0]).toEqual({ n: 24, cents: sums[0].cents, hours: sums[0].hours, days: 24 });
    // The charges of the rolled-up sessions still reconcile with the ledger.
    expect((await reconcile(db, CN)).map((r) => r.balanced)).toEqual([true]);
    // The 2026 session stayed.
    expect(await count(db, `select count(*) from usage_sessions where customer_number = '${CN}'`)).toBe(1);
    // The daily counts the usage grid's total reads (decision 076) went with the days, and still add up.
    expect(await count(db, `select count(*) from usage_daily_counts where day < '2025-01-01'`)).toBe(0);
    expect(
      await count(
        db,
        `select coalesce(sum(sessions), 0) from usage_daily_counts where customer_number = '${CN}'`,
      ),
    ).toBe(1);
  });

  test('writes one vendor-wide audit entry per month dropped, and a second run drops nothing', async ({
    database: { db },
    world: _world,
  }) => {
    const entries = await queryRows<{ id: string; after: { sessions: number; retentionMonths: number } }>(
      db,
      sql`select object_id as id, after from audit_entries where action = 'usage-retention.month.dropped'
           order by object_id`,
    );
    expect(entries.map((e) => e.id)).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`),
    );
    expect(entries[0].after).toMatchObject({ sessions: 2, retentionMonths: 25 });
    expect(await retireUsageMonths(db, new Date('2027-02-14T03:00:00Z'), 25)).toEqual([]);
  });

  test("rolls up and removes the default partition's sessions of months already dropped", async ({
    database: { db },
    world: _world,
  }) => {
    // An import of old sessions lands in the default partition once its month is gone.
    await db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, product, product_count,
        hours, charge, currency, username, host, session_status, server_id, charged_cents)
      values (${CN}, 'late-1', '2024-03-05T10:00:00Z', 'Fluent', 1, 2, 6, 'EUR', 'cy', 'h', 'Completed', ${SERVER}, 600)`);
    await retireUsageMonths(db, new Date('2027-02-14T03:00:00Z'), 25);
    expect(await count(db, `select count(*) from usage_sessions where session_id = 'late-1'`)).toBe(0);
    expect(await count(db, `select count(*) from usage_daily_counts where day < '2025-01-01'`)).toBe(0);
    expect(
      await count(
        db,
        `select sessions from usage_daily_rollups where customer_number = '${CN}' and day = '2024-03-05'`,
      ),
    ).toBe(2);
  });
});

describe('web lease retention', () => {
  const SHARED = 'RET-SW';
  const march2024 = { customerNumber: CN, from: '2024-03-01', to: '2024-03-31' };

  test("drops a month of web leases only once the reports' rollups cover it, and the month's reports read the same", async ({
    api,
    database: { db },
    cast: { boss },
    world: _world,
  }) => {
    await buildProduct(db, SHARED, { name: 'Retained Mechanical - Shared Web', featureName: 'ret_mech' });
    await buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber: SHARED,
      licenseModel: 'Shared Web',
      quantity: 4,
      startDate: '2024-01-01',
      endDate: '2027-12-31',
    });
    const people = [];
    for (const who of ['wa', 'wb', 'wc']) people.push(await addWebPerson(db, CN, `${who}@acme.example`));
    await ensureMonthPartitions(db, 'web_leases', new Date('2024-02-01'), new Date('2026-12-01'));
    for (const [i, userId] of people.entries()) {
      for (const day of ['04', '12', '27'])
        await addLease(db, {
          customerNumber: CN,
          partNumber: SHARED,
          email: `w${'abc'[i]}@acme.example`,
          userId,
          start: `2024-03-${day}T0${8 + i}:15:00Z`,
          end: `2024-03-${day}T1${i}:40:00Z`,
        });
    }
    await addLease(db, {
      customerNumber: CN,
      partNumber: SHARED,
      email: 'wa@acme.example',
      userId: people[0],
      start: '2026-02-02T09:00:00Z',
      end: '2026-02-02T11:00:00Z',
    });
    const reports = async () => ({
      utilisation: (await api.ok(boss, webReportingApi.utilisation, march2024)).data,
      heatmap: (await api.ok(boss, webReportingApi.heatmap, march2024)).data,
    });
    const before = await reports();
    expect(before.utilisation.find((p) => p.partNumber === SHARED)?.activeUsers).toBe(3);
    const leases = `select count(*) from web_leases where customer_number = '${CN}' and started_at < '2025-01-01'`;
    const later = new Date('2027-02-14T03:00:00Z');

    // Nothing is rolled up yet: no web month may go.
    expect((await retireUsageMonths(db, later, 25)).filter((r) => r.table === 'web_leases')).toEqual([]);
    expect(await count(db, leases)).toBe(9);

    // Rolled up to 2 April 2024: February and March go (the hours of April are not all rolled up).
    await rollUpWebUsage(db, new Date('2024-04-02T00:30:00Z'));
    const retired = (await retireUsageMonths(db, later, 25)).filter((r) => r.table === 'web_leases');
    expect(retired.map((r) => [r.month, r.sessions])).toEqual([
      ['2024-02-01', 0],
      ['2024-03-01', 9],
    ]);
    expect(await count(db, leases)).toBe(0);
    expect((await monthPartitions(db, 'web_leases'))[0].month).toBe('2024-04-01');
    expect(await reports()).toEqual(before);
    // The lease of 2026 stays.
    expect(await count(db, `select count(*) from web_leases where customer_number = '${CN}'`)).toBe(1);
  });
});
