import { messages } from '@lp/contract/common/errors';
import { webDirectoryApi } from '@lp/contract/web-directory/api';
import { contactRoles } from '@lp/domain/policy';
import { webDirectoryMessages } from '@lp/domain/web-directory';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildEntitlement,
  buildProduct,
  dayFromToday,
} from '../../../harness/factories.ts';
import { acme, anonymous, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';
import { type Db, queryRows } from '../../db/database.ts';
import { webGroupPools, webGroups, webLeases, webNamedSeats, webUsers } from '../../db/schema.ts';

/* Issue 24 (decision 071): the web directory's people and groups through the session API. */

const CN = acme.customerNumber;
/** An account under export control (status Pending), whose admin is Acme's boss. */
const BLOCKED = '4100124';
/** A Named User pool of 3 seats. */
const NAMED = 'WD-NU';
const api = webDirectoryApi;

const test = apiTest.extend('calls', { scope: 'file' }, async ({ api: client, database }) => {
  const db = database.db;
  const log = auditLog(db);
  return {
    db,
    log,
    users: async (who: Caller, includeRemoved?: boolean) =>
      (await client.ok(who, api.users, { customerNumber: CN, ...(includeRemoved && { includeRemoved }) }))
        .data,
    user: async (who: Caller, email: string) =>
      (await client.ok(who, api.users, { customerNumber: CN, includeRemoved: true })).data.find(
        (u) => u.email === email,
      )!,
    groups: async (who: Caller) => (await client.ok(who, api.groups, { customerNumber: CN })).data,
    invite: (who: Caller, emails: string[], preview?: boolean) =>
      client.ok(who, api.invite, {
        customerNumber: CN,
        users: emails.map((email) => ({ email })),
        source: 'manual',
        ...(preview && { preview }),
      }),
    /** Everything the directory's tables hold, to show a refused or previewed call wrote nothing. */
    snapshot: () => snapshotOf(db),
  };
});

const directoryTables = ['web_users', 'web_groups', 'web_group_members', 'web_named_seats', 'web_leases'];

/** Every row of the directory's tables (and the seats and leases it changes), as text. */
async function snapshotOf(db: Db) {
  const all: Record<string, unknown> = {};
  for (const table of directoryTables)
    all[table] = await queryRows(db, sql.raw(`select t::text as row from ${table} t order by t::text`));
  return all;
}

/** Gives the group the named pool (as web-seats does) and answers nothing. */
async function givePool(db: Db, groupId: string) {
  await db.insert(webGroupPools).values({ customerNumber: CN, partNumber: NAMED, groupId });
}

/** An open session of the person, as the product API would have started it. */
async function openLease(db: Db, userId: string, email: string) {
  await db.insert(webLeases).values({
    customerNumber: CN,
    partNumber: NAMED,
    poolKind: 'named',
    userId,
    email,
    product: 'Fluids',
    outcome: 'open',
  });
}

const leaseOutcomes = async (db: Db, userId: string) =>
  (await db.select({ outcome: webLeases.outcome }).from(webLeases).where(eq(webLeases.userId, userId))).map(
    (r) => r.outcome,
  );
const seatsOf = async (db: Db, userId: string) =>
  (await db.select().from(webNamedSeats).where(eq(webNamedSeats.userId, userId))).map((r) => r.partNumber);

test.beforeAll(async ({ database: { db }, cast: _accounts }) => {
  await buildProduct(db, NAMED, { name: 'Fluids - Named User', featureName: 'wd_fluids' });
  await buildEntitlement(db, CN, {
    kind: 'SSL',
    partNumber: NAMED,
    licenseModel: 'Named User',
    quantity: 3,
    startDate: dayFromToday(-10),
    endDate: dayFromToday(300),
  });
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Pending' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
});

describe('inviting people', () => {
  test('invites one person, then many: e-mails lower-cased, duplicates collapsed, people already there unchanged', async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, users, user, log },
  }) => {
    const mark = await log.mark();
    const one = await invite(boss, ['  Ann@Acme.example ']);
    expect(one.data).toEqual({
      preview: false,
      text: 'invites 1 user',
      invited: ['ann@acme.example'],
      restored: [],
      unchanged: [],
      groupsCreated: [],
      membershipsAdded: 0,
    });
    expect(await user(reader, 'ann@acme.example')).toMatchObject({
      email: 'ann@acme.example',
      name: '',
      source: 'manual',
      state: 'invited',
      role: 'member',
      groups: [],
      seats: [],
      lastSeenAt: null,
      openSessions: 0,
    });
    const many = await client.ok(boss, api.invite, {
      customerNumber: CN,
      source: 'manual',
      users: [
        { email: 'bob@acme.example', name: 'Bob' },
        { email: 'BOB@acme.example', name: 'Robert' },
        { email: 'cy@acme.example' },
        { email: 'ann@acme.example', name: 'Ann' },
      ],
    });
    expect(many.data).toMatchObject({
      text: 'invites 2 users; 1 already in the directory',
      invited: ['bob@acme.example', 'cy@acme.example'],
      unchanged: ['ann@acme.example'],
    });
    expect((await user(reader, 'bob@acme.example')).name).toBe('Bob');
    expect((await users(reader)).filter((u) => u.email.match(/^(ann|bob|cy)@/))).toHaveLength(3);
    const entries = await log.since(mark);
    expect(entries.map((e) => e.action)).toEqual([
      'web-directory.users.invited',
      'web-directory.users.invited',
    ]);
    expect(entries[1]).toMatchObject({
      customerNumber: CN,
      actorName: 'boss@acme.example',
      objectType: 'web-directory',
      after: { source: 'manual', invited: ['bob@acme.example', 'cy@acme.example'], restored: [] },
    });
    // The same invitation again changes nothing and records nothing.
    await invite(boss, ['ann@acme.example']);
    expect(await log.since(mark)).toHaveLength(2);
  });

  test('the same new person invited twice at once is added once', async ({
    api: client,
    cast: { boss, reader },
    calls: { users },
  }) => {
    const body = { customerNumber: CN, source: 'manual' as const, users: [{ email: 'twice@acme.example' }] };
    const answers = await Promise.all([client.ok(boss, api.invite, body), client.ok(boss, api.invite, body)]);
    expect(answers.flatMap((a) => a.data.invited)).toEqual(['twice@acme.example']);
    expect((await users(reader)).filter((u) => u.email === 'twice@acme.example')).toHaveLength(1);
  });

  test('a preview answers what an invitation would do and writes nothing', async ({
    cast: { busops },
    calls: { invite, snapshot, log },
  }) => {
    const before = await snapshot();
    const mark = await log.mark();
    const previewed = await invite(busops, ['pre1@acme.example', 'pre2@acme.example'], true);
    expect(previewed.data).toMatchObject({ preview: true, text: 'invites 2 users' });
    expect(await snapshot()).toEqual(before);
    expect(await log.since(mark)).toEqual([]);
  });

  test('refuses bad e-mails naming them, and too many people, writing nothing', async ({
    api: client,
    cast: { boss },
    calls: { snapshot },
  }) => {
    const before = await snapshot();
    const bad = await client.refused(
      boss,
      api.invite,
      {
        customerNumber: CN,
        source: 'manual',
        users: [{ email: 'ok@acme.example' }, { email: 'not-an-address' }],
      },
      400,
    );
    expect(bad.err).toBe('"not-an-address" is not an e-mail address.');
    const tooMany = await client.refused(
      boss,
      api.invite,
      {
        customerNumber: CN,
        source: 'manual',
        users: Array.from({ length: 5_001 }, (_, i) => ({ email: `p${i}@acme.example` })),
      },
      400,
    );
    expect(tooMany.err).toBe(`Invalid request: users: ${webDirectoryMessages.tooMany}`);
    expect(await snapshot()).toEqual(before);
  });

  test('brings a removed person back as invited', async ({ api: client, cast: { boss, reader }, calls }) => {
    await calls.invite(boss, ['back@acme.example']);
    const { id } = await calls.user(reader, 'back@acme.example');
    await client.ok(boss, api.remove, { customerNumber: CN, userIds: [id] });
    expect((await calls.user(reader, 'back@acme.example')).state).toBe('removed');
    expect((await calls.users(reader)).some((u) => u.id === id)).toBe(false);
    const again = await calls.invite(boss, ['back@acme.example']);
    expect(again.data).toMatchObject({
      text: 'invites 0 users; brings back 1 removed user',
      restored: ['back@acme.example'],
    });
    expect(await calls.user(reader, 'back@acme.example')).toMatchObject({ id, state: 'invited' });
  });
});

