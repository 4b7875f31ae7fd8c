import { messages } from '@lp/contract/common/errors';
import { webReportingApi } from '@lp/contract/web-reporting/api';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import { contactRoles } from '@lp/domain/policy';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildProduct,
  dayFromToday,
} from '../../../harness/factories.ts';
import { acme, anonymous, apiTest } from '../../../test/api-fixture.ts';
import { addGroupTerms, addLease, addWebGroup, addWebPerson, hoursAgo } from '../../../test/web-leases.ts';

/*
 * Issue 24 (decision 071): /web-reporting's numbers on a hand-made set of sessions and denials whose answers are
 * known: the week of Monday 2026-11-02 (UTC).
 */

const CN = acme.customerNumber;
const BLOCKED = '4100024';
const NAMED = 'WR-NU';
const SHARED = 'WR-SW';
const mail = (who: string) => `${who}@acme.example`;
const WEEK = { customerNumber: CN, from: '2026-11-02', to: '2026-11-08' };
const daysAgo = (days: number) => hoursAgo(days * 24);

const test = apiTest.extend('world', { scope: 'file' }, async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Fluids Premium - Named User', featureName: 'wr_fluids' });
  await buildProduct(db, SHARED, { name: 'Mechanical - Shared Web', featureName: 'wr_mech' });
  const line = (partNumber: string, licenseModel: string, quantity: number) =>
    buildEntitlement(db, CN, {
      kind: 'SSL',
      partNumber,
      licenseModel,
      quantity,
      startDate: dayFromToday(-400),
      endDate: dayFromToday(300),
    });
  await line(NAMED, 'Named User', 6);
  await line(SHARED, 'Shared Web', 2);
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Pending' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  const people: Record<string, string> = {};
  for (const who of ['ann', 'bob', 'cy', 'dan', 'eve', 'fay', 'gus', 'hal'])
    people[who] = await addWebPerson(db, CN, mail(who));
  const design = await addWebGroup(db, CN, 'Design', [people.ann, people.cy]);
  await addGroupTerms(db, CN, SHARED, design, 1, 2);

  // Sessions of the shared pool (times UTC).
  const session = (who: string, start: string, end: string | null, group?: string) =>
    addLease(db, {
      customerNumber: CN,
      partNumber: SHARED,
      email: mail(who),
      userId: people[who],
      groupId: group ?? null,
      start,
      end,
    });
  await session('dan', '2026-10-31T22:00:00Z', '2026-11-02T02:00:00Z');
  await session('ann', '2026-11-01T10:00:00Z', '2026-11-01T11:00:00Z');
  await session('ann', '2026-11-03T09:00:00Z', '2026-11-03T11:00:00Z', design);
  await session('bob', '2026-11-03T10:00:00Z', '2026-11-03T12:30:00Z');
  await session('cy', '2026-11-03T10:30:00Z', '2026-11-03T10:45:00Z', design);
  await session('ann', '2026-11-04T23:00:00Z', '2026-11-05T01:00:00Z');
  // Back to back: one seat at a time.
  await session('bob', '2026-11-06T14:00:00Z', '2026-11-06T15:00:00Z');
  await session('cy', '2026-11-06T15:00:00Z', '2026-11-06T16:00:00Z');

  // Denials.
  const deny = (who: string, partNumber: string, start: string, denial: string) =>
    addLease(db, { customerNumber: CN, partNumber, email: mail(who), userId: people[who], start, denial });
  await deny('eve', SHARED, '2026-11-03T10:35:00Z', 'pool-full');
  await deny('fay', SHARED, '2026-11-03T10:40:00Z', 'pool-full');
  await deny('eve', SHARED, '2026-11-03T10:50:00Z', 'pool-full');
  await deny('gus', SHARED, '2026-11-03T14:10:00Z', 'group-cap');
  await deny('hal', NAMED, '2026-11-04T08:00:00Z', 'no-seat-assigned');
  await deny('hal', SHARED, '2026-11-10T08:00:00Z', 'pool-full');

  // Named seats for the reclaim list.
  const seat = async (who: string, assignedDaysAgo: number, group?: string) =>
    db.execute(
      sql`insert into web_named_seats (customer_number, part_number, user_id, group_id, assigned_at)
        values (${CN}, ${NAMED}, ${people[who]}, ${group ?? null}, ${daysAgo(assignedDaysAgo)})`,
    );
  const named = (who: string, start: string, end: string | null) =>
    addLease(db, {
      customerNumber: CN,
      partNumber: NAMED,
      poolKind: 'named',
      email: mail(who),
      userId: people[who],
      start,
      end,
    });
  await seat('ann', 100);
  await named('ann', daysAgo(41), daysAgo(40));
  await seat('bob', 100);
  await named('bob', daysAgo(50), null);
  await seat('cy', 100, design);
  await seat('dan', 10);
  await seat('eve', 100);
  await named('eve', daysAgo(11), daysAgo(10));
  // fay used the shared pool lately, never the named one.
  await seat('fay', 100);
  await addLease(db, {
    customerNumber: CN,
    partNumber: SHARED,
    email: mail('fay'),
    userId: people.fay,
    start: daysAgo(5),
    end: daysAgo(5),
  });
  return { people, design, annLastSeen: daysAgo(40) };
});

