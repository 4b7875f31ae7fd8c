import { messages } from '@lp/contract/common/errors';
import { webSeatsApi } from '@lp/contract/web-seats/api';
import { contactRoles } from '@lp/domain/policy';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildProduct,
  dayFromToday,
} from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, other } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { webLeases } from '../../db/schema.ts';
import {
  addDirectSeat,
  addGroupPool,
  addMember,
  addWebGroup,
  addWebUser,
  seatsOf,
  type WebUserState,
} from './directory-rows.ts';
import {
  applyGroupSeats,
  holdsSeatAlready,
  inactivePerson,
  noSeatToTransfer,
  notNamedPool,
  notSharedPool,
  seatThroughGroup,
  unknownGroup,
  unknownPerson,
  unknownPool,
} from './service.ts';

/*
 * Issue 24 (decision 071): web seat assignments — direct named seats, their transfer, named pools given to groups,
 * groups' terms on shared pools — and the pools' use on the list. People and groups are rows written as SQL (the
 * web-directory API is another feature's).
 */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
/** An account under export control (status Pending), whose admin is Acme's boss. */
const BLOCKED = '4100024';

let pools = 0;
let people = 0;
const hours = (n: number) => new Date(Date.now() + n * 3_600_000);

const test = apiTest.extend('world', { scope: 'file' }, async ({ database: { db }, cast, api }) => {
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Pending' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  /** A fresh pool of Acme's (or `customerNumber`'s) with `seats` seats: its part number and name. */
  const pool = async (kind: 'named' | 'shared', seats: number, customerNumber: string = CN) => {
    const partNumber = `AS-${++pools}`;
    const name = `Product ${pools} - ${kind === 'named' ? 'Named User' : 'Shared Web'}`;
    await buildProduct(db, partNumber, { name, featureName: `as_${pools}` });
    await buildEntitlement(db, customerNumber, {
      kind: 'SSL',
      partNumber,
      licenseModel: kind === 'named' ? 'Named User' : 'Shared Web',
      quantity: seats,
      startDate: dayFromToday(-10),
      endDate: dayFromToday(300),
      state: 'Deployed',
    });
    return { partNumber, name };
  };
  /** A fresh person of Acme's (or `customerNumber`'s) directory: their id. */
  const person = (state: WebUserState = 'active', customerNumber: string = CN) =>
    addWebUser(db, customerNumber, `person${++people}@acme.example`, state);
  const emailOf = (n: number) => `person${n}@acme.example`;
  return {
    pool,
    person,
    /** `n` fresh active people of Acme's: their ids. */
    persons: async (n: number) => {
      const ids = [];
      for (let i = 0; i < n; i++) ids.push(await person());
      return ids;
    },
    /** The e-mail of the person made last (people are numbered as they are made). */
    lastEmail: () => emailOf(people),
    group: (name: string, members: string[], customerNumber: string = CN) =>
      addWebGroup(db, customerNumber, `${name} ${pools}.${people}`, members),
    seats: (partNumber: string, customerNumber: string = CN) => seatsOf(db, customerNumber, partNumber),
    entries: () => auditEntriesOf(db, 'web-seats.'),
    listed: async (partNumber: string) =>
      (await api.ok(cast.reader, webSeatsApi.pools, { customerNumber: CN })).data.find(
        (p) => p.partNumber === partNumber,
      )!,
    lease: (partNumber: string, start: Date, end: Date | null, outcome = end ? 'released' : 'open') =>
      db.insert(webLeases).values({
        customerNumber: CN,
        partNumber,
        email: 'someone@acme.example',
        product: 'test',
        startedAt: start,
        endedAt: end,
        outcome,
        denialReason: outcome === 'denied' ? 'pool-full' : null,
      }),
  };
});

const change = (over: Record<string, unknown>) => ({
  preview: false,
  assigned: 0,
  unassigned: 0,
  madeDirect: 0,
  keptThroughGroup: 0,
  transfers: 0,
  ...over,
});

describe('listWebPools: the use of each pool', () => {
  test('assigned seats, leases open now and the 30-day peak from the leases, transfers, and the group terms', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, group, lease, listed },
  }) => {
    const named = await pool('named', 10);
    const shared = await pool('shared', 8);
    const ids = await persons(3);
    for (const id of ids) await addDirectSeat(db, CN, named.partNumber, id);
    // Open since 60 days (counts from the window's start) and since 6 days; two that overlapped 5 days ago: 4 at
    // once. One that ended 40 days ago is outside the window; a denial is no lease; one ends as another starts.
    await lease(shared.partNumber, hours(-60 * 24), null);
    await lease(shared.partNumber, hours(-6 * 24), null);
    await lease(shared.partNumber, hours(-5 * 24), hours(-5 * 24 + 2));
    await lease(shared.partNumber, hours(-5 * 24 + 1), hours(-5 * 24 + 3));
    await lease(shared.partNumber, hours(-5 * 24 + 3), hours(-5 * 24 + 4));
    await lease(shared.partNumber, hours(-41 * 24), hours(-40 * 24));
    await lease(shared.partNumber, hours(-1), null, 'denied');
    const team = await group('Team', []);
    await api.ok(boss, webSeatsApi.saveGroupTerms, {
      customerNumber: CN,
      partNumber: shared.partNumber,
      terms: [{ groupId: team, guaranteed: 2, cap: 5 }],
    });
    await api.ok(boss, webSeatsApi.transfer, {
      customerNumber: CN,
      partNumber: named.partNumber,
      fromUserId: ids[0],
      toUserId: (await persons(1))[0],
    });
    expect(await listed(named.partNumber)).toMatchObject({
      kind: 'named',
      seats: 10,
      assigned: 3,
      inUse: 0,
      peak30Days: 0,
      transfers: { used: 1, allowance: 10, text: 'Transfers in the last 30 days: 1 of 10' },
      groupTerms: [],
    });
    expect(await listed(shared.partNumber)).toMatchObject({
      kind: 'shared',
      seats: 8,
      assigned: 0,
      inUse: 2,
      peak30Days: 4,
      transfers: { used: 0, allowance: 8, text: 'Transfers in the last 30 days: 0 of 8' },
      groupTerms: [{ groupId: team, groupName: expect.stringMatching(/^Team /), guaranteed: 2, cap: 5 }],
    });
  });
});

