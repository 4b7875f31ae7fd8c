import { activationsApi } from '@lp/contract/activations/api';
import { messages } from '@lp/contract/common/errors';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import { contactRoles } from '@lp/domain/policy';
import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildLease,
  buildProduct,
  dayFromToday as day,
} from '../../../harness/factories.ts';
import { activationCalls, type CreateBody } from '../../../test/activation-calls.ts';
import { acme, anonymous, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { entitlements } from '../../db/schema.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const SISTER = '4300003';
const STRANGER = '4300004';
const BLOCKED = '4300005';
const PART = 'SIM-TEST-1';

let hostSeq = 0;
/** A fresh ETHERNET host id, written the way users paste it (MAC with colons, upper case). */
const newHostId = () => {
  const hex = (++hostSeq).toString(16).padStart(12, '0').toUpperCase();
  return { pasted: hex.match(/../g)!.join(':'), canonical: hex.toLowerCase() };
};

/** A create's body on an ETHERNET host of Acme unless it names another account or id type. */
const createBody = <B extends object>(body: B) => ({ customerNumber: CN, serverIdType: 'ETHERNET', ...body });
const hostBody = (hostId: string, customerNumber: string = CN) => ({
  customerNumber,
  hostId,
  hostIdType: 'ETHERNET',
});

const test = apiTest
  /** The admin of an account of their own (Stranger Co), who must learn nothing of Acme's hosts. */
  .extend('stranger', { scope: 'file' }, async ({ database, signIn }) => {
    await buildAccount(database.db, { customerNumber: STRANGER, name: 'Stranger Co' });
    await addContact(database.db, STRANGER, 'stranger@stranger.example', contactRoles.admin);
    return signIn('stranger@stranger.example');
  })
  /** A lease of the file's product (or of the part `over` names). */
  .extend(
    'ssl',
    { scope: 'file' },
    async ({ database }) =>
      (customerNumber: string, activationId: string, over: Partial<typeof entitlements.$inferInsert> = {}) =>
        buildLease(database.db, customerNumber, activationId, { partNumber: PART, ...over }),
  )
  .extend('calls', { scope: 'file' }, async ({ api, database, cast: { boss } }) => ({
    /** The admin's calls on Acme's hosts (create, giveBack, hostView, live, servers). */
    ...activationCalls(api, boss, CN),
    /** A create that must be refused (with `status`, any 4xx when not given): its refusal. */
    createRefused: (who: Caller, body: object, status?: number) =>
      api.refused(who, activationsApi.create, createBody(body), status),
    /** Seats activated of an entitlement, as stored. */
    activated: async (activationId: string) => {
      const [row] = await database.db
        .select({ activated: entitlements.activated })
        .from(entitlements)
        .where(eq(entitlements.activationId, activationId));
      return row!.activated;
    },
  }));

// The cast comes first: its accounts own the leases, and its admin administers Sister and Blocked too.
test.beforeAll(async ({ database, ssl, cast: _accounts, stranger: _stranger }) => {
  const { db } = database;
  await buildProduct(db, PART, { name: 'Solver', featureName: 'solver' });
  await buildAccount(db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildAccount(db, { customerNumber: BLOCKED, name: 'Blocked', exportControlStatus: 'Denied' });
  await addContact(db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  await ssl(CN, 'LEASE-A');
  await ssl(CN, 'LEASE-B', { quantity: 3, licenseModel: 'Network Borrow' });
  await ssl(CN, 'PERP-OK', { endDate: null, versionDate: day(100) });
  await ssl(CN, 'PERP-OLD', { endDate: null, versionDate: day(-10) });
  await ssl(CN, 'GONE', { startDate: day(-400), endDate: day(-1) });
  await ssl(CN, 'LAST-SEATS', { quantity: 10 });
  await ssl(CN, 'RETRY', { quantity: 5 });
  await buildProduct(db, FSA_MANUAL_DRAWDOWN_PART, {
    name: 'Flexible Spending Account Manual Drawdown',
    featureName: 'fsa_manual',
  });
  await ssl(CN, 'DRAWDOWN', { partNumber: FSA_MANUAL_DRAWDOWN_PART });
  await ssl(SISTER, 'SISTER-A');
  await ssl(STRANGER, 'STRANGER-A');
  await ssl(OTHER, 'OTHER-A');
  await ssl(BLOCKED, 'BLOCKED-A');
});

describe('who may activate', () => {
  test('answers 401 without a session and 403 to an outsider, who learns nothing', async ({
    api,
    cast: { outsider },
    calls: { createRefused, activated },
  }) => {
    const host = newHostId();
    const body = { serverName: 'lic1', serverId: host.pasted, activations: [{ id: 'LEASE-A', count: 1 }] };
    await createRefused(anonymous, body, 401);
    const refusal = await createRefused(outsider, body, 403);
    expect(JSON.stringify(refusal)).not.toContain('LEASE-A');
    await api.refused(outsider, licenseServersApi.list, { customerNumber: CN }, 403);
    expect(await activated('LEASE-A')).toBe(0);
  });

  test('refuses every write of a view-only user with the spec text and changes nothing', async ({
    api,
    cast: { reader },
    calls: { createRefused },
  }) => {
    const host = newHostId();
    const refusal = await createRefused(
      reader,
      { serverName: 'lic1', serverId: host.pasted, activations: [{ id: 'LEASE-A', count: 1 }] },
      403,
    );
    expect(refusal).toEqual({ status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' });
    for (const [operation, body] of [
      [activationsApi.return, { customerNumber: CN, activations: [{ id: 1, count: -1 }] }],
      [licenseServersApi.setSharedGroup, { ...hostBody(host.pasted), group: [CN] }],
      [licenseServersApi.deactivateSharedGroup, hostBody(host.pasted)],
      [licenseServersApi.remove, hostBody(host.pasted)],
    ] as const) {
      const r = await api.refused(reader, operation, body, 403);
      expect(r.err, operation.operationId).toBe(messages.noPermission);
    }
    // Reading is fine for a viewer.
    await api.ok(reader, licenseServersApi.list, { customerNumber: CN });
  });

  test('gives an export-denied account empty lists without an error (spec 002 §4), outsiders still 403', async ({
    api,
    stranger,
    cast: { boss, outsider },
    calls: { createRefused },
  }) => {
    const host = newHostId();
    for (const body of [
      { customerNumber: BLOCKED },
      { customerNumber: BLOCKED, serverId: host.pasted, serverIdType: 'ETHERNET' },
    ]) {
      expect(await api.ok(boss, activationsApi.allEntitlements, body)).toEqual({
        status: 'SUCCESS',
        data: { server: null, assigned: [], available: [] },
      });
    }
    const assigned = await api.ok(boss, activationsApi.hostEntitlements, {
      customerNumber: BLOCKED,
      serverId: host.pasted,
      serverIdType: 'ETHERNET',
    });
    expect(assigned.data).toEqual([]);
    for (const who of [outsider, stranger]) {
      const refusal = await api.refused(
        who,
        activationsApi.allEntitlements,
        { customerNumber: BLOCKED },
        403,
      );
      expect(JSON.stringify(refusal)).not.toContain('BLOCKED-A');
    }
    // Writes stay refused with the export text.
    const write = await createRefused(
      boss,
      {
        customerNumber: BLOCKED,
        serverName: 'lic1',
        serverId: host.pasted,
        activations: [{ id: 'BLOCKED-A', count: 1 }],
      },
      403,
    );
    expect(write.err).toBe(messages.exportDenied);
  });
});

describe('creating fulfillments', () => {
  test('adds a new host from a pasted MAC, activates seats and records who did it', async ({
    api,
    cast: { boss },
    calls: { create, servers, hostView },
  }) => {
    const host = newHostId();
    const answer = await create({
      serverName: 'licsrv01',
      serverId: host.pasted,
      type: 'new',
      activations: [
        { id: 'LEASE-A', count: 4 },
        { id: 'PERP-OK', count: 2 },
      ],
    });
    expect(answer).toEqual({ status: 'SUCCESS', data: { count: 6, replayed: false } });
    const listed = (await servers()).find((s) => s.serverId === host.canonical);
    expect(listed).toMatchObject({ name: 'licsrv01', state: 'Active', shared: false });
    expect(listed?.displayName).toBe(`licsrv01 (MAC_ADDRESS=${host.canonical})`);
    const view = await hostView(host.canonical);
    expect(view.assigned.map((r) => [r.activationid, r.ansysactivated]).sort()).toEqual([
      ['LEASE-A', 4],
      ['PERP-OK', 2],
    ]);
    expect(view.available.find((r) => r.activationid === 'LEASE-A')?.ansysavailable).toBe(6);
    // Expired leases and the perpetual past maintenance are not offered... the expired lease at least is not.
    expect(view.available.map((r) => r.activationid)).not.toContain('GONE');
    const history = await api.ok(boss, activationsApi.history, {
      customerNumber: CN,
      hostIds: [{ hostId: host.canonical, hostIdType: 'ETHERNET' }],
    });
    // One save = one group: both lines share its time, sorted by product.
    const rows = history.data[0]!.rows;
    expect(rows.map((r) => [r.groupId, r.action, r.count, r.modifiedBy])).toEqual([
      [1, 'ACTIVATE (4)', 4, 'boss@acme.example'],
      [1, 'ACTIVATE (2)', 2, 'boss@acme.example'],
    ]);
  });

  test('refuses bad host ids and names with the spec texts', async ({
    cast: { boss },
    calls: { create, createRefused, activated, servers },
  }) => {
    const before = await activated('LEASE-A');
    const bad = await createRefused(
      boss,
      { serverName: 'lic', serverId: '12345', activations: [{ id: 'LEASE-A', count: 1 }] },
      400,
    );
    expect(bad.err).toBe(
      'Invalid ETHERNET server id: 12345. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
    const two = await createRefused(boss, {
      serverName: 'lic',
      serverId: 'aaaaaaaaaaaa,bbbbbbbbbbbb',
      serverIdType: 'ETHERNET,ETHERNET',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(two.err).toBe('Server id aaaaaaaaaaaa,bbbbbbbbbbbb is not a single or triad server');
    const name = await createRefused(
      boss,
      { serverName: 'my host', serverId: newHostId().pasted, activations: [{ id: 'LEASE-A', count: 1 }] },
      400,
    );
    expect(name.err).toBe('Please remove spaces and special characters.');
    // Issue 20 §7: look-alike and invisible characters, in a single name or one of a triad's.
    for (const serverName of ['l\u0456csrv', 'lic\u200bsrv', 'licsrv\u202e1', 'lic1,lic\u00a02,lic3']) {
      const triad = serverName.includes(',');
      const refusal = await createRefused(
        boss,
        {
          serverName,
          serverId: triad
            ? [newHostId(), newHostId(), newHostId()].map((h) => h.pasted).join(',')
            : newHostId().pasted,
          ...(triad ? { serverIdType: 'ETHERNET,ETHERNET,ETHERNET' } : {}),
          activations: [{ id: 'LEASE-A', count: 1 }],
        },
        400,
      );
      expect([serverName, refusal.err]).toEqual([serverName, 'Please remove spaces and special characters.']);
    }
    // The port of a new host is a TCP port (the dialog checks the same range).
    for (const portNumber of [0, 65_536, 1055.5]) {
      const refusal = await createRefused(
        boss,
        {
          serverName: 'ported',
          serverId: newHostId().pasted,
          portNumber,
          type: 'new',
          activations: [{ id: 'LEASE-A', count: 1 }],
        },
        400,
      );
      expect([portNumber, refusal.err]).toEqual([
        portNumber,
        expect.stringMatching(/^Invalid request: portNumber: /),
      ]);
    }
    expect(await activated('LEASE-A')).toBe(before);
    // A port in range is kept (issue 21: an imported 27000 became 1055).
    const ported = newHostId();
    await create({
      serverName: 'ported',
      serverId: ported.pasted,
      portNumber: 27_000,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect((await servers()).find((s) => s.serverId === ported.canonical)?.portNumber).toBe(27_000);
  });

  test('is all or nothing: a line over its available seats rolls back the whole batch', async ({
    cast: { boss },
    calls: { createRefused, activated, servers },
  }) => {
    const host = newHostId();
    const before = await activated('LEASE-A');
    const refusal = await createRefused(
      boss,
      {
        serverName: 'lic2',
        serverId: host.pasted,
        activations: [
          { id: 'LEASE-A', count: 2 },
          { id: 'LEASE-B', count: 4 },
        ],
      },
      409,
    );
    expect(refusal.err).toBe(messages.activatedOverAvailable);
    expect(await activated('LEASE-A')).toBe(before);
    expect((await servers()).some((s) => s.serverId === host.canonical)).toBe(false);
  });

  test('offers no seat of a Shared Web or Named User line and refuses to activate one (decision 031)', async ({
    ssl,
    cast: { boss },
    calls: { createRefused, activated, hostView },
  }) => {
    await ssl(CN, 'NAMED-50', { quantity: 50, licenseModel: 'Named User' });
    await ssl(CN, 'SHARED-50', { quantity: 50, licenseModel: 'Shared Web' });
    const host = newHostId();
    const { available } = await hostView(host.canonical);
    expect(available.map((r) => r.activationid)).not.toContain('NAMED-50');
    expect(available.map((r) => r.activationid)).not.toContain('SHARED-50');
    for (const id of ['NAMED-50', 'SHARED-50']) {
      const refusal = await createRefused(
        boss,
        { serverName: 'named', serverId: host.pasted, type: 'new', activations: [{ id, count: 1 }] },
        409,
      );
      expect(refusal.err).toBe(messages.activatedOverAvailable);
      expect(await activated(id)).toBe(0);
    }
  });

  test('refuses products whose maintenance has expired, and expired leases', async ({
    cast: { boss },
    calls: { createRefused, activated },
  }) => {
    const on = (serverName: string, id: string) => ({
      serverName,
      serverId: newHostId().pasted,
      activations: [{ id, count: 1 }],
    });
    const expired = await createRefused(boss, on('lic3', 'PERP-OLD'), 400);
    expect(expired.err).toContain(messages.maintenanceExpired);
    const gone = await createRefused(boss, on('lic3', 'GONE'), 400);
    expect(gone.err).toBe(messages.entitlementExpired('GONE'));
    await createRefused(boss, on('lic3', 'OTHER-A'), 404);
    // The FSA manual drawdown product is never offered, so it cannot be activated either (spec 002 §4).
    const drawdown = await createRefused(boss, on('lic4', 'DRAWDOWN'), 404);
    expect(drawdown.err).toBe(messages.unknownActivation('DRAWDOWN'));
    expect(await activated('DRAWDOWN')).toBe(0);
  });

  test("says a new host's identifier is in use, with a rehost hint when the name differs", async ({
    stranger,
    cast: { boss },
    calls: { create, createRefused, activated },
  }) => {
    const host = newHostId();
    const before = await activated('LEASE-A');
    await create({
      serverName: 'first',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    const same = await createRefused(
      boss,
      {
        serverName: 'first',
        serverId: host.canonical,
        type: 'new',
        activations: [{ id: 'LEASE-A', count: 1 }],
      },
      409,
    );
    expect(same.err).toBe(`Host identifier first (${host.canonical}) is already in use.`);
    const renamed = await createRefused(boss, {
      serverName: 'second',
      serverId: host.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    // The message names the host that holds the id (the user may see it), not the name typed.
    expect(renamed.err).toMatch(/^Host identifier first \([0-9a-f]{12}\) is already in use\. .*[Rr]ehost/);
    // Another organisation typing the same id learns only that it is in use.
    const foreign = await createRefused(
      stranger,
      {
        customerNumber: STRANGER,
        serverName: 'theirs',
        serverId: host.canonical,
        activations: [{ id: 'STRANGER-A', count: 1 }],
      },
      409,
    );
    expect(foreign.err).toBe(`Host identifier theirs (${host.canonical}) is already in use.`);
    expect(await activated('LEASE-A')).toBe(before + 1);
  });

  test('checks a rehost target as an added host: an id in use is refused, never merged (issue 21)', async ({
    api,
    ssl,
    cast: { boss },
    calls: { create, createRefused, activated, servers, hostView, giveBack },
  }) => {
    await ssl(CN, 'REHOST-A', { quantity: 4 });
    const held = newHostId();
    const source = newHostId();
    // The holder is active and shared with another account of the same user.
    await create({
      serverName: 'held',
      serverId: held.canonical,
      type: 'new',
      activations: [{ id: 'REHOST-A', count: 1 }],
    });
    await create({
      customerNumber: SISTER,
      serverName: 'held',
      serverId: held.canonical,
      activations: [{ id: 'SISTER-A', count: 1 }],
    });
    await create({
      serverName: 'src',
      serverId: source.canonical,
      type: 'new',
      activations: [{ id: 'REHOST-A', count: 2 }],
    });
    const [row] = (await hostView(source.canonical)).assigned;
    // The returns name the target: one the create would refuse is refused before the source loses a seat.
    const returnFor = (serverName: string, serverId: string) => ({
      customerNumber: CN,
      lifecycle: 'rehost' as const,
      rehostTarget: {
        serverName,
        serverId,
        serverIdType: 'ETHERNET',
        prevServer: { serverId: source.canonical, serverIdType: 'ETHERNET' },
      },
      activations: [{ id: row!.fulfillments[0]!.FulfillmentID, count: -2 }],
    });
    const early = await api.refused(boss, activationsApi.return, returnFor('newname', held.canonical), 409);
    expect(early.err).toMatch(/^Host identifier held \(/);
    expect((await api.refused(boss, activationsApi.return, returnFor('src', source.canonical))).err).toBe(
      `Host src (${source.canonical}) is active.`,
    );
    expect(await activated('REHOST-A')).toBe(3);
    // A free target passes; the create checks again in its own transaction.
    await giveBack(returnFor('moved', newHostId().canonical));
    const rehost = (serverName: string, serverId: string) => ({
      serverName,
      serverId,
      type: 'rehost' as const,
      prevServer: { serverId: source.canonical, serverIdType: 'ETHERNET' },
      activations: [{ id: 'REHOST-A', count: 2 }],
    });
    const renamed = await createRefused(boss, rehost('newname', held.canonical), 409);
    expect(renamed.err).toMatch(
      new RegExp(`^Host identifier held \\(${held.canonical}\\) is already in use\\. .*[Rr]ehost`),
    );
    const sameName = await createRefused(boss, rehost('held', held.canonical), 409);
    expect(sameName.err).toBe(`Host held (${held.canonical}) is active.`);
    // The source itself, though Inactive once its seats are returned, is no target either.
    const onto = await createRefused(boss, rehost('src', source.canonical));
    expect(onto.err).toBe(`Host src (${source.canonical}) is active.`);
    // Nothing moved: the holder keeps its one seat, no host of the new name exists, the seats stay returned.
    expect((await hostView(held.canonical)).assigned.map((r) => r.ansysactivated)).toEqual([1]);
    expect((await servers()).some((s) => s.name === 'newname')).toBe(false);
    expect(await activated('REHOST-A')).toBe(1);
    const fresh = newHostId();
    await create(rehost('moved', fresh.canonical));
  });
});

describe('returning fulfillments and host lifecycle', () => {
  test('returns seats, turns an emptied host Inactive, then removes it', async ({
    api,
    cast: { boss, outsider },
    calls: { create, activated, servers, hostView, giveBack },
  }) => {
    const host = newHostId();
    const before = await activated('LEASE-B');
    await create({
      serverName: 'old',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-B', count: 2 }],
    });
    const [row] = (await hostView(host.canonical)).assigned;
    const id = row!.fulfillments[0]!.FulfillmentID;
    await api.refused(
      boss,
      activationsApi.return,
      { customerNumber: CN, activations: [{ id, count: -3 }] },
      409,
    );
    const removeActive = await api.refused(boss, licenseServersApi.remove, hostBody(host.canonical), 409);
    expect(removeActive.err).toBe(`Host old (${host.canonical}) is active.`);
    const answer = await giveBack({
      lifecycle: 'deactivate',
      activations: [{ id, count: -2 }],
    });
    expect(answer).toEqual({ status: 'SUCCESS', data: { count: 2, replayed: false } });
    expect(await activated('LEASE-B')).toBe(before);
    expect((await servers()).find((s) => s.serverId === host.canonical)?.state).toBe('Inactive');
    // Another account's fulfillment id is as unknown as a made-up one.
    await api.refused(
      outsider,
      activationsApi.return,
      { customerNumber: OTHER, activations: [{ id, count: -1 }] },
      404,
    );
    await api.ok(boss, licenseServersApi.remove, hostBody(host.canonical));
    expect((await servers()).some((s) => s.serverId === host.canonical)).toBe(false);
  });
});

describe('shared license servers', () => {
  test('lets a user with several accounts share a host, shows only the accounts they may see', async ({
    api,
    cast: { boss, reader },
    calls: { create },
  }) => {
    const host = newHostId();
    await create({
      serverName: 'shared1',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    await create({
      customerNumber: SISTER,
      serverName: 'shared1',
      serverId: host.canonical,
      activations: [{ id: 'SISTER-A', count: 2 }],
    });
    await api.ok(boss, licenseServersApi.setSharedGroup, {
      ...hostBody(host.canonical),
      group: [CN, SISTER],
    });
    const body = hostBody(host.canonical);
    expect((await api.ok(boss, licenseServersApi.customers, body)).data).toEqual([
      { AccountID: CN, AccountName: 'Acme' },
      { AccountID: SISTER, AccountName: 'Acme Sister' },
    ]);
    expect((await api.ok(boss, licenseServersApi.override, body)).data).toEqual({
      shared: true,
      otherCustomers: 0,
    });
    // A reader of CN only sees CN and is told one other customer number shares the host.
    expect((await api.ok(reader, licenseServersApi.customers, body)).data).toEqual([
      { AccountID: CN, AccountName: 'Acme' },
    ]);
    const told = await api.ok(reader, licenseServersApi.override, body);
    expect(told.data).toEqual({ shared: true, otherCustomers: 1 });
    expect(JSON.stringify(told)).not.toContain(SISTER);
    // A group naming an account the user may not edit is refused whole.
    await api.refused(boss, licenseServersApi.setSharedGroup, { ...body, group: [CN, STRANGER] }, 403);
    await api.ok(boss, licenseServersApi.deactivateSharedGroup, body);
  });
});

describe('associated accounts and overlapping hosts', () => {
  test('shows an associated account only its available rows on a host it does not use yet, then lets it join', async ({
    api,
    cast: { boss },
    calls: { create, hostView },
  }) => {
    const host = newHostId();
    await create({
      serverName: 'join1',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    // Sister does not use the host: no assigned rows, its available ones (the same answer as for an unknown host).
    const view = await hostView(host.canonical, SISTER);
    expect(view.assigned).toEqual([]);
    expect(view.available.map((r) => r.activationid)).toContain('SISTER-A');
    expect(await hostView(newHostId().canonical, SISTER)).toEqual(view);
    // The call that lists a host's activations still answers 404 for a host the account does not use.
    await api.refused(
      boss,
      activationsApi.hostEntitlements,
      { customerNumber: SISTER, serverId: host.canonical, serverIdType: 'ETHERNET' },
      404,
    );
    await create({
      customerNumber: SISTER,
      serverName: 'join1',
      serverId: host.canonical,
      activations: [{ id: 'SISTER-A', count: 1 }],
    });
    expect((await hostView(host.canonical, SISTER)).assigned.map((r) => r.activationid)).toEqual([
      'SISTER-A',
    ]);
  });

  test('refuses a new host that takes in an id of a host in use (triad or single), and allows it once that host is inactive', async ({
    cast: { boss },
    calls: { create, createRefused, hostView, giveBack },
  }) => {
    const single = newHostId();
    await create({
      serverName: 'alone',
      serverId: single.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    const [a, b] = [newHostId(), newHostId()];
    const triadBody = {
      serverName: 't1,t2,t3',
      serverId: `${a.canonical},${single.canonical},${b.canonical}`,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      type: 'new' as const,
      activations: [{ id: 'LEASE-A', count: 1 }],
    };
    const triad = await createRefused(boss, triadBody, 409);
    // Named by the host that holds the id, which the account uses.
    expect(triad.err).toBe(`Host identifier alone (${single.canonical}) is already in use.`);
    // Once the single host is returned whole (Inactive), its id may serve the triad.
    const [row] = (await hostView(single.canonical)).assigned;
    await giveBack({
      activations: row!.fulfillments.map((f) => ({ id: f.FulfillmentID, count: -1 })),
    });
    await create(triadBody);
    // And a single host may not take a member of that triad.
    const member = await createRefused(boss, {
      serverName: 'member',
      serverId: b.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(member.err).toBe(`Host identifier t1 (${b.canonical}) is already in use.`);
  });
});

describe('concurrency and retries', () => {
  test('grants exactly the last 10 seats to 100 parallel creates from different users on different hosts', async ({
    api,
    database,
    signIn,
    calls: { activated },
  }) => {
    const users: Caller[] = [];
    for (let i = 0; i < 10; i++) {
      await addContact(database.db, CN, `admin${i}@acme.example`, contactRoles.admin);
      users.push(await signIn(`admin${i}@acme.example`));
    }
    // The raw answers: which of the racing creates win is not known in advance.
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        api.call(
          users[i % 10]!,
          activationsApi.create,
          createBody({
            serverName: `race${i}`,
            serverId: newHostId().pasted,
            type: 'new',
            activations: [{ id: 'LAST-SEATS', count: 1 }],
          }),
        ),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(10);
    expect(
      refused.every((r) => r.statusCode === 409 && r.json().err === messages.activatedOverAvailable),
    ).toBe(true);
    expect(await activated('LAST-SEATS')).toBe(10);
    const result =
      await database.db.execute(sql`select coalesce(sum(f.count), 0)::int as n from fulfillments f
        join entitlements e on e.id = f.entitlement_id where e.activation_id = 'LAST-SEATS'`);
    const [{ n }] = (result as unknown as { rows: { n: number }[] }).rows;
    expect(n).toBe(10);
  });

  test('a save cut off between its steps, retried from fresh server data, ends in exactly the intended state', async ({
    api,
    cast: { boss },
    calls: { create, createRefused, activated, hostView, giveBack },
  }) => {
    // Intended change on one host: RETRY 3 -> 1 seat (return 2) and LEASE-B +1 seat.
    const host = newHostId();
    await create({
      serverName: 'resume',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'RETRY', count: 3 }],
    });
    const bBefore = await activated('LEASE-B');
    const fid = (await hostView(host.canonical)).assigned[0]!.fulfillments[0]!.FulfillmentID;
    const returnBatch = {
      customerNumber: CN,
      operationKey: 'save-0001-return',
      activations: [{ id: fid, count: -2 }],
    };
    const createBatch = {
      serverName: 'resume',
      serverId: host.canonical,
      operationKey: 'save-0001-create',
      activations: [{ id: 'LEASE-B', count: 1 }],
    };
    // Step 1 commits, then the browser dies (or the answer is lost) before step 2.
    await giveBack(returnBatch);
    // The retry resends step 1 with its key: answered from the first outcome, nothing returned twice.
    const again = await giveBack(returnBatch);
    expect(again).toEqual({ status: 'SUCCESS', data: { count: 2, replayed: true } });
    // A step that fails inside its transaction leaves nothing behind and can be retried with the same key.
    await createRefused(
      boss,
      { ...createBatch, activations: [...createBatch.activations, { id: 'GONE', count: 1 }] },
      400,
    );
    expect(await activated('LEASE-B')).toBe(bBefore);
    expect((await create(createBatch)).data).toEqual({ count: 1, replayed: false });
    // A double click sends step 2 again.
    expect((await create(createBatch)).data).toEqual({ count: 1, replayed: true });
    const view = await hostView(host.canonical);
    expect(view.assigned.map((r) => [r.activationid, r.ansysactivated]).sort()).toEqual([
      ['LEASE-B', 1],
      ['RETRY', 1],
    ]);
    expect(await activated('RETRY')).toBe(1);
    expect(await activated('LEASE-B')).toBe(bBefore + 1);
    // A key reused for another operation is refused rather than silently replayed.
    await api.refused(boss, activationsApi.return, { ...returnBatch, operationKey: 'save-0001-create' }, 409);
    // So is the same key with another request (other seats): answering the first outcome would do nothing.
    await createRefused(boss, { ...createBatch, activations: [{ id: 'LEASE-A', count: 1 }] }, 409);
    expect(await activated('LEASE-B')).toBe(bBefore + 1);
  });

  test("a retry that differs only in fields the server never reads (the client's time, action, name) is replayed", async ({
    calls: { create, activated, hostView, giveBack },
  }) => {
    const host = newHostId();
    const first: CreateBody = {
      serverName: 'clock',
      serverId: host.pasted,
      type: 'new',
      time: '2026-11-26 22:00:00',
      action: 'new',
      customerName: 'Acme',
      operationKey: 'clock-0001-create',
      activations: [{ id: 'LEASE-B', count: 1, ansysproduct: 'Product', startdate: '2026-01-01' }],
    };
    const before = await activated('LEASE-B');
    expect((await create(first)).data).toEqual({ count: 1, replayed: false });
    // The browser's retry a moment later carries its clock again (the wire is unchanged; it need not freeze it).
    const retry = await create({
      ...first,
      time: Date.now(),
      action: '',
      customerName: 'Acme Corp',
      activations: [{ id: 'LEASE-B', count: 1 }],
    });
    expect(retry).toEqual({ status: 'SUCCESS', data: { count: 1, replayed: true } });
    expect(await activated('LEASE-B')).toBe(before + 1);
    const fid = (await hostView(host.canonical)).assigned[0]!.fulfillments[0]!.FulfillmentID;
    const giveBackBatch = {
      customerNumber: CN,
      operationKey: 'clock-0001-return',
      activations: [{ id: fid, count: -1 }],
    };
    await giveBack({ ...giveBackBatch, time: 1 });
    const returnedAgain = await giveBack({
      ...giveBackBatch,
      time: 2,
      action: 'return',
    });
    expect(returnedAgain.data).toEqual({ count: 1, replayed: true });
    expect(await activated('LEASE-B')).toBe(before);
  });

  test('returns and creates on one host at once leave its state true to its seats, so removal never loses seats', async ({
    api,
    ssl,
    cast: { boss },
    calls: { create, activated, servers, hostView, giveBack },
  }) => {
    // A lease of its own with seats to spare, so the create succeeds whichever of the two runs first.
    await ssl(CN, 'LEASE-BUSY');
    const host = newHostId();
    await create({
      serverName: 'busy',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-BUSY', count: 1 }],
    });
    const before = await activated('LEASE-BUSY');
    for (let round = 0; round < 5; round++) {
      const fid = (await hostView(host.canonical)).assigned[0]!.fulfillments[0]!.FulfillmentID;
      // Both must answer 200, whichever runs first.
      await Promise.all([
        giveBack({ activations: [{ id: fid, count: -1 }] }),
        create({
          serverName: 'busy',
          serverId: host.canonical,
          activations: [{ id: 'LEASE-BUSY', count: 1 }],
        }),
      ]);
      const [row] = (await servers()).filter((h) => h.serverId === host.canonical);
      // One seat is live whichever ran first: the host must say Active.
      expect(row!.state).toBe('Active');
      await api.refused(boss, licenseServersApi.remove, hostBody(host.canonical), 409);
    }
    expect(await activated('LEASE-BUSY')).toBe(before);
  });
});
