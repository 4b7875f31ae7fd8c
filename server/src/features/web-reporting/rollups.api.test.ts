import { webReportingApi } from '@lp/contract/web-reporting/api';
import type { HeatmapCell } from '@lp/contract/web-reporting/schemas';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { buildEntitlement, buildProduct, dayFromToday } from '../../../harness/factories.ts';
import { type Api, acme, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { addGroupTerms, addLease, addWebGroup, addWebPerson } from '../../../test/web-leases.ts';
import { queryRows } from '../../db/database.ts';
import { rollUpWebUsage, webUsageRollupJob } from './service.ts';

/*
 * Issue 24 §5 (decision 071 as built): the reports read rollups of closed hours and web_leases after the
 * watermark. On a mixed set of sessions (across hours and days, on the hour, of no length, back to back, in
 * groups, still open) and denials, every answer equals a computation over the sessions themselves (below, in
 * TypeScript) with no rollup, with the watermark at several points, after a window is rolled up again, and after
 * a lease open at the rollup ends.
 */

const CN = acme.customerNumber;
const NAMED = 'RU-NU';
const SHARED = 'RU-SW';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);

interface Session {
  part: string;
  group: string | null;
  user: string | null;
  start: number;
  /** null: open */
  end: number | null;
}

/** A small deterministic random stream (the data set is the same on every run). */
function stream(seed: number) {
  let x = seed;
  return (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((x / 2_147_483_648) * n);
  };
}

/** What the reports should answer for [fromDay, toDay], from the sessions alone (open ones end `now`). */
function expected(sessions: Session[], fromDay: string, toDay: string, now: number) {
  const p0 = at(`${fromDay}T00:00:00Z`);
  const p1 = at(`${toDay}T00:00:00Z`) + DAY;
  const inPeriod = sessions
    .filter((s) => s.start < p1 && (s.start >= p0 || s.end === null || s.end > p0))
    .map((s) => ({ ...s, s: Math.max(s.start, p0), e: Math.min(s.end ?? now, p1) }));
  const days: number[] = [];
  for (let d = p0; d < p1; d += DAY) days.push(d);
  const use = (part: string, group: string | null) => {
    const mine = inPeriod.filter((s) => s.part === part && (group === null || s.group === group));
    const open = (t: number) => mine.filter((s) => s.s <= t && t < s.e).length;
    const peaks = days.map((d) =>
      Math.max(open(d), ...mine.filter((s) => s.s >= d && s.s < d + DAY).map((s) => open(s.s))),
    );
    const users = new Set(mine.flatMap((s) => (s.user === null ? [] : [s.user]))).size;
    return { peaks, users };
  };
  const heatmap = (part?: string) => {
    const cells = new Map<string, { started: number; active: number }>();
    const cell = (t: number) => {
      const d = new Date(t);
      const key = `${(d.getUTCDay() + 6) % 7}-${d.getUTCHours()}`;
      const c = cells.get(key) ?? { started: 0, active: 0 };
      cells.set(key, c);
      return c;
    };
    for (const s of inPeriod.filter((x) => part === undefined || x.part === part)) {
      if (s.start >= p0) cell(s.start).started += 1;
      for (let h = Math.floor(s.s / HOUR) * HOUR; h < s.e; h += HOUR) cell(h).active += 1;
    }
    const all: HeatmapCell[] = [];
    for (let weekday = 0; weekday < 7; weekday++)
      for (let hour = 0; hour < 24; hour++)
        all.push({ weekday, hour, ...(cells.get(`${weekday}-${hour}`) ?? { started: 0, active: 0 }) });
    return all;
  };
  return { use, heatmap };
}