describe('assignWebSeats', () => {
  test('assigns direct seats, audited; a preview writes nothing; sent again it changes nothing and records nothing', async ({
    api,
    cast: { boss, busops },
    world: { pool, persons, seats, entries, listed },
  }) => {
    const { partNumber, name } = await pool('named', 3);
    const ids = await persons(2);
    const body = { customerNumber: CN, partNumber, userIds: ids };
    const marks = (await entries()).length;
    const preview = await api.ok(boss, webSeatsApi.assign, { ...body, preview: true });
    expect(preview.data).toEqual(change({ preview: true, text: `assigns 2 users to ${name}`, assigned: 2 }));
    expect(await seats(partNumber)).toEqual([]);
    expect(await entries()).toHaveLength(marks);
    const done = await api.ok(busops, webSeatsApi.assign, body);
    expect(done.data).toEqual(change({ text: `assigns 2 users to ${name}`, assigned: 2 }));
    expect((await seats(partNumber)).map((s) => s.groupId)).toEqual([null, null]);
    expect((await listed(partNumber)).assigned).toBe(2);
    const rows = await entries();
    expect(rows).toHaveLength(marks + 1);
    expect(rows.at(-1)).toMatchObject({
      customerNumber: CN,
      actorName: 'busops@vendor.example',
      action: 'web-seats.seats.assigned',
      objectType: 'web-pool',
      objectId: partNumber,
      after: { assigned: expect.arrayContaining([expect.stringMatching(/@acme\.example$/)]), madeDirect: [] },
    });
    const again = await api.ok(boss, webSeatsApi.assign, body);
    expect(again.data).toEqual(change({ text: 'changes nothing' }));
    expect(await entries()).toHaveLength(marks + 1);
  });

  test('refuses more seats than the pool has with the pool and the numbers, in a preview too, and writes nothing', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, seats },
  }) => {
    const { partNumber, name } = await pool('named', 3);
    const [first, ...rest] = await persons(4);
    await addDirectSeat(db, CN, partNumber, first);
    for (const preview of [true, false]) {
      const refused = await api.refused(
        boss,
        webSeatsApi.assign,
        { customerNumber: CN, partNumber, userIds: rest.concat(), preview },
        409,
      );
      expect(refused.err).toBe(`${name} has 3 seats; this change would assign 4.`);
    }
    expect(await seats(partNumber)).toHaveLength(1);
  });

  test('two assignments at the same moment that fit only one by one: exactly one is made (the pool lock)', async ({
    api,
    cast: { boss, busops },
    world: { pool, persons, seats },
  }) => {
    const { partNumber, name } = await pool('named', 3);
    const [a, b, c, d] = await persons(4);
    const answers = await Promise.all([
      api.call(boss, webSeatsApi.assign, { customerNumber: CN, partNumber, userIds: [a, b] }),
      api.call(busops, webSeatsApi.assign, { customerNumber: CN, partNumber, userIds: [c, d] }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().err).toBe(
      `${name} has 3 seats; this change would assign 4.`,
    );
    expect(await seats(partNumber)).toHaveLength(2);
  });

  test('a person holding a seat through a group now holds it directly (no new seat)', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, group, seats },
  }) => {
    const { partNumber, name } = await pool('named', 1);
    const [a] = await persons(1);
    const team = await group('Team', [a]);
    await addGroupPool(db, CN, partNumber, team);
    await db.transaction((tx) => applyGroupSeats(tx, CN));
    expect(await seats(partNumber)).toEqual([{ userId: a, groupId: team }]);
    const done = await api.ok(boss, webSeatsApi.assign, { customerNumber: CN, partNumber, userIds: [a] });
    expect(done.data).toEqual(
      change({ text: '1 user holding a seat through a group now holds it directly', madeDirect: 1 }),
    );
    expect(await seats(partNumber)).toEqual([{ userId: a, groupId: null }]);
    // The pool's one seat is still the one: a second person does not fit.
    const [b] = await persons(1);
    expect(
      (await api.refused(boss, webSeatsApi.assign, { customerNumber: CN, partNumber, userIds: [b] }, 409))
        .err,
    ).toBe(`${name} has 1 seat; this change would assign 2.`);
  });

  test("refuses suspended people (409), and another account's person as an unknown one (404)", async ({
    api,
    cast: { boss },
    world: { pool, person, lastEmail, seats },
  }) => {
    const { partNumber } = await pool('named', 5);
    const suspended = await person('suspended');
    const refused = await api.refused(
      boss,
      webSeatsApi.assign,
      { customerNumber: CN, partNumber, userIds: [suspended] },
      409,
    );
    expect(refused.err).toBe(inactivePerson(lastEmail()));
    const theirs = await person('active', OTHER);
    const foreign = await api.refused(
      boss,
      webSeatsApi.assign,
      { customerNumber: CN, partNumber, userIds: [theirs] },
      404,
    );
    const nobody = await api.refused(
      boss,
      webSeatsApi.assign,
      { customerNumber: CN, partNumber, userIds: ['00000000-0000-4000-8000-000000000000'] },
      404,
    );
    expect(foreign).toEqual(nobody);
    expect(foreign.err).toBe(unknownPerson);
    expect(await seats(partNumber)).toEqual([]);
  });

  test('answers 404 for a part number that is no pool of the account and 409 for a shared pool', async ({
    api,
    cast: { boss },
    world: { pool, persons },
  }) => {
    const [a] = await persons(1);
    const theirs = await pool('named', 5, OTHER);
    for (const partNumber of [theirs.partNumber, 'NO-SUCH-PART'])
      expect(
        (await api.refused(boss, webSeatsApi.assign, { customerNumber: CN, partNumber, userIds: [a] }, 404))
          .err,
      ).toBe(unknownPool);
    const shared = await pool('shared', 5);
    expect(
      (
        await api.refused(
          boss,
          webSeatsApi.assign,
          { customerNumber: CN, partNumber: shared.partNumber, userIds: [a] },
          409,
        )
      ).err,
    ).toBe(notNamedPool(shared.name));
  });
});