describe('webUtilisation', () => {
  test('answers each pool’s seats, people, peak and daily capacity against peak, and the groups of shared pools', async ({
    api,
    cast: { reader },
    world: { design },
  }) => {
    const res = await api.ok(reader, webReportingApi.utilisation, WEEK);
    const shared = res.data.find((p) => p.partNumber === SHARED);
    expect(shared).toMatchObject({
      kind: 'shared',
      seats: 2,
      assigned: 0,
      activeUsers: 4,
      peakConcurrent: 3,
    });
    expect(shared?.days.map((d) => [d.day, d.seats, d.peak])).toEqual([
      ['2026-11-02', 2, 1],
      ['2026-11-03', 2, 3],
      ['2026-11-04', 2, 1],
      ['2026-11-05', 2, 1],
      ['2026-11-06', 2, 1],
      ['2026-11-07', 2, 0],
      ['2026-11-08', 2, 0],
    ]);
    expect(shared?.groups).toEqual([
      { groupId: design, groupName: 'Design', guaranteed: 1, cap: 2, activeUsers: 2, peakConcurrent: 2 },
    ]);
    // bob's named session, open since before the week, is its one person and its peak every day.
    const named = res.data.find((p) => p.partNumber === NAMED);
    expect(named).toMatchObject({
      kind: 'named',
      seats: 6,
      assigned: 6,
      activeUsers: 1,
      peakConcurrent: 1,
      groups: [],
    });
    expect(named?.days.map((d) => d.peak)).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });
});

describe('webUsageHeatmap', () => {
  test('counts sessions started in and open during each weekday hour (UTC)', async ({
    api,
    cast: { reader },
    world: _world,
  }) => {
    const res = await api.ok(reader, webReportingApi.heatmap, { ...WEEK, partNumber: SHARED });
    expect(res.data).toHaveLength(168);
    const cell = (weekday: number, hour: number) =>
      res.data.find((c) => c.weekday === weekday && c.hour === hour);
    // Tuesday 10:00: bob and cy started; ann, bob and cy were open.
    expect(cell(1, 10)).toEqual({ weekday: 1, hour: 10, started: 2, active: 3 });
    // ann's session ended at 11:00 sharp: only bob's is open in that hour.
    expect(cell(1, 11)).toEqual({ weekday: 1, hour: 11, started: 0, active: 1 });
    // dan's session began before the period: open in Monday's first two hours, not started in them.
    expect(cell(0, 0)).toEqual({ weekday: 0, hour: 0, started: 0, active: 1 });
    expect(cell(0, 2)).toEqual({ weekday: 0, hour: 2, started: 0, active: 0 });
    const all = await api.ok(reader, webReportingApi.heatmap, WEEK);
    expect(all.data.reduce((n, c) => n + c.started, 0)).toBe(6);
  });
});

describe('webDenials', () => {
  test('counts denials per pool and reason, and the seats that would have avoided the capacity ones', async ({
    api,
    cast: { reader },
    world: _world,
  }) => {
    const res = await api.ok(reader, webReportingApi.denials, WEEK);
    expect(res.data).toEqual([
      {
        partNumber: SHARED,
        productName: 'Mechanical - Shared Web',
        seats: 2,
        total: 4,
        byReason: [
          { reason: 'pool-full', label: 'Pool full', count: 3 },
          { reason: 'group-cap', label: 'Group at its cap', count: 1 },
        ],
        // eve (twice) and fay were refused within 10:00–11:00 on Tuesday: two more seats.
        seatsToAvoid: 2,
      },
      {
        partNumber: NAMED,
        productName: 'Fluids Premium - Named User',
        seats: 6,
        total: 1,
        byReason: [{ reason: 'no-seat-assigned', label: 'No seat assigned', count: 1 }],
        seatsToAvoid: 0,
      },
    ]);
  });
});