const test = apiTest.extend('world', { scope: 'file' }, async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Rollup Fluids - Named User', featureName: 'ru_fluids' });
  await buildProduct(db, SHARED, { name: 'Rollup Mechanical - Shared Web', featureName: 'ru_mech' });
  const line = (partNumber: string, licenseModel: string, quantity: number) =>
    buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate: dayFromToday(-400),
      endDate: dayFromToday(300),
    });
  await line(NAMED, 'Named User', 10);
  await line(SHARED, 'Shared Web', 4);
  const people: string[] = [];
  for (let k = 0; k < 12; k++) people.push(await addWebPerson(db, CN, `ru${k}@acme.example`));
  const design = await addWebGroup(db, CN, 'Rollup Design', people.slice(0, 5));
  const build = await addWebGroup(db, CN, 'Rollup Build', people.slice(5, 9));
  await addGroupTerms(db, CN, SHARED, design, 1, 3);
  await addGroupTerms(db, CN, SHARED, build, 1, null);

  const sessions: Session[] = [];
  const add = async (s: Session) => {
    sessions.push(s);
    await addLease(db, {
      customerNumber: CN,
      partNumber: s.part,
      poolKind: s.part === NAMED ? 'named' : 'shared',
      email: 'someone@acme.example',
      userId: s.user,
      groupId: s.group,
      start: new Date(s.start).toISOString(),
      end: s.end === null ? null : new Date(s.end).toISOString(),
    });
  };
  const random = stream(24);
  const base = at('2026-11-02T00:00:00Z');
  for (let i = 0; i < 160; i++) {
    const part = random(3) === 0 ? NAMED : SHARED;
    const who = random(people.length);
    const group = part === SHARED && random(2) === 0 ? (who < 5 ? design : who < 9 ? build : null) : null;
    // Starts on the minute, a fifth on the hour; lengths from none to 40 hours.
    const start = base + random(11 * 24 * 60) * 60_000;
    const onHour = random(5) === 0 ? Math.floor(start / HOUR) * HOUR : start;
    const length = [0, 15, 60, 90, 240, 600, 1440, 2400][random(8)] * 60_000;
    await add({
      part,
      group,
      user: random(20) === 0 ? null : people[who],
      start: onHour,
      end: onHour + length,
    });
  }
  // Back to back on the hour, sessions across midnight, and ends exactly at midnight.
  await add({
    part: SHARED,
    group: design,
    user: people[0],
    start: at('2026-11-04T14:00:00Z'),
    end: at('2026-11-04T15:00:00Z'),
  });
  await add({
    part: SHARED,
    group: design,
    user: people[1],
    start: at('2026-11-04T15:00:00Z'),
    end: at('2026-11-04T16:00:00Z'),
  });
  await add({
    part: SHARED,
    group: null,
    user: people[9],
    start: at('2026-11-05T22:30:00Z'),
    end: at('2026-11-06T00:00:00Z'),
  });
  await add({
    part: SHARED,
    group: null,
    user: people[10],
    start: at('2026-11-05T23:00:00Z'),
    end: at('2026-11-06T00:00:00Z'),
  });
  await add({
    part: SHARED,
    group: build,
    user: people[6],
    start: at('2026-11-05T23:59:00Z'),
    end: at('2026-11-06T02:00:00Z'),
  });
  // Still open: since before the rollups and across them.
  await add({ part: NAMED, group: null, user: people[11], start: at('2026-11-08T09:10:00Z'), end: null });
  await add({ part: SHARED, group: build, user: people[7], start: at('2026-11-10T17:45:00Z'), end: null });
  // Denials do not count as sessions.
  for (let i = 0; i < 20; i++)
    await addLease(db, {
      customerNumber: CN,
      partNumber: i % 2 ? SHARED : NAMED,
      email: `ru${i}@acme.example`,
      userId: people[i % people.length],
      start: new Date(base + i * 7 * HOUR).toISOString(),
      denial: i % 3 ? 'pool-full' : 'no-seat-assigned',
    });
  return { sessions, design, build };
});

const PERIODS = [
  ['2026-11-01', '2026-11-14'],
  ['2026-11-05', '2026-11-08'],
] as const;

/** Each comparison is 6 reports a period; under CI-like load on PGlite the first test ran past 60 s. */
const SLOW = { timeout: 240_000 };