describe('unassignWebSeats', () => {
  test('takes direct seats; a person a group reaches keeps a seat through it (said in the preview); audited once', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, group, seats, entries },
  }) => {
    const { partNumber, name } = await pool('named', 5);
    const [a, b, c] = await persons(3);
    const team = await group('Team', [b, c]);
    await addGroupPool(db, CN, partNumber, team);
    await addDirectSeat(db, CN, partNumber, a);
    await addDirectSeat(db, CN, partNumber, b);
    await db.transaction((tx) => applyGroupSeats(tx, CN));
    const body = { customerNumber: CN, partNumber, userIds: [a, b, c] };
    const text = `removes 1 user from ${name}; 2 users keep a seat through a group`;
    const marks = (await entries()).length;
    const preview = await api.ok(boss, webSeatsApi.unassign, { ...body, preview: true });
    expect(preview.data).toEqual(change({ preview: true, text, unassigned: 1, keptThroughGroup: 2 }));
    expect(await seats(partNumber)).toHaveLength(3);
    expect((await api.ok(boss, webSeatsApi.unassign, body)).data).toEqual(
      change({ text, unassigned: 1, keptThroughGroup: 2 }),
    );
    // b's direct seat is now the group's; c's was the group's already.
    const sorted = [
      { userId: b, groupId: team },
      { userId: c, groupId: team },
    ].sort((x, y) => x.userId.localeCompare(y.userId));
    expect(await seats(partNumber)).toEqual(sorted);
    const rows = await entries();
    expect(rows).toHaveLength(marks + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'web-seats.seats.unassigned', objectId: partNumber });
    expect(
      (rows.at(-1)!.after as { unassigned: string[]; keptThroughGroup: string[] }).unassigned,
    ).toHaveLength(1);
    // Again: the group's seats stay, nothing is written or recorded.
    expect((await api.ok(boss, webSeatsApi.unassign, body)).data).toEqual(
      change({ text: '2 users keep a seat through a group', keptThroughGroup: 2 }),
    );
    expect(await entries()).toHaveLength(marks + 1);
  });
});

