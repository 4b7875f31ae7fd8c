import { messages } from '@lp/contract/common/errors';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import { contactRoles } from '@lp/domain/policy';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { entitlements, products } from '../../db/schema.ts';

const CN = '4300001';
const OTHER = '4300002';
const SISTER = '4300003';
const STRANGER = '4300004';
const BLOCKED = '4300005';
const PART = 'SIM-TEST-1';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let outsider: Headers;
let stranger: Headers;

const ssl = (
  customerNumber: string,
  activationId: string,
  over: Partial<typeof entitlements.$inferInsert> = {},
) => buildLease(database.db, customerNumber, activationId, { partNumber: PART, ...over });

const post = (url: string, headers: Headers | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

let hostSeq = 0;
/** A fresh ETHERNET host id, written the way users paste it (MAC with colons, upper case). */
const newHostId = () => {
  const hex = (++hostSeq).toString(16).padStart(12, '0').toUpperCase();
  return { pasted: hex.match(/../g)!.join(':'), canonical: hex.toLowerCase() };
};

const create = (headers: Headers, body: Record<string, unknown>) =>
  post('/api/fulfillments/create', headers, { customerNumber: CN, serverIdType: 'ETHERNET', ...body });

async function activated(activationId: string) {
  const [row] = await database.db
    .select({ activated: entitlements.activated })
    .from(entitlements)
    .where(eq(entitlements.activationId, activationId));
  return row.activated;
}

async function servers(headers: Headers, customerNumber = CN) {
  const res = await post('/api/fulfillments/servers', headers, { customerNumber });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    name: string;
    serverId: string;
    state: string;
    shared: boolean;
    displayName: string;
  }[];
}