/** Every period's utilisation and heat maps equal the computation over the sessions. */
async function expectAnswersOfSessions(
  api: Api,
  reader: Caller,
  world: { sessions: Session[]; design: string; build: string },
) {
  for (const [from, to] of PERIODS) {
    const want = expected(world.sessions, from, to, Date.now());
    const body = { customerNumber: CN, from, to };
    const utilisation = (await api.ok(reader, webReportingApi.utilisation, body)).data;
    for (const part of [NAMED, SHARED]) {
      const pool = utilisation.find((p) => p.partNumber === part);
      const { peaks, users } = want.use(part, null);
      expect({ part, from, peaks: pool?.days.map((d) => d.peak), users: pool?.activeUsers }).toEqual({
        part,
        from,
        peaks,
        users,
      });
      expect(pool?.peakConcurrent).toBe(Math.max(...peaks));
    }
    const groups = utilisation.find((p) => p.partNumber === SHARED)?.groups ?? [];
    for (const groupId of [world.design, world.build]) {
      const { peaks, users } = want.use(SHARED, groupId);
      expect(groups.find((g) => g.groupId === groupId)).toMatchObject({
        activeUsers: users,
        peakConcurrent: Math.max(...peaks),
      });
    }
    expect((await api.ok(reader, webReportingApi.heatmap, body)).data).toEqual(want.heatmap());
    expect((await api.ok(reader, webReportingApi.heatmap, { ...body, partNumber: SHARED })).data).toEqual(
      want.heatmap(SHARED),
    );
  }
}