describe('importing a CSV file', () => {
  test('invites the rows, makes the groups of the groups column and adds the memberships', async ({
    api: client,
    cast: { boss, reader },
    calls: { user, groups, snapshot },
  }) => {
    const csv = [
      'email,name,groups',
      'csv1@acme.example,Csv One,Designers;Analysts',
      '"CSV2@acme.example","Two, Csv",Designers',
      '',
      'csv3@acme.example,,',
    ].join('\r\n');
    const before = await snapshot();
    const preview = await client.ok(boss, api.importCsv, { customerNumber: CN, csv, preview: true });
    expect(preview.data).toMatchObject({
      preview: true,
      text: 'invites 3 users; creates 2 groups; adds 3 group memberships',
    });
    expect(await snapshot()).toEqual(before);
    const done = await client.ok(boss, api.importCsv, { customerNumber: CN, csv });
    expect(done.data).toEqual({
      preview: false,
      text: 'invites 3 users; creates 2 groups; adds 3 group memberships',
      invited: ['csv1@acme.example', 'csv2@acme.example', 'csv3@acme.example'],
      restored: [],
      unchanged: [],
      groupsCreated: ['Designers', 'Analysts'],
      membershipsAdded: 3,
    });
    expect(await user(reader, 'csv2@acme.example')).toMatchObject({ name: 'Two, Csv', source: 'csv' });
    expect((await user(reader, 'csv1@acme.example')).groups.map((g) => g.name)).toEqual([
      'Analysts',
      'Designers',
    ]);
    const designers = (await groups(reader)).find((g) => g.name === 'Designers')!;
    expect(designers).toMatchObject({ source: 'manual', members: 2, namedPools: [], sharedTerms: [] });
    // A second file naming an existing group adds to it; the person already there is unchanged.
    const more = await client.ok(boss, api.importCsv, {
      customerNumber: CN,
      csv: 'email,name,groups\ncsv3@acme.example,,Designers\n',
    });
    expect(more.data).toMatchObject({
      unchanged: ['csv3@acme.example'],
      groupsCreated: [],
      membershipsAdded: 1,
    });
    expect((await groups(reader)).find((g) => g.name === 'Designers')!.members).toBe(3);
  });

  test('refuses a file with bad rows naming each row, and writes nothing', async ({
    api: client,
    cast: { boss },
    calls: { snapshot },
  }) => {
    const before = await snapshot();
    const csv =
      'email,name\ngood@acme.example,Good\nnope,Bad\ngood2@acme.example,Fine\n@acme.example,Worse\n';
    const refused = await client.refused(boss, api.importCsv, { customerNumber: CN, csv }, 400);
    expect(refused.err).toBe(
      'Row 3: "nope" is not an e-mail address. Row 5: "@acme.example" is not an e-mail address.',
    );
    const header = await client.refused(
      boss,
      api.importCsv,
      { customerNumber: CN, csv: 'mail,who\na@b.example,x' },
      400,
    );
    expect(header.err).toBe(webDirectoryMessages.csvHeader);
    const empty = await client.refused(
      boss,
      api.importCsv,
      { customerNumber: CN, csv: 'email,name\n\n' },
      400,
    );
    expect(empty.err).toBe(webDirectoryMessages.csvEmpty);
    expect(await snapshot()).toEqual(before);
  });

  test('refuses an oversized file: too many rows (400) or a body past the limit (413)', async ({
    api: client,
    cast: { boss },
    calls: { snapshot },
  }) => {
    const before = await snapshot();
    const rows = Array.from({ length: 5_001 }, (_, i) => `big${i}@acme.example,Big`);
    const many = await client.refused(
      boss,
      api.importCsv,
      { customerNumber: CN, csv: ['email,name', ...rows].join('\n') },
      400,
    );
    expect(many.err).toBe(webDirectoryMessages.csvTooMany);
    await client.refused(boss, api.importCsv, { customerNumber: CN, csv: 'x'.repeat(1_100_000) }, 413);
    expect(await snapshot()).toEqual(before);
  });
});