describe('transferWebSeat', () => {
  test('moves a direct seat and counts the transfer; sent again it changes nothing; past the allowance it is refused', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, seats, entries, listed },
  }) => {
    const { partNumber, name } = await pool('named', 1);
    const [a, b] = await persons(2);
    await addDirectSeat(db, CN, partNumber, a);
    const body = { customerNumber: CN, partNumber, fromUserId: a, toUserId: b };
    const text = `removes 1 user from ${name}; assigns 1 user to ${name}; Transfers in the last 30 days: 1 of 1`;
    const marks = (await entries()).length;
    expect((await api.ok(boss, webSeatsApi.transfer, { ...body, preview: true })).data).toEqual(
      change({ preview: true, text, assigned: 1, unassigned: 1, transfers: 1 }),
    );
    expect((await listed(partNumber)).transfers.used).toBe(0);
    expect(await seats(partNumber)).toEqual([{ userId: a, groupId: null }]);
    expect((await api.ok(boss, webSeatsApi.transfer, body)).data).toEqual(
      change({ text, assigned: 1, unassigned: 1, transfers: 1 }),
    );
    expect(await seats(partNumber)).toEqual([{ userId: b, groupId: null }]);
    expect((await listed(partNumber)).transfers).toEqual({
      used: 1,
      allowance: 1,
      text: 'Transfers in the last 30 days: 1 of 1',
    });
    const rows = await entries();
    expect(rows).toHaveLength(marks + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'web-seats.seat.transferred', objectId: partNumber });
    // A retry of the same transfer: already made.
    expect((await api.ok(boss, webSeatsApi.transfer, body)).data).toEqual(
      change({ text: 'changes nothing' }),
    );
    expect((await listed(partNumber)).transfers.used).toBe(1);
    // Back again: the pool of 1 seat allows 1 transfer in 30 days.
    const refused = await api.refused(
      boss,
      webSeatsApi.transfer,
      { ...body, fromUserId: b, toUserId: a },
      409,
    );
    expect(refused.err).toBe(
      `${name} allows 1 seat transfer in 30 days; 1 was made and this change would make 1 more.`,
    );
    expect(await seats(partNumber)).toEqual([{ userId: b, groupId: null }]);
    expect(await entries()).toHaveLength(marks + 1);
  });

  test('refuses a person without a seat, a seat held through a group, and someone who holds one already', async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, group },
  }) => {
    const { partNumber, name } = await pool('named', 5);
    const [a, b, c, d] = await persons(4);
    const team = await group('Team', [c]);
    await addGroupPool(db, CN, partNumber, team);
    await addDirectSeat(db, CN, partNumber, a);
    await addDirectSeat(db, CN, partNumber, b);
    await db.transaction((tx) => applyGroupSeats(tx, CN));
    const emails = new Map(
      (await db.query.webUsers.findMany({ columns: { id: true, email: true } })).map((u) => [u.id, u.email]),
    );
    const transfer = (fromUserId: string, toUserId: string) =>
      api.refused(boss, webSeatsApi.transfer, { customerNumber: CN, partNumber, fromUserId, toUserId }, 409);
    expect((await transfer(d, a)).err).toBe(noSeatToTransfer(emails.get(d)!, name));
    expect((await transfer(c, d)).err).toBe(seatThroughGroup(emails.get(c)!, name));
    expect((await transfer(a, b)).err).toBe(holdsSeatAlready(emails.get(b)!, name));
  });
});