describe('webReclaim', () => {
  test('lists named seats held longer than the window whose person had no session of the pool in it', async ({
    api,
    cast: { reader },
    world: { people, annLastSeen },
  }) => {
    const thirty = await api.ok(reader, webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 30 });
    expect(thirty.data.total).toBe(3);
    expect(thirty.data.seats.map((s) => [s.email, s.viaGroup, s.lastSeen === null])).toEqual([
      [mail('cy'), 'Design', true],
      [mail('fay'), null, true],
      [mail('ann'), null, false],
    ]);
    const ann = thirty.data.seats[2];
    expect(ann).toMatchObject({
      partNumber: NAMED,
      productName: 'Fluids Premium - Named User',
      userId: people.ann,
    });
    expect(Math.abs(Date.parse(ann.lastSeen ?? '') - Date.parse(annLastSeen))).toBeLessThan(1000);
    const sixty = await api.ok(reader, webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 60 });
    expect(sixty.data.seats.map((s) => s.email)).toEqual([mail('cy'), mail('fay')]);
  });

  test('pages the list: the pages together are the whole list in order, each with the total', async ({
    api,
    cast: { reader },
  }) => {
    const page = async (offset: number, limit: number) =>
      (await api.ok(reader, webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 30, offset, limit }))
        .data;
    const whole = await page(0, 500);
    const pages = [await page(0, 2), await page(2, 2)];
    expect(pages.map((p) => p.total)).toEqual([3, 3]);
    expect(pages.flatMap((p) => p.seats)).toEqual(whole.seats);
    expect(pages.map((p) => p.seats.length)).toEqual([2, 1]);
    // A page past the end is empty and still says how many there are.
    expect(await page(10, 2)).toEqual({ total: 3, seats: [] });
    await api.refused(
      reader,
      webReportingApi.reclaim,
      { customerNumber: CN, inactiveDays: 30, limit: 501 },
      400,
    );
    await api.refused(
      reader,
      webReportingApi.reclaim,
      { customerNumber: CN, inactiveDays: 30, offset: -1 },
      400,
    );
  });

  test('a listed direct seat goes with one unassignWebSeats; view-only users cannot', async ({
    api,
    cast: { boss, reader },
    world: { people },
  }) => {
    const unassign = { customerNumber: CN, partNumber: NAMED, userIds: [people.fay] };
    expect((await api.refused(reader, webSeatsApi.unassign, unassign, 403)).err).toBeTruthy();
    expect((await api.ok(boss, webSeatsApi.unassign, unassign)).data).toMatchObject({ unassigned: 1 });
    const after = await api.ok(reader, webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 30 });
    expect(after.data.seats.map((s) => s.email)).toEqual([mail('cy'), mail('ann')]);
  });
});

describe('refusals', () => {
  const calls = [
    [webReportingApi.utilisation, WEEK],
    [webReportingApi.heatmap, WEEK],
    [webReportingApi.denials, WEEK],
    [webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 30 }],
  ] as const;

  test('outsiders as an unknown account, export-blocked accounts with the compliance text, anonymous 401', async ({
    api,
    cast: { boss, outsider },
  }) => {
    for (const [operation, body] of calls) {
      const outsiders = await api.refused(outsider, operation, body, 403);
      expect(outsiders).toEqual(
        await api.refused(outsider, operation, { ...body, customerNumber: '9999999' }, 403),
      );
      expect(outsiders.err).toBe(messages.noPermissionPage);
      expect((await api.refused(boss, operation, { ...body, customerNumber: BLOCKED }, 403)).err).toBe(
        messages.exportDenied,
      );
      await api.refused(anonymous, operation, body, 401);
    }
  });

  test('bad periods and windows are 400', async ({ api, cast: { boss } }) => {
    const backwards = await api.refused(
      boss,
      webReportingApi.utilisation,
      { ...WEEK, from: '2026-11-09' },
      400,
    );
    expect(backwards.err).toContain('The period ends before it starts.');
    const long = await api.refused(boss, webReportingApi.denials, { ...WEEK, from: '2025-01-01' }, 400);
    expect(long.err).toContain('A report covers at most 366 days.');
    await api.refused(boss, webReportingApi.reclaim, { customerNumber: CN, inactiveDays: 45 }, 400);
    await api.refused(boss, webReportingApi.heatmap, { ...WEEK, from: '2026-13-01' }, 400);
    for (const bad of ['2026-02-30', '0000-01-01', '9999-12-31'])
      expect((await api.refused(boss, webReportingApi.utilisation, { ...WEEK, to: bad }, 400)).err).toContain(
        'A day is YYYY-MM-DD.',
      );
  });
});