describe('changing and removing people', () => {
  test('renames a person and changes their role, audited with the fields before and after', async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, log },
  }) => {
    await invite(boss, ['dee@acme.example']);
    const { id } = await user(reader, 'dee@acme.example');
    const mark = await log.mark();
    const changed = await client.ok(boss, api.update, {
      customerNumber: CN,
      userId: id,
      name: 'Dee',
      role: 'administrator',
    });
    expect(changed.data).toMatchObject({ id, name: 'Dee', role: 'administrator', state: 'invited' });
    const [entry] = await log.since(mark);
    expect(entry).toMatchObject({
      action: 'web-directory.user.updated',
      objectType: 'web-user',
      objectId: id,
      before: { name: '', role: 'member' },
      after: { name: 'Dee', role: 'administrator' },
    });
    // The same values again: nothing recorded.
    await client.ok(boss, api.update, { customerNumber: CN, userId: id, name: 'Dee' });
    expect(await log.since(mark)).toHaveLength(1);
  });

  test("suspending ends the person's sessions and frees their seats; activating gives the group's seat back", async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, db },
  }) => {
    await invite(boss, ['sue@acme.example']);
    const { id } = await user(reader, 'sue@acme.example');
    const group = await client.ok(boss, api.createGroup, { customerNumber: CN, name: 'Suspenders' });
    await givePool(db, group.data.id);
    await client.ok(boss, api.setMembers, { customerNumber: CN, groupId: group.data.id, userIds: [id] });
    expect((await user(reader, 'sue@acme.example')).seats).toEqual([
      { partNumber: NAMED, groupId: group.data.id, groupName: 'Suspenders' },
    ]);
    await openLease(db, id, 'sue@acme.example');
    expect((await user(reader, 'sue@acme.example')).openSessions).toBe(1);
    const suspended = await client.ok(boss, api.update, {
      customerNumber: CN,
      userId: id,
      state: 'suspended',
    });
    expect(suspended.data).toMatchObject({ state: 'suspended', seats: [], openSessions: 0 });
    expect(await leaseOutcomes(db, id)).toEqual(['user-removed']);
    expect(await seatsOf(db, id)).toEqual([]);
    await client.ok(boss, api.update, { customerNumber: CN, userId: id, state: 'active' });
    expect(await seatsOf(db, id)).toEqual([NAMED]);
    // Tidy: the pool's seats are shared by the file's tests.
    await client.ok(boss, api.deleteGroup, { customerNumber: CN, groupId: group.data.id });
    expect(await seatsOf(db, id)).toEqual([]);
  });

  test('removes people: a preview says what it frees and writes nothing; then sessions end, seats and memberships go', async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, db, snapshot, log },
  }) => {
    await invite(boss, ['rex@acme.example', 'ria@acme.example']);
    const rex = (await user(reader, 'rex@acme.example')).id;
    const ria = (await user(reader, 'ria@acme.example')).id;
    const group = await client.ok(boss, api.createGroup, { customerNumber: CN, name: 'Leavers' });
    await givePool(db, group.data.id);
    await client.ok(boss, api.setMembers, {
      customerNumber: CN,
      groupId: group.data.id,
      userIds: [rex, ria],
    });
    await openLease(db, rex, 'rex@acme.example');
    const before = await snapshot();
    const mark = await log.mark();
    const preview = await client.ok(boss, api.remove, {
      customerNumber: CN,
      userIds: [rex, ria],
      preview: true,
    });
    expect(preview.data).toEqual({
      preview: true,
      text: 'removes 2 users; frees 2 named seats; ends 1 session',
      users: 2,
      seatsFreed: 2,
      sessionsEnded: 1,
    });
    expect(await snapshot()).toEqual(before);
    expect(await log.since(mark)).toEqual([]);
    const done = await client.ok(boss, api.remove, { customerNumber: CN, userIds: [rex, ria] });
    expect(done.data).toMatchObject({ preview: false, users: 2, seatsFreed: 2, sessionsEnded: 1 });
    expect(await leaseOutcomes(db, rex)).toEqual(['user-removed']);
    expect([...(await seatsOf(db, rex)), ...(await seatsOf(db, ria))]).toEqual([]);
    expect(await user(reader, 'rex@acme.example')).toMatchObject({ state: 'removed', groups: [] });
    const [entry] = await log.since(mark);
    expect(entry).toMatchObject({
      action: 'web-directory.users.removed',
      after: { users: ['rex@acme.example', 'ria@acme.example'], sessionsEnded: 1 },
    });
    // Removing them again changes nothing and records nothing.
    const again = await client.ok(boss, api.remove, { customerNumber: CN, userIds: [rex] });
    expect(again.data.users).toBe(0);
    expect(await log.since(mark)).toHaveLength(1);
    await client.ok(boss, api.deleteGroup, { customerNumber: CN, groupId: group.data.id });
  });

  test('the last active administrator cannot be suspended, demoted or removed', async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, db, snapshot },
  }) => {
    await invite(boss, ['admin1@acme.example', 'admin2@acme.example']);
    const one = (await user(reader, 'admin1@acme.example')).id;
    const two = (await user(reader, 'admin2@acme.example')).id;
    // Dee (an earlier test) is an invited administrator: not active, so not counted.
    await db
      .update(webUsers)
      .set({ state: 'active' })
      .where(and(eq(webUsers.customerNumber, CN), eq(webUsers.id, one)));
    await client.ok(boss, api.update, { customerNumber: CN, userId: one, role: 'administrator' });
    const before = await snapshot();
    const lastAdmin = webDirectoryMessages.lastAdmin('admin1@acme.example');
    for (const change of [{ state: 'suspended' as const }, { role: 'member' as const }])
      expect(
        (await client.refused(boss, api.update, { customerNumber: CN, userId: one, ...change }, 409)).err,
      ).toBe(lastAdmin);
    expect((await client.refused(boss, api.remove, { customerNumber: CN, userIds: [one] }, 409)).err).toBe(
      lastAdmin,
    );
    expect(await snapshot()).toEqual(before);
    // With a second active administrator the first may go, and then the second is the last.
    await client.ok(boss, api.update, {
      customerNumber: CN,
      userId: two,
      role: 'administrator',
      state: 'active',
    });
    await client.ok(boss, api.update, { customerNumber: CN, userId: one, role: 'member' });
    expect(
      (await client.refused(boss, api.remove, { customerNumber: CN, userIds: [two, one] }, 409)).err,
    ).toBe(webDirectoryMessages.lastAdmin('admin2@acme.example'));
  });

  test('two administrators demoted at once: one goes, the other is kept as the last', async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, users },
  }) => {
    // The earlier test left admin2 as the directory's one active administrator; race1 and race2 join them.
    await invite(boss, ['race1@acme.example', 'race2@acme.example']);
    const ids = await Promise.all(
      ['race1', 'race2'].map(async (n) => (await user(reader, `${n}@acme.example`)).id),
    );
    for (const userId of ids)
      await client.ok(boss, api.update, {
        customerNumber: CN,
        userId,
        role: 'administrator',
        state: 'active',
      });
    const admin2 = (await user(reader, 'admin2@acme.example')).id;
    const all = [admin2, ...ids];
    const answers = await Promise.all(
      all.map((userId) => client.call(boss, api.update, { customerNumber: CN, userId, state: 'suspended' })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 409]);
    const kept = all.filter((_, i) => answers[i].statusCode === 409);
    expect((await users(reader)).find((u) => u.id === kept[0])!.state).toBe('active');
  });

  test('answers 404 for a person of no directory of the account', async ({ api: client, cast: { boss } }) => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await client.refused(boss, api.update, { customerNumber: CN, userId: unknown, name: 'x' }, 404)).err,
    ).toBe(webDirectoryMessages.unknownUser);
    expect(
      (await client.refused(boss, api.remove, { customerNumber: CN, userIds: [unknown] }, 404)).err,
    ).toBe(webDirectoryMessages.unknownUser);
  });
});