async function hostView(headers: Headers, serverId: string, customerNumber = CN) {
  const res = await post('/api/fulfillments/allentitlements', headers, {
    customerNumber,
    serverId,
    serverIdType: 'ETHERNET',
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    assigned: { activationid: string; ansysactivated: number; fulfillments: { FulfillmentID: number }[] }[];
    available: { activationid: string; ansysavailable: number }[];
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values({
    partNumber: PART,
    name: 'Solver',
    family: 'Platform',
    daemon: 'simlmd',
    featureName: 'solver',
  });
  ({ boss, reader, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  await buildAccount(database.db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildAccount(database.db, { customerNumber: STRANGER, name: 'Stranger Co' });
  await addContact(database.db, STRANGER, 'stranger@stranger.example', contactRoles.admin);
  stranger = (await signInAs(database.db, 'stranger@stranger.example')).headers;
  await buildAccount(database.db, {
    customerNumber: BLOCKED,
    name: 'Blocked',
    exportControlStatus: 'Denied',
  });
  await addContact(database.db, BLOCKED, 'boss@acme.example', contactRoles.admin);
  await ssl(CN, 'LEASE-A');
  await ssl(CN, 'LEASE-B', { quantity: 3, licenseModel: 'Network Borrow' });
  await ssl(CN, 'PERP-OK', { endDate: null, versionDate: day(100) });
  await ssl(CN, 'PERP-OLD', { endDate: null, versionDate: day(-10) });
  await ssl(CN, 'GONE', { startDate: day(-400), endDate: day(-1) });
  await ssl(CN, 'LAST-SEATS', { quantity: 10 });
  await ssl(CN, 'RETRY', { quantity: 5 });
  await database.db.insert(products).values({
    partNumber: FSA_MANUAL_DRAWDOWN_PART,
    name: 'Flexible Spending Account Manual Drawdown',
    family: 'Platform',
    daemon: 'simlmd',
    featureName: 'fsa_manual',
  });
  await ssl(CN, 'DRAWDOWN', { partNumber: FSA_MANUAL_DRAWDOWN_PART });
  await ssl(SISTER, 'SISTER-A');
  await ssl(STRANGER, 'STRANGER-A');
  await ssl(OTHER, 'OTHER-A');
  await ssl(BLOCKED, 'BLOCKED-A');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('who may activate', () => {
  it('answers 401 without a session and 403 to an outsider, who learns nothing', async () => {
    const host = newHostId();
    const body = { serverName: 'lic1', serverId: host.pasted, activations: [{ id: 'LEASE-A', count: 1 }] };
    expect((await create(undefined as unknown as Headers, body)).statusCode).toBe(401);
    const res = await create(outsider, body);
    expect(res.statusCode).toBe(403);
    expect(JSON.stringify(res.json())).not.toContain('LEASE-A');
    expect((await post('/api/fulfillments/servers', outsider, { customerNumber: CN })).statusCode).toBe(403);
    expect(await activated('LEASE-A')).toBe(0);
  });

  it('refuses every write of a view-only user with the spec text and changes nothing', async () => {
    const host = newHostId();
    const res = await create(reader, {
      serverName: 'lic1',
      serverId: host.pasted,
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'FAILURE', err: messages.noPermission, code: 'FORBIDDEN' });
    for (const [url, body] of [
      ['/api/fulfillments/return', { customerNumber: CN, activations: [{ id: 1, count: -1 }] }],
      ['/api/sharedserver', { customerNumber: CN, hostId: host.pasted, hostIdType: 'ETHERNET', group: [CN] }],
      ['/api/sharedserver/deactivate', { customerNumber: CN, hostId: host.pasted, hostIdType: 'ETHERNET' }],
      ['/api/sharedserver/remove', { customerNumber: CN, hostId: host.pasted, hostIdType: 'ETHERNET' }],
    ] as const) {
      const r = await post(url, reader, body);
      expect(r.statusCode, url).toBe(403);
      expect(r.json().err).toBe(messages.noPermission);
    }
    // Reading is fine for a viewer.
    expect((await post('/api/fulfillments/servers', reader, { customerNumber: CN })).statusCode).toBe(200);
  });

  it('gives an export-denied account empty lists without an error (spec 002 §4), outsiders still 403', async () => {
    const host = newHostId();
    for (const body of [
      { customerNumber: BLOCKED },
      { customerNumber: BLOCKED, serverId: host.pasted, serverIdType: 'ETHERNET' },
    ]) {
      const res = await post('/api/fulfillments/allentitlements', boss, body);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'SUCCESS', data: { server: null, assigned: [], available: [] } });
    }
    const assigned = await post('/api/fulfillments/entitlements', boss, {
      customerNumber: BLOCKED,
      serverId: host.pasted,
      serverIdType: 'ETHERNET',
    });
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().data).toEqual([]);
    for (const who of [outsider, stranger]) {
      const res = await post('/api/fulfillments/allentitlements', who, { customerNumber: BLOCKED });
      expect(res.statusCode).toBe(403);
      expect(JSON.stringify(res.json())).not.toContain('BLOCKED-A');
    }
    // Writes stay refused with the export text.
    const write = await create(boss, {
      customerNumber: BLOCKED,
      serverName: 'lic1',
      serverId: host.pasted,
      activations: [{ id: 'BLOCKED-A', count: 1 }],
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().err).toBe(messages.exportDenied);
  });
});

describe('creating fulfillments', () => {
  it('adds a new host from a pasted MAC, activates seats and records who did it', async () => {
    const host = newHostId();
    const res = await create(boss, {
      serverName: 'licsrv01',
      serverId: host.pasted,
      type: 'new',
      activations: [
        { id: 'LEASE-A', count: 4 },
        { id: 'PERP-OK', count: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { count: 6, replayed: false } });
    const listed = (await servers(boss)).find((s) => s.serverId === host.canonical);
    expect(listed).toMatchObject({ name: 'licsrv01', state: 'Active', shared: false });
    expect(listed?.displayName).toBe(`licsrv01 (MAC_ADDRESS=${host.canonical})`);
    const view = await hostView(boss, host.canonical);
    expect(view.assigned.map((r) => [r.activationid, r.ansysactivated]).sort()).toEqual([
      ['LEASE-A', 4],
      ['PERP-OK', 2],
    ]);
    expect(view.available.find((r) => r.activationid === 'LEASE-A')?.ansysavailable).toBe(6);
    // Expired leases and the perpetual past maintenance are not offered... the expired lease at least is not.
    expect(view.available.map((r) => r.activationid)).not.toContain('GONE');
    const history = await post('/api/fulfillments/history', boss, {
      customerNumber: CN,
      hostIds: [{ hostId: host.canonical, hostIdType: 'ETHERNET' }],
    });
    expect(history.statusCode).toBe(200);
    // One save = one group: both lines share its time, sorted by product.
    const rows = history.json().data[0].rows;
    expect(
      rows.map((r: { groupId: number; action: string; count: number; modifiedBy: string }) => [
        r.groupId,
        r.action,
        r.count,
        r.modifiedBy,
      ]),
    ).toEqual([
      [1, 'ACTIVATE (4)', 4, 'boss@acme.example'],
      [1, 'ACTIVATE (2)', 2, 'boss@acme.example'],
    ]);
  });

  it('refuses bad host ids and names with the spec texts', async () => {
    const before = await activated('LEASE-A');
    const bad = await create(boss, {
      serverName: 'lic',
      serverId: '12345',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toBe(
      'Invalid ETHERNET server id: 12345. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
    );
    const two = await create(boss, {
      serverName: 'lic',
      serverId: 'aaaaaaaaaaaa,bbbbbbbbbbbb',
      serverIdType: 'ETHERNET,ETHERNET',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(two.json().err).toBe('Server id aaaaaaaaaaaa,bbbbbbbbbbbb is not a single or triad server');
    const name = await create(boss, {
      serverName: 'my host',
      serverId: newHostId().pasted,
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(name.statusCode).toBe(400);
    expect(name.json().err).toBe('Please remove spaces and special characters.');
    // Issue 20 §7: look-alike and invisible characters, in a single name or one of a triad's.
    for (const serverName of ['l\u0456csrv', 'lic\u200bsrv', 'licsrv\u202e1', 'lic1,lic\u00a02,lic3']) {
      const triad = serverName.includes(',');
      const res = await create(boss, {
        serverName,
        serverId: triad
          ? [newHostId(), newHostId(), newHostId()].map((h) => h.pasted).join(',')
          : newHostId().pasted,
        ...(triad ? { serverIdType: 'ETHERNET,ETHERNET,ETHERNET' } : {}),
        activations: [{ id: 'LEASE-A', count: 1 }],
      });
      expect([serverName, res.statusCode, res.json().err]).toEqual([
        serverName,
        400,
        'Please remove spaces and special characters.',
      ]);
    }
    // The port of a new host is a TCP port (the dialog checks the same range).
    for (const portNumber of [0, 65_536, 1055.5]) {
      const res = await create(boss, {
        serverName: 'ported',
        serverId: newHostId().pasted,
        portNumber,
        type: 'new',
        activations: [{ id: 'LEASE-A', count: 1 }],
      });
      expect([portNumber, res.statusCode]).toEqual([portNumber, 400]);
      expect(res.json().err).toMatch(/^Invalid request: portNumber: /);
    }
    expect(await activated('LEASE-A')).toBe(before);
    // A port in range is kept (issue 21: an imported 27000 became 1055).
    const ported = newHostId();
    const kept = await create(boss, {
      serverName: 'ported',
      serverId: ported.pasted,
      portNumber: 27_000,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(kept.statusCode).toBe(200);
    const list = (await servers(boss)) as unknown as { serverId: string; portNumber: number }[];
    expect(list.find((s) => s.serverId === ported.canonical)?.portNumber).toBe(27_000);
  });

  it('is all or nothing: a line over its available seats rolls back the whole batch', async () => {
    const host = newHostId();
    const before = await activated('LEASE-A');
    const res = await create(boss, {
      serverName: 'lic2',
      serverId: host.pasted,
      activations: [
        { id: 'LEASE-A', count: 2 },
        { id: 'LEASE-B', count: 4 },
      ],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().err).toBe(messages.activatedOverAvailable);
    expect(await activated('LEASE-A')).toBe(before);
    expect((await servers(boss)).some((s) => s.serverId === host.canonical)).toBe(false);
  });

  it('offers no seat of a Shared Web or Named User line and refuses to activate one (decision 031)', async () => {
    await ssl(CN, 'NAMED-50', { quantity: 50, licenseModel: 'Named User' });
    await ssl(CN, 'SHARED-50', { quantity: 50, licenseModel: 'Shared Web' });
    const host = newHostId();
    const { available } = await hostView(boss, host.canonical);
    expect(available.map((r) => r.activationid)).not.toContain('NAMED-50');
    expect(available.map((r) => r.activationid)).not.toContain('SHARED-50');
    for (const id of ['NAMED-50', 'SHARED-50']) {
      const res = await create(boss, {
        serverName: 'named',
        serverId: host.pasted,
        type: 'new',
        activations: [{ id, count: 1 }],
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().err).toBe(messages.activatedOverAvailable);
      expect(await activated(id)).toBe(0);
    }
  });

  it('refuses products whose maintenance has expired, and expired leases', async () => {
    const expired = await create(boss, {
      serverName: 'lic3',
      serverId: newHostId().pasted,
      activations: [{ id: 'PERP-OLD', count: 1 }],
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().err).toContain(messages.maintenanceExpired);
    const gone = await create(boss, {
      serverName: 'lic3',
      serverId: newHostId().pasted,
      activations: [{ id: 'GONE', count: 1 }],
    });
    expect(gone.statusCode).toBe(400);
    expect(gone.json().err).toBe(messages.entitlementExpired('GONE'));
    const unknown = await create(boss, {
      serverName: 'lic3',
      serverId: newHostId().pasted,
      activations: [{ id: 'OTHER-A', count: 1 }],
    });
    expect(unknown.statusCode).toBe(404);
    // The FSA manual drawdown product is never offered, so it cannot be activated either (spec 002 §4).
    const drawdown = await create(boss, {
      serverName: 'lic4',
      serverId: newHostId().pasted,
      activations: [{ id: 'DRAWDOWN', count: 1 }],
    });
    expect(drawdown.statusCode).toBe(404);
    expect(drawdown.json().err).toBe(messages.unknownActivation('DRAWDOWN'));
    expect(await activated('DRAWDOWN')).toBe(0);
  });

  it("says a new host's identifier is in use, with a rehost hint when the name differs", async () => {
    const host = newHostId();
    const before = await activated('LEASE-A');
    await create(boss, {
      serverName: 'first',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    const same = await create(boss, {
      serverName: 'first',
      serverId: host.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().err).toBe(`Host identifier first (${host.canonical}) is already in use.`);
    const renamed = await create(boss, {
      serverName: 'second',
      serverId: host.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    // The message names the host that holds the id (the user may see it), not the name typed.
    expect(renamed.json().err).toMatch(
      /^Host identifier first \([0-9a-f]{12}\) is already in use\. .*[Rr]ehost/,
    );
    // Another organisation typing the same id learns only that it is in use.
    const foreign = await post('/api/fulfillments/create', stranger, {
      customerNumber: STRANGER,
      serverName: 'theirs',
      serverId: host.canonical,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'STRANGER-A', count: 1 }],
    });
    expect(foreign.statusCode).toBe(409);
    expect(foreign.json().err).toBe(`Host identifier theirs (${host.canonical}) is already in use.`);
    expect(await activated('LEASE-A')).toBe(before + 1);
  });

  it('checks a rehost target as an added host: an id in use is refused, never merged (issue 21)', async () => {
    await ssl(CN, 'REHOST-A', { quantity: 4 });
    const held = newHostId();
    const source = newHostId();
    // The holder is active and shared with another account of the same user.
    await create(boss, {
      serverName: 'held',
      serverId: held.canonical,
      type: 'new',
      activations: [{ id: 'REHOST-A', count: 1 }],
    });
    const sister = await post('/api/fulfillments/create', boss, {
      customerNumber: SISTER,
      serverName: 'held',
      serverId: held.canonical,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'SISTER-A', count: 1 }],
    });
    expect(sister.statusCode).toBe(200);
    await create(boss, {
      serverName: 'src',
      serverId: source.canonical,
      type: 'new',
      activations: [{ id: 'REHOST-A', count: 2 }],
    });
    const [row] = (await hostView(boss, source.canonical)).assigned;
    // The returns name the target: one the create would refuse is refused before the source loses a seat.
    const returnFor = (serverName: string, serverId: string) =>
      post('/api/fulfillments/return', boss, {
        customerNumber: CN,
        lifecycle: 'rehost',
        rehostTarget: {
          serverName,
          serverId,
          serverIdType: 'ETHERNET',
          prevServer: { serverId: source.canonical, serverIdType: 'ETHERNET' },
        },
        activations: [{ id: row.fulfillments[0].FulfillmentID, count: -2 }],
      });
    const early = await returnFor('newname', held.canonical);
    expect(early.statusCode).toBe(409);
    expect(early.json().err).toMatch(/^Host identifier held \(/);
    expect((await returnFor('src', source.canonical)).json().err).toBe(
      `Host src (${source.canonical}) is active.`,
    );
    expect(await activated('REHOST-A')).toBe(3);
    // A free target passes; the create checks again in its own transaction.
    const returned = await returnFor('moved', newHostId().canonical);
    expect(returned.statusCode).toBe(200);
    const rehost = (serverName: string, serverId: string) =>
      create(boss, {
        serverName,
        serverId,
        type: 'rehost',
        prevServer: { serverId: source.canonical, serverIdType: 'ETHERNET' },
        activations: [{ id: 'REHOST-A', count: 2 }],
      });
    const renamed = await rehost('newname', held.canonical);
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().err).toMatch(
      new RegExp(`^Host identifier held \\(${held.canonical}\\) is already in use\\. .*[Rr]ehost`),
    );
    const sameName = await rehost('held', held.canonical);
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().err).toBe(`Host held (${held.canonical}) is active.`);
    // The source itself, though Inactive once its seats are returned, is no target either.
    const onto = await rehost('src', source.canonical);
    expect(onto.json().err).toBe(`Host src (${source.canonical}) is active.`);
    // Nothing moved: the holder keeps its one seat, no host of the new name exists, the seats stay returned.
    expect((await hostView(boss, held.canonical)).assigned.map((r) => r.ansysactivated)).toEqual([1]);
    expect((await servers(boss)).some((s) => s.name === 'newname')).toBe(false);
    expect(await activated('REHOST-A')).toBe(1);
    const fresh = newHostId();
    expect((await rehost('moved', fresh.canonical)).statusCode).toBe(200);
  });
});

describe('returning fulfillments and host lifecycle', () => {
  it('returns seats, turns an emptied host Inactive, then removes it', async () => {
    const host = newHostId();
    const before = await activated('LEASE-B');
    await create(boss, {
      serverName: 'old',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-B', count: 2 }],
    });
    const [row] = (await hostView(boss, host.canonical)).assigned;
    const id = row.fulfillments[0].FulfillmentID;
    const tooMany = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      activations: [{ id, count: -3 }],
    });
    expect(tooMany.statusCode).toBe(409);
    const removeActive = await post('/api/sharedserver/remove', boss, {
      customerNumber: CN,
      hostId: host.canonical,
      hostIdType: 'ETHERNET',
    });
    expect(removeActive.statusCode).toBe(409);
    expect(removeActive.json().err).toBe(`Host old (${host.canonical}) is active.`);
    const res = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      lifecycle: 'deactivate',
      activations: [{ id, count: -2 }],
    });
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { count: 2, replayed: false } });
    expect(await activated('LEASE-B')).toBe(before);
    expect((await servers(boss)).find((s) => s.serverId === host.canonical)?.state).toBe('Inactive');
    // Another account's fulfillment id is as unknown as a made-up one.
    const foreign = await post('/api/fulfillments/return', outsider, {
      customerNumber: OTHER,
      activations: [{ id, count: -1 }],
    });
    expect(foreign.statusCode).toBe(404);
    const removed = await post('/api/sharedserver/remove', boss, {
      customerNumber: CN,
      hostId: host.canonical,
      hostIdType: 'ETHERNET',
    });
    expect(removed.statusCode).toBe(200);
    expect((await servers(boss)).some((s) => s.serverId === host.canonical)).toBe(false);
  });
});

describe('shared license servers', () => {
  it('lets a user with several accounts share a host, shows only the accounts they may see', async () => {
    const host = newHostId();
    await create(boss, {
      serverName: 'shared1',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    const sister = await post('/api/fulfillments/create', boss, {
      customerNumber: SISTER,
      serverName: 'shared1',
      serverId: host.canonical,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'SISTER-A', count: 2 }],
    });
    expect(sister.statusCode).toBe(200);
    const group = await post('/api/sharedserver', boss, {
      customerNumber: CN,
      hostId: host.canonical,
      hostIdType: 'ETHERNET',
      group: [CN, SISTER],
    });
    expect(group.statusCode).toBe(200);
    const body = { customerNumber: CN, hostId: host.canonical, hostIdType: 'ETHERNET' };
    expect((await post('/api/fulfillments/customers', boss, body)).json().data).toEqual([
      { AccountID: CN, AccountName: 'Acme' },
      { AccountID: SISTER, AccountName: 'Acme Sister' },
    ]);
    expect((await post('/api/fulfillments/override', boss, body)).json().data).toEqual({
      shared: true,
      otherCustomers: 0,
    });
    // A reader of CN only sees CN and is told one other customer number shares the host.
    expect((await post('/api/fulfillments/customers', reader, body)).json().data).toEqual([
      { AccountID: CN, AccountName: 'Acme' },
    ]);
    const told = (await post('/api/fulfillments/override', reader, body)).json();
    expect(told.data).toEqual({ shared: true, otherCustomers: 1 });
    expect(JSON.stringify(told)).not.toContain(SISTER);
    // A group naming an account the user may not edit is refused whole.
    const foreign = await post('/api/sharedserver', boss, { ...body, group: [CN, STRANGER] });
    expect(foreign.statusCode).toBe(403);
    expect((await post('/api/sharedserver/deactivate', boss, body)).statusCode).toBe(200);
  });
});

describe('associated accounts and overlapping hosts', () => {
  it('shows an associated account only its available rows on a host it does not use yet, then lets it join', async () => {
    const host = newHostId();
    await create(boss, {
      serverName: 'join1',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    // Sister does not use the host: no assigned rows, its available ones (the same answer as for an unknown host).
    const view = await hostView(boss, host.canonical, SISTER);
    expect(view.assigned).toEqual([]);
    expect(view.available.map((r) => r.activationid)).toContain('SISTER-A');
    expect(await hostView(boss, newHostId().canonical, SISTER)).toEqual(view);
    // The call that lists a host's activations still answers 404 for a host the account does not use.
    const listed = await post('/api/fulfillments/entitlements', boss, {
      customerNumber: SISTER,
      serverId: host.canonical,
      serverIdType: 'ETHERNET',
    });
    expect(listed.statusCode).toBe(404);
    const joined = await post('/api/fulfillments/create', boss, {
      customerNumber: SISTER,
      serverName: 'join1',
      serverId: host.canonical,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'SISTER-A', count: 1 }],
    });
    expect(joined.statusCode).toBe(200);
    expect((await hostView(boss, host.canonical, SISTER)).assigned.map((r) => r.activationid)).toEqual([
      'SISTER-A',
    ]);
  });

  it('refuses a new host that takes in an id of a host in use (triad or single), and allows it once that host is inactive', async () => {
    const single = newHostId();
    await create(boss, {
      serverName: 'alone',
      serverId: single.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    const [a, b] = [newHostId(), newHostId()];
    const triad = await create(boss, {
      serverName: 't1,t2,t3',
      serverId: `${a.canonical},${single.canonical},${b.canonical}`,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(triad.statusCode).toBe(409);
    // Named by the host that holds the id, which the account uses.
    expect(triad.json().err).toBe(`Host identifier alone (${single.canonical}) is already in use.`);
    // Once the single host is returned whole (Inactive), its id may serve the triad.
    const [row] = (await hostView(boss, single.canonical)).assigned;
    const back = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      activations: row.fulfillments.map((f) => ({ id: f.FulfillmentID, count: -1 })),
    });
    expect(back.statusCode).toBe(200);
    const again = await create(boss, {
      serverName: 't1,t2,t3',
      serverId: `${a.canonical},${single.canonical},${b.canonical}`,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(again.statusCode).toBe(200);
    // And a single host may not take a member of that triad.
    const member = await create(boss, {
      serverName: 'member',
      serverId: b.canonical,
      type: 'new',
      activations: [{ id: 'LEASE-A', count: 1 }],
    });
    expect(member.json().err).toBe(`Host identifier t1 (${b.canonical}) is already in use.`);
  });
});

describe('concurrency and retries', () => {
  it('grants exactly the last 10 seats to 100 parallel creates from different users on different hosts', async () => {
    const users: Headers[] = [];
    for (let i = 0; i < 10; i++) {
      await addContact(database.db, CN, `admin${i}@acme.example`, contactRoles.admin);
      users.push((await signInAs(database.db, `admin${i}@acme.example`)).headers);
    }
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        create(users[i % 10], {
          serverName: `race${i}`,
          serverId: newHostId().pasted,
          type: 'new',
          activations: [{ id: 'LAST-SEATS', count: 1 }],
        }),
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

  it('a save cut off between its steps, retried from fresh server data, ends in exactly the intended state', async () => {
    // Intended change on one host: RETRY 3 -> 1 seat (return 2) and LEASE-B +1 seat.
    const host = newHostId();
    await create(boss, {
      serverName: 'resume',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'RETRY', count: 3 }],
    });
    const bBefore = await activated('LEASE-B');
    const fid = (await hostView(boss, host.canonical)).assigned[0].fulfillments[0].FulfillmentID;
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
    expect((await post('/api/fulfillments/return', boss, returnBatch)).statusCode).toBe(200);
    // The retry resends step 1 with its key: answered from the first outcome, nothing returned twice.
    const again = await post('/api/fulfillments/return', boss, returnBatch);
    expect(again.json()).toEqual({ status: 'SUCCESS', data: { count: 2, replayed: true } });
    // A step that fails inside its transaction leaves nothing behind and can be retried with the same key.
    const failing = await create(boss, {
      ...createBatch,
      activations: [...createBatch.activations, { id: 'GONE', count: 1 }],
    });
    expect(failing.statusCode).toBe(400);
    expect(await activated('LEASE-B')).toBe(bBefore);
    expect((await create(boss, createBatch)).json().data).toEqual({ count: 1, replayed: false });
    // A double click sends step 2 again.
    expect((await create(boss, createBatch)).json().data).toEqual({ count: 1, replayed: true });
    const view = await hostView(boss, host.canonical);
    expect(view.assigned.map((r) => [r.activationid, r.ansysactivated]).sort()).toEqual([
      ['LEASE-B', 1],
      ['RETRY', 1],
    ]);
    expect(await activated('RETRY')).toBe(1);
    expect(await activated('LEASE-B')).toBe(bBefore + 1);
    // A key reused for another operation is refused rather than silently replayed.
    const misuse = await post('/api/fulfillments/return', boss, {
      ...returnBatch,
      operationKey: 'save-0001-create',
    });
    expect(misuse.statusCode).toBe(409);
    // So is the same key with another request (other seats): answering the first outcome would do nothing.
    const changed = await create(boss, { ...createBatch, activations: [{ id: 'LEASE-A', count: 1 }] });
    expect(changed.statusCode).toBe(409);
    expect(await activated('LEASE-B')).toBe(bBefore + 1);
  });

  it("a retry that differs only in fields the server never reads (the client's time, action, name) is replayed", async () => {
    const host = newHostId();
    const first = {
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
    expect((await create(boss, first)).json().data).toEqual({ count: 1, replayed: false });
    // The browser's retry a moment later carries its clock again (the wire is unchanged; it need not freeze it).
    const retry = await create(boss, {
      ...first,
      time: Date.now(),
      action: '',
      customerName: 'Acme Corp',
      activations: [{ id: 'LEASE-B', count: 1 }],
    });
    expect(retry.json()).toEqual({ status: 'SUCCESS', data: { count: 1, replayed: true } });
    expect(await activated('LEASE-B')).toBe(before + 1);
    const fid = (await hostView(boss, host.canonical)).assigned[0].fulfillments[0].FulfillmentID;
    const giveBack = {
      customerNumber: CN,
      operationKey: 'clock-0001-return',
      activations: [{ id: fid, count: -1 }],
    };
    expect((await post('/api/fulfillments/return', boss, { ...giveBack, time: 1 })).statusCode).toBe(200);
    const returnedAgain = await post('/api/fulfillments/return', boss, {
      ...giveBack,
      time: 2,
      action: 'return',
    });
    expect(returnedAgain.json().data).toEqual({ count: 1, replayed: true });
    expect(await activated('LEASE-B')).toBe(before);
  });

  it('returns and creates on one host at once leave its state true to its seats, so removal never loses seats', async () => {
    // A lease of its own with seats to spare, so the create succeeds whichever of the two runs first.
    await ssl(CN, 'LEASE-BUSY');
    const host = newHostId();
    await create(boss, {
      serverName: 'busy',
      serverId: host.pasted,
      type: 'new',
      activations: [{ id: 'LEASE-BUSY', count: 1 }],
    });
    const before = await activated('LEASE-BUSY');
    for (let round = 0; round < 5; round++) {
      const fid = (await hostView(boss, host.canonical)).assigned[0].fulfillments[0].FulfillmentID;
      const [returned, created] = await Promise.all([
        post('/api/fulfillments/return', boss, { customerNumber: CN, activations: [{ id: fid, count: -1 }] }),
        create(boss, {
          serverName: 'busy',
          serverId: host.canonical,
          activations: [{ id: 'LEASE-BUSY', count: 1 }],
        }),
      ]);
      expect([returned.statusCode, created.statusCode]).toEqual([200, 200]);
      const [row] = (await servers(boss)).filter((h) => h.serverId === host.canonical);
      // One seat is live whichever ran first: the host must say Active.
      expect(row.state).toBe('Active');
      const removed = await post('/api/sharedserver/remove', boss, {
        customerNumber: CN,
        hostId: host.canonical,
        hostIdType: 'ETHERNET',
      });
      expect(removed.statusCode).toBe(409);
    }
    expect(await activated('LEASE-BUSY')).toBe(before);
  });
});