describe('the reports over rollups', () => {
  test(
    'equal the sessions’ own numbers with no rollup, with the watermark at several points, and to now',
    SLOW,
    async ({ api, cast: { reader }, database: { db }, world }) => {
      // A sanity check of the data set: it has what the comparison is about.
      expect(world.sessions.some((s) => s.end !== null && s.end - s.start > DAY)).toBe(true);
      expect(world.sessions.some((s) => s.end === s.start)).toBe(true);
      await expectAnswersOfSessions(api, reader, world);
      for (const now of ['2026-11-03T00:04:00Z', '2026-11-06T10:17:00Z', '2026-11-09T00:03:00Z']) {
        const rolled = await rollUpWebUsage(db, new Date(now));
        // Five minutes for a late commit, then the hour: 00:04 rolls up to the hour before.
        expect(rolled.until).toBe(new Date(Math.floor((at(now) - 5 * 60_000) / HOUR) * HOUR).toISOString());
        await expectAnswersOfSessions(api, reader, world);
      }
      const [{ n }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from web_usage_hours`);
      expect(n).toBeGreaterThan(100);
      await rollUpWebUsage(db, new Date());
      await expectAnswersOfSessions(api, reader, world);
    },
  );

  test(
    'rolling up again, or a window again, leaves the same rows and answers',
    SLOW,
    async ({ api, cast: { reader }, database: { db }, world }) => {
      const now = new Date();
      await rollUpWebUsage(db, now);
      const rows = async () => ({
        hours: await queryRows(
          db,
          sql`select customer_number, part_number, group_id, hour::text, started, active, peak from web_usage_hours
          order by 1, 2, 3, 4`,
        ),
        people: await queryRows(
          db,
          sql`select customer_number, part_number, group_id, year, user_id, days::text from web_usage_people
          order by 1, 2, 3, 4, 5`,
        ),
      });
      const before = await rows();
      expect(await rollUpWebUsage(db, now)).toEqual({ from: null, until: null });
      expect(await rows()).toEqual(before);
      // The last week rolled up again (the watermark moved back): its rows are replaced by the same ones.
      await db.execute(sql`update web_usage_watermark set rolled_until = '2026-11-04T05:00:00Z'`);
      const again = await rollUpWebUsage(db, now);
      expect(again.from).toBe('2026-11-04T05:00:00.000Z');
      expect(await rows()).toEqual(before);
      await expectAnswersOfSessions(api, reader, world);
    },
  );

  test('a lease open at the rollup and ended after the watermark counts to its end, as it does in web_leases', async ({
    api,
    cast: { reader },
    database: { db },
    world,
  }) => {
    const today = new Date().toISOString().slice(0, 10);
    const period = { customerNumber: CN, from: dayFromToday(-2), to: today };
    const start = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR - 20 * 60_000;
    const [person] = await queryRows<{ id: string }>(
      db,
      sql`select id from web_users where email = 'ru3@acme.example'`,
    );
    await addLease(db, {
      customerNumber: CN,
      partNumber: SHARED,
      email: 'ru3@acme.example',
      userId: person.id,
      groupId: world.design,
      start: new Date(start).toISOString(),
      end: null,
    });
    // The earlier tests rolled up to now: this lease was not there then, so the hours since it began go again.
    await db.execute(
      sql`update web_usage_watermark set rolled_until = ${new Date(start - 40 * 60_000 - HOUR).toISOString()}`,
    );
    await rollUpWebUsage(db, new Date());
    const [{ until }] = await queryRows<{ until: string | Date }>(
      db,
      sql`select rolled_until as until from web_usage_watermark`,
    );
    expect(new Date(until).getTime()).toBeGreaterThan(start);
    // Every lease open at the rollup (this one and the data set's two) ends now, after the watermark.
    const end = Date.now();
    await db.execute(
      sql`update web_leases set outcome = 'released', ended_at = ${new Date(end).toISOString()}
        where customer_number = ${CN} and outcome = 'open'`,
    );
    const sessions: Session[] = [
      ...world.sessions.map((s) => ({ ...s, end: s.end ?? end })),
      { part: SHARED, group: world.design, user: person.id, start, end },
    ];
    const want = expected(sessions, period.from, period.to, end);
    const rolled = {
      utilisation: (await api.ok(reader, webReportingApi.utilisation, period)).data,
      heatmap: (await api.ok(reader, webReportingApi.heatmap, period)).data,
    };
    const shared = rolled.utilisation.find((p) => p.partNumber === SHARED);
    expect(shared?.days.map((d) => d.peak)).toEqual(want.use(SHARED, null).peaks);
    expect(shared?.activeUsers).toBe(want.use(SHARED, null).users);
    expect(shared?.groups.find((g) => g.groupId === world.design)?.activeUsers).toBe(
      want.use(SHARED, world.design).users,
    );
    expect(rolled.heatmap).toEqual(want.heatmap());
    // And the same as web_leases alone, with nothing rolled up.
    await db.execute(sql`delete from web_usage_watermark`);
    expect((await api.ok(reader, webReportingApi.utilisation, period)).data).toEqual(rolled.utilisation);
    expect((await api.ok(reader, webReportingApi.heatmap, period)).data).toEqual(rolled.heatmap);
  });

  test('the hourly job rolls up through the runner’s context (its own connection without the deadline)', async ({
    api,
    appContext,
    cast: { reader },
    database: { db },
    world,
  }) => {
    await db.execute(sql`delete from web_usage_watermark`);
    const now = new Date();
    await webUsageRollupJob.run(appContext, webUsageRollupJob.runKeyOf(now), now);
    const [{ until }] = await queryRows<{ until: string | Date }>(
      db,
      sql`select rolled_until as until from web_usage_watermark`,
    );
    expect(new Date(until).toISOString()).toBe(
      new Date(Math.floor((now.getTime() - 5 * 60_000) / HOUR) * HOUR).toISOString(),
    );
    const period = { customerNumber: CN, from: '2026-11-01', to: '2026-11-14' };
    const want = expected(world.sessions, period.from, period.to, Date.now());
    const shared = (await api.ok(reader, webReportingApi.utilisation, period)).data.find(
      (p) => p.partNumber === SHARED,
    );
    expect(shared?.days.map((d) => d.peak)).toEqual(want.use(SHARED, null).peaks);
  });
});