describe('groups', () => {
  test('creates, renames and deletes a group; names are unique per account', async ({
    api: client,
    cast: { boss, reader },
    calls: { groups, log },
  }) => {
    const mark = await log.mark();
    const made = await client.ok(boss, api.createGroup, { customerNumber: CN, name: '  Engineers ' });
    expect(made.data).toMatchObject({ name: 'Engineers', source: 'manual', members: 0, memberIds: [] });
    const taken = await client.refused(boss, api.createGroup, { customerNumber: CN, name: 'Engineers' }, 409);
    expect(taken.err).toBe(webDirectoryMessages.groupNameTaken('Engineers'));
    const other = await client.ok(boss, api.createGroup, { customerNumber: CN, name: 'Testers' });
    expect(
      (
        await client.refused(
          boss,
          api.renameGroup,
          { customerNumber: CN, groupId: other.data.id, name: 'Engineers' },
          409,
        )
      ).err,
    ).toBe(webDirectoryMessages.groupNameTaken('Engineers'));
    const renamed = await client.ok(boss, api.renameGroup, {
      customerNumber: CN,
      groupId: made.data.id,
      name: 'Engineering',
    });
    expect(renamed.data.name).toBe('Engineering');
    // The same name again changes nothing (no entry below).
    await client.ok(boss, api.renameGroup, {
      customerNumber: CN,
      groupId: made.data.id,
      name: 'Engineering',
    });
    const preview = await client.ok(boss, api.deleteGroup, {
      customerNumber: CN,
      groupId: other.data.id,
      preview: true,
    });
    expect(preview.data).toMatchObject({
      preview: true,
      text: 'deletes Testers with 0 members; frees 0 named seats',
    });
    expect((await groups(reader)).some((g) => g.id === other.data.id)).toBe(true);
    await client.ok(boss, api.deleteGroup, { customerNumber: CN, groupId: other.data.id });
    expect((await groups(reader)).some((g) => g.id === other.data.id)).toBe(false);
    expect((await log.since(mark)).map((e) => e.action)).toEqual([
      'web-directory.group.created',
      'web-directory.group.created',
      'web-directory.group.renamed',
      'web-directory.group.deleted',
    ]);
    await client.ok(boss, api.deleteGroup, { customerNumber: CN, groupId: made.data.id });
  });

  test("sets a group's members: a preview writes nothing, seats follow the group's pool, a full pool is refused", async ({
    api: client,
    cast: { boss, reader },
    calls: { invite, user, groups, db, snapshot, log },
  }) => {
    await invite(boss, ['m1@acme.example', 'm2@acme.example', 'm3@acme.example', 'm4@acme.example']);
    const [m1, m2, m3, m4] = await Promise.all(
      ['m1', 'm2', 'm3', 'm4'].map(async (n) => (await user(reader, `${n}@acme.example`)).id),
    );
    const group = (await client.ok(boss, api.createGroup, { customerNumber: CN, name: 'Pool users' })).data;
    await givePool(db, group.id);
    const before = await snapshot();
    const mark = await log.mark();
    const preview = await client.ok(boss, api.setMembers, {
      customerNumber: CN,
      groupId: group.id,
      userIds: [m1, m2],
      preview: true,
    });
    expect(preview.data).toEqual({
      preview: true,
      text: 'adds 2 members; removes 0 members; assigns 2 named seats',
      added: 2,
      removed: 0,
      seatsAdded: 2,
      seatsRemoved: 0,
    });
    expect(await snapshot()).toEqual(before);
    expect(await log.since(mark)).toEqual([]);
    await client.ok(boss, api.setMembers, { customerNumber: CN, groupId: group.id, userIds: [m1, m2] });
    const replaced = await client.ok(boss, api.setMembers, {
      customerNumber: CN,
      groupId: group.id,
      userIds: [m2, m3],
    });
    expect(replaced.data).toMatchObject({ added: 1, removed: 1, seatsAdded: 1, seatsRemoved: 1 });
    expect(await seatsOf(db, m1)).toEqual([]);
    expect((await groups(reader)).find((g) => g.id === group.id)).toMatchObject({
      members: 2,
      namedPools: [NAMED],
    });
    // The same members again: nothing changes and nothing is recorded.
    const same = await client.ok(boss, api.setMembers, {
      customerNumber: CN,
      groupId: group.id,
      userIds: [m3, m2],
    });
    expect(same.data).toMatchObject({ added: 0, removed: 0, text: 'adds 0 members; removes 0 members' });
    const entries = await log.since(mark);
    expect(entries.map((e) => e.action)).toEqual([
      'web-directory.group.members.changed',
      'web-directory.group.members.changed',
    ]);
    expect(entries[1].after).toMatchObject({ added: ['m3@acme.example'], removed: ['m1@acme.example'] });
    // Four members of a 3-seat pool: refused with the pool's numbers, nothing changed.
    const full = await client.refused(
      boss,
      api.setMembers,
      { customerNumber: CN, groupId: group.id, userIds: [m1, m2, m3, m4] },
      409,
    );
    expect(full.err).toBe('Fluids - Named User has 3 seats; this change would assign 4.');
    expect((await groups(reader)).find((g) => g.id === group.id)!.memberIds.sort()).toEqual([m2, m3].sort());
    await client.ok(boss, api.deleteGroup, { customerNumber: CN, groupId: group.id });
  });

  test('refuses to change a group the identity provider manages', async ({
    api: client,
    cast: { boss, reader },
    calls: { db, invite, user, snapshot },
  }) => {
    const [scim] = await db
      .insert(webGroups)
      .values({ customerNumber: CN, name: 'From Entra', source: 'scim' })
      .returning({ id: webGroups.id });
    await invite(boss, ['idp@acme.example']);
    const { id } = await user(reader, 'idp@acme.example');
    const before = await snapshot();
    for (const [operation, body] of [
      [api.renameGroup, { customerNumber: CN, groupId: scim.id, name: 'Mine' }],
      [api.deleteGroup, { customerNumber: CN, groupId: scim.id }],
      [api.setMembers, { customerNumber: CN, groupId: scim.id, userIds: [id] }],
    ] as const)
      expect((await client.refused(boss, operation, body, 409)).err).toBe(webDirectoryMessages.scimManaged);
    const csv = await client.refused(
      boss,
      api.importCsv,
      { customerNumber: CN, csv: 'email,name,groups\nidp@acme.example,,From Entra' },
      409,
    );
    expect(csv.err).toBe(`From Entra: ${webDirectoryMessages.scimManaged}`);
    expect(await snapshot()).toEqual(before);
  });
});