describe('setWebGroupPools', () => {
  test("gives a group's members seats (a preview writes nothing), takes them back while direct seats stay", async ({
    api,
    database: { db },
    cast: { boss },
    world: { pool, persons, group, seats, entries },
  }) => {
    const first = await pool('named', 5);
    const second = await pool('named', 5);
    const [a, b, c] = await persons(3);
    const team = await group('Team', [a, b]);
    await addDirectSeat(db, CN, first.partNumber, b);
    const body = { customerNumber: CN, groupId: team, partNumbers: [second.partNumber, first.partNumber] };
    const text = `assigns 1 user to ${first.name}; assigns 2 users to ${second.name}`;
    const marks = (await entries()).length;
    expect((await api.ok(boss, webSeatsApi.setGroupPools, { ...body, preview: true })).data).toEqual(
      change({ preview: true, text, assigned: 3 }),
    );
    expect(await seats(second.partNumber)).toEqual([]);
    expect(await entries()).toHaveLength(marks);
    expect((await api.ok(boss, webSeatsApi.setGroupPools, body)).data).toEqual(change({ text, assigned: 3 }));
    expect((await seats(second.partNumber)).map((s) => s.groupId)).toEqual([team, team]);
    const rows = await entries();
    expect(rows).toHaveLength(marks + 1);
    expect(rows.at(-1)).toMatchObject({
      action: 'web-seats.group-pools.changed',
      objectType: 'web-group',
      objectId: team,
      before: { partNumbers: [] },
      after: { partNumbers: [first.partNumber, second.partNumber].sort() },
    });
    // A new member gets both (applyGroupSeats, as web-directory calls it).
    await addMember(db, team, c);
    await db.transaction((tx) => applyGroupSeats(tx, CN));
    expect(await seats(second.partNumber)).toHaveLength(3);
    // Sent again: nothing changes. Taken away: the group's seats go, b's direct seat stays.
    expect((await api.ok(boss, webSeatsApi.setGroupPools, body)).data.text).toBe('changes nothing');
    expect((await api.ok(boss, webSeatsApi.setGroupPools, { ...body, partNumbers: [] })).data).toEqual(
      change({
        text: `removes 2 users from ${first.name}; removes 3 users from ${second.name}`,
        unassigned: 5,
      }),
    );
    expect(await seats(first.partNumber)).toEqual([{ userId: b, groupId: null }]);
    expect(await seats(second.partNumber)).toEqual([]);
  });

  test('refuses more seats than a pool has, a shared pool, an unknown pool, and a group of another account', async ({
    api,
    cast: { boss },
    world: { pool, persons, group, seats },
  }) => {
    const small = await pool('named', 2);
    const shared = await pool('shared', 5);
    const team = await group('Team', await persons(3));
    const set = (partNumbers: string[], status: number, groupId = team, preview?: boolean) =>
      api.refused(
        boss,
        webSeatsApi.setGroupPools,
        { customerNumber: CN, groupId, partNumbers, preview },
        status,
      );
    for (const preview of [true, false])
      expect((await set([small.partNumber], 409, team, preview)).err).toBe(
        `${small.name} has 2 seats; this change would assign 3.`,
      );
    expect(await seats(small.partNumber)).toEqual([]);
    expect((await set([shared.partNumber], 409)).err).toBe(notNamedPool(shared.name));
    expect((await set(['NO-SUCH-PART'], 404)).err).toBe(unknownPool);
    const theirs = await group('Theirs', [], OTHER);
    expect((await set([], 404, theirs)).err).toBe(unknownGroup);
    expect((await set([], 404, '00000000-0000-4000-8000-000000000000')).err).toBe(unknownGroup);
  });
});