describe('who may call', () => {
  test('view-only users and support read but may not write; outsiders and export-denied accounts are refused', async ({
    api: client,
    cast: { boss, reader, support, outsider },
    calls: { snapshot },
  }) => {
    for (const who of [reader, support]) {
      await client.ok(who, api.users, { customerNumber: CN });
      await client.ok(who, api.groups, { customerNumber: CN });
    }
    const before = await snapshot();
    const writes = [
      [api.invite, { customerNumber: CN, source: 'manual', users: [{ email: 'x@acme.example' }] }],
      [api.importCsv, { customerNumber: CN, csv: 'email,name\nx@acme.example,X' }],
      [api.update, { customerNumber: CN, userId: '00000000-0000-4000-8000-000000000000', name: 'x' }],
      [api.remove, { customerNumber: CN, userIds: ['00000000-0000-4000-8000-000000000000'] }],
      [api.createGroup, { customerNumber: CN, name: 'Nope' }],
      [api.renameGroup, { customerNumber: CN, groupId: '00000000-0000-4000-8000-000000000000', name: 'x' }],
      [api.deleteGroup, { customerNumber: CN, groupId: '00000000-0000-4000-8000-000000000000' }],
      [api.setMembers, { customerNumber: CN, groupId: '00000000-0000-4000-8000-000000000000', userIds: [] }],
    ] as const;
    for (const [operation, body] of writes) {
      for (const who of [reader, support])
        expect((await client.refused(who, operation, body, 403)).err).toBe(messages.noPermission);
      expect((await client.refused(outsider, operation, body, 403)).err).toBe(messages.noPermissionPage);
      expect((await client.refused(boss, operation, { ...body, customerNumber: BLOCKED }, 403)).err).toBe(
        messages.exportDenied,
      );
      expect((await client.call(anonymous, operation, body)).statusCode).toBe(401);
    }
    for (const operation of [api.users, api.groups]) {
      expect((await client.refused(outsider, operation, { customerNumber: CN }, 403)).err).toBe(
        messages.noPermissionPage,
      );
      expect((await client.refused(boss, operation, { customerNumber: BLOCKED }, 403)).err).toBe(
        messages.exportDenied,
      );
    }
    expect(await snapshot()).toEqual(before);
  });

  test('answers 400 in the envelope for malformed bodies', async ({ api: client, cast: { boss } }) => {
    const bad = [
      [api.users, { customerNumber: CN, extra: 1 }],
      [api.invite, { customerNumber: CN, source: 'sso', users: [{ email: 'a@acme.example' }] }],
      [api.invite, { customerNumber: CN, source: 'manual', users: [] }],
      [api.importCsv, { customerNumber: CN }],
      [api.update, { customerNumber: CN, userId: 'not-a-uuid' }],
      [api.update, { customerNumber: CN, userId: '00000000-0000-4000-8000-000000000000', state: 'removed' }],
      [api.remove, { customerNumber: CN, userIds: 'all' }],
      [api.createGroup, { customerNumber: CN, name: '   ' }],
      [api.setMembers, { customerNumber: CN, groupId: '00000000-0000-4000-8000-000000000000' }],
    ] as const;
    for (const [operation, body] of bad)
      expect((await client.refused(boss, operation, body, 400)).err).toMatch(/^Invalid request: /);
  });
});