describe('saveWebGroupTerms', () => {
  test("replaces a shared pool's terms (a preview writes nothing), audited; the same terms again record nothing", async ({
    api,
    cast: { boss },
    world: { pool, group, entries, listed },
  }) => {
    const { partNumber, name } = await pool('shared', 6);
    const [x, y] = [await group('A-team', []), await group('B-team', [])];
    const terms = [
      { groupId: y, guaranteed: 2, cap: null },
      { groupId: x, guaranteed: 3, cap: 4 },
    ];
    const body = { customerNumber: CN, partNumber, terms };
    const marks = (await entries()).length;
    expect((await api.ok(boss, webSeatsApi.saveGroupTerms, { ...body, preview: true })).data).toEqual(
      change({ preview: true, text: `sets the terms of 2 groups on ${name}` }),
    );
    expect((await listed(partNumber)).groupTerms).toEqual([]);
    expect((await api.ok(boss, webSeatsApi.saveGroupTerms, body)).data.text).toBe(
      `sets the terms of 2 groups on ${name}`,
    );
    expect((await listed(partNumber)).groupTerms).toEqual([
      { groupId: x, groupName: expect.stringMatching(/^A-team/), guaranteed: 3, cap: 4 },
      { groupId: y, groupName: expect.stringMatching(/^B-team/), guaranteed: 2, cap: null },
    ]);
    expect((await api.ok(boss, webSeatsApi.saveGroupTerms, body)).data.text).toBe('changes nothing');
    const rows = await entries();
    expect(rows).toHaveLength(marks + 1);
    expect(rows.at(-1)).toMatchObject({
      action: 'web-seats.group-terms.changed',
      objectType: 'web-pool',
      objectId: partNumber,
      before: { terms: [] },
    });
    expect((await api.ok(boss, webSeatsApi.saveGroupTerms, { ...body, terms: [] })).data.text).toBe(
      `clears the group terms of ${name}`,
    );
    expect((await listed(partNumber)).groupTerms).toEqual([]);
  });

  test.for([
    [
      'guarantees past the seats',
      [3, null, 4, null],
      (pool: string) => `${pool} has 6 seats; the groups would be guaranteed 7.`,
    ],
    [
      'a cap below the guarantee',
      [3, 2, 0, null],
      (_: string, group: string) => `The cap of ${group} (2) is below its guaranteed seats (3).`,
    ],
    [
      'a cap above the seats',
      [0, 7, 0, null],
      (pool: string, group: string) => `The cap of ${group} (7) is above the 6 seats of ${pool}.`,
    ],
    [
      'a negative guarantee',
      [-1, null, 0, null],
      (_: string, group: string) => `The guaranteed seats of ${group} must be a whole number, 0 or more.`,
    ],
    [
      'a fractional cap',
      [0, 1.5, 0, null],
      (_: string, group: string) => `The cap of ${group} must be a whole number, 1 or more, or none.`,
    ],
  ] as const)(
    'refuses %s with groupTermsProblem’s words and writes nothing',
    async ([, [g1, c1, g2, c2], text], {
      api,
      database: { db },
      cast: { boss },
      world: { pool, listed },
    }) => {
      const { partNumber, name } = await pool('shared', 6);
      const [first, second] = [`A-team ${partNumber}`, `B-team ${partNumber}`];
      const [x, y] = [await addWebGroup(db, CN, first), await addWebGroup(db, CN, second)];
      const refused = await api.refused(
        boss,
        webSeatsApi.saveGroupTerms,
        {
          customerNumber: CN,
          partNumber,
          terms: [
            { groupId: x, guaranteed: g1, cap: c1 },
            { groupId: y, guaranteed: g2, cap: c2 },
          ],
        },
        409,
      );
      expect(refused.err).toBe(text(name, first));
      expect((await listed(partNumber)).groupTerms).toEqual([]);
    },
  );

  test('refuses a named pool, an unknown pool and a group of another account', async ({
    api,
    cast: { boss },
    world: { pool, group },
  }) => {
    const named = await pool('named', 6);
    const shared = await pool('shared', 6);
    const mine = await group('Mine', []);
    const theirs = await group('Theirs', [], OTHER);
    const save = (partNumber: string, groupId: string, status: number) =>
      api.refused(
        boss,
        webSeatsApi.saveGroupTerms,
        { customerNumber: CN, partNumber, terms: [{ groupId, guaranteed: 1, cap: null }] },
        status,
      );
    expect((await save(named.partNumber, mine, 409)).err).toBe(notSharedPool(named.name));
    expect((await save('NO-SUCH-PART', mine, 404)).err).toBe(unknownPool);
    expect((await save(shared.partNumber, theirs, 404)).err).toBe(unknownGroup);
  });
});

describe('who may change assignments', () => {
  test('view-only users and support are refused, outsiders learn nothing, export-denied accounts and anonymous callers are refused; nothing changes', async ({
    api,
    cast: { reader, support, outsider, boss },
    world: { pool, persons, group, seats, entries },
  }) => {
    const named = await pool('named', 5);
    const shared = await pool('shared', 5);
    const [a, b] = await persons(2);
    const team = await group('Team', [a]);
    const calls = (customerNumber: string) =>
      [
        [webSeatsApi.assign, { customerNumber, partNumber: named.partNumber, userIds: [a] }],
        [webSeatsApi.unassign, { customerNumber, partNumber: named.partNumber, userIds: [a] }],
        [webSeatsApi.transfer, { customerNumber, partNumber: named.partNumber, fromUserId: a, toUserId: b }],
        [webSeatsApi.setGroupPools, { customerNumber, groupId: team, partNumbers: [named.partNumber] }],
        [
          webSeatsApi.saveGroupTerms,
          {
            customerNumber,
            partNumber: shared.partNumber,
            terms: [{ groupId: team, guaranteed: 1, cap: null }],
          },
        ],
      ] as const;
    const marks = (await entries()).length;
    for (const [operation, body] of calls(CN)) {
      for (const who of [reader, support])
        expect((await api.refused(who, operation, body, 403)).err).toBe(messages.noPermission);
      for (const preview of [undefined, true])
        expect((await api.refused(outsider, operation, { ...body, preview }, 403)).err).toBe(
          messages.noPermissionPage,
        );
      expect((await api.call(anonymous, operation, body)).statusCode).toBe(401);
    }
    for (const [operation, body] of calls(BLOCKED))
      expect((await api.refused(boss, operation, body, 403)).err).toBe(messages.exportDenied);
    expect(await seats(named.partNumber)).toEqual([]);
    expect(await entries()).toHaveLength(marks);
  });

  test.for([
    [
      'assignWebSeats without people',
      'assign',
      { userIds: [] },
      /^Invalid request: userIds: Name at least one person\.$/,
    ],
    [
      'assignWebSeats with an id that is no uuid',
      'assign',
      { userIds: ['x'] },
      /^Invalid request: userIds\.0: Must be an id of the directory\.$/,
    ],
    [
      'assignWebSeats naming a person twice',
      'assign',
      { userIds: ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000001'] },
      /^Invalid request: userIds: A person is named twice\.$/,
    ],
    [
      'unassignWebSeats with an unknown field',
      'unassign',
      { userIds: ['00000000-0000-4000-8000-000000000001'], everyone: true },
      /^Invalid request: /,
    ],
    [
      'unassignWebSeats with preview as text',
      'unassign',
      { userIds: ['00000000-0000-4000-8000-000000000001'], preview: 'yes' },
      /^Invalid request: preview/,
    ],
    [
      'transferWebSeat to the same person',
      'transfer',
      {
        fromUserId: '00000000-0000-4000-8000-000000000001',
        toUserId: '00000000-0000-4000-8000-000000000001',
      },
      /^Invalid request: toUserId: A seat is transferred to someone else\.$/,
    ],
    [
      'transferWebSeat without a receiver',
      'transfer',
      { fromUserId: '00000000-0000-4000-8000-000000000001' },
      /^Invalid request: toUserId/,
    ],
    [
      'setWebGroupPools without pools',
      'setGroupPools',
      { groupId: '00000000-0000-4000-8000-000000000001' },
      /^Invalid request: partNumbers/,
    ],
    [
      'setWebGroupPools naming a pool twice',
      'setGroupPools',
      { groupId: '00000000-0000-4000-8000-000000000001', partNumbers: ['A', 'A'] },
      /^Invalid request: partNumbers: A pool is named twice\.$/,
    ],
    [
      'saveWebGroupTerms naming a group twice',
      'saveGroupTerms',
      {
        terms: [
          { groupId: '00000000-0000-4000-8000-000000000001', guaranteed: 1, cap: null },
          { groupId: '00000000-0000-4000-8000-000000000001', guaranteed: 1, cap: null },
        ],
      },
      /^Invalid request: terms: A group is named twice\.$/,
    ],
    [
      'saveWebGroupTerms with a guarantee as text',
      'saveGroupTerms',
      { terms: [{ groupId: '00000000-0000-4000-8000-000000000001', guaranteed: '1', cap: null }] },
      /^Invalid request: terms\.0\.guaranteed: The guaranteed seats must be a number\.$/,
    ],
    [
      'saveWebGroupTerms without a cap',
      'saveGroupTerms',
      { terms: [{ groupId: '00000000-0000-4000-8000-000000000001', guaranteed: 1 }] },
      /^Invalid request: terms\.0\.cap/,
    ],
  ] as const)(
    'answers 400 in the envelope for %s',
    async ([, name, extra, pattern], { api, cast: { boss } }) => {
      const operation = webSeatsApi[name];
      const refused = await api.refused(
        boss,
        operation,
        {
          ...(name === 'setGroupPools' ? { customerNumber: CN } : { customerNumber: CN, partNumber: 'AS-1' }),
          ...extra,
        },
        400,
      );
      expect(refused.err).toMatch(pattern);
    },
  );
});
