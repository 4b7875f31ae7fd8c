import { activationsApi } from '@lp/contract/activations/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { describe, expect } from 'vitest';
import { buildLease, buildProduct } from '../../../harness/factories.ts';
import { activationCalls } from '../../../test/activation-calls.ts';
import { acme, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { fulfillmentEvents } from '../../db/schema.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;

const HOST = 'a10000000001';
const SECOND = 'a10000000002';

/** The history call's body for these ETHERNET hosts of the account. */
const hostsBody = (hostIds: string[]) => ({
  customerNumber: CN,
  hostIds: hostIds.map((hostId) => ({ hostId, hostIdType: 'ETHERNET' })),
});

const test = apiTest
  /** The admin's calls on the account's hosts, and the history of hosts as anyone asks for it. */
  .extend('calls', { scope: 'file' }, async ({ api, cast: { boss } }) => {
    const calls = activationCalls(api, boss, CN);
    return {
      ...calls,
      create: (serverId: string, activations: { id: string; count: number }[], type: 'new' | '' = 'new') =>
        calls.create({ serverName: `h${serverId.slice(-2)}`, serverId, type, activations }),
      hostOf: async (serverId: string) => (await calls.servers()).find((s) => s.serverId === serverId),
      /** The live fulfillments on a host, in the order the host lists them. */
      liveFulfillments: async (serverId: string) =>
        Object.entries(await calls.live(serverId)).map(([activationId, f]) => ({ activationId, ...f })),
      history: (
        who: Caller,
        hostIds: string[],
        operation:
          | typeof activationsApi.history
          | typeof activationsApi.exportHistory = activationsApi.history,
      ) => api.ok(who, operation, hostsBody(hostIds)),
    };
  });

// The cast comes first: its accounts own the leases.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await buildProduct(database.db, 'HI-SOLVER', {
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'solver',
  });
  await buildProduct(database.db, 'HI-MESH', {
    name: 'Mesher',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'mesher',
  });
  await buildLease(database.db, CN, 'HI-S1', { partNumber: 'HI-SOLVER' });
  await buildLease(database.db, CN, 'HI-M1', { partNumber: 'HI-MESH' });
  await buildLease(database.db, OTHER, 'HI-O1', { partNumber: 'HI-SOLVER' });
});

describe('activation history rows (spec 002 §4 grouping, decision 032)', () => {
  test('groups events within 30 s of a group’s first, sums each activation, newest group first', async ({
    database,
    cast: { boss },
    calls: { create, hostOf, liveFulfillments, history },
  }) => {
    await create(HOST, [
      { id: 'HI-S1', count: 3 },
      { id: 'HI-M1', count: 1 },
    ]);
    const host = await hostOf(HOST);
    const [mesh, solver] = (await liveFulfillments(HOST)).sort((a, b) =>
      a.activationId.localeCompare(b.activationId),
    );
    // Older events recorded by earlier saves and by the system (no person): 0 s, +20 s, +50 s.
    const t0 = Date.parse('2025-02-03T04:05:06Z');
    const at = (s: number) => new Date(t0 + s * 1000);
    const event = { serverId: host!.id, customerNumber: CN };
    await database.db.insert(fulfillmentEvents).values([
      { ...event, fulfillmentId: solver!.id, time: at(0), modifiedBy: '', action: 'ACTIVATE', count: 5 },
      {
        ...event,
        fulfillmentId: solver!.id,
        time: at(20),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -2,
      },
      {
        ...event,
        fulfillmentId: mesh!.id,
        time: at(20),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -1,
      },
      {
        ...event,
        fulfillmentId: solver!.id,
        time: at(50),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -3,
      },
    ]);
    const answer = await history(boss, [HOST]);
    const [entry] = answer.data;
    expect(entry).toMatchObject({ hostId: HOST, hostIdType: 'ETHERNET' });
    expect(
      entry!.rows.map((r) => [r.groupId, r.time.slice(0, 10), r.product, r.action, r.count, r.modifiedBy]),
    ).toEqual([
      [3, new Date().toISOString().slice(0, 10), 'Mesher', 'ACTIVATE (1)', 1, 'boss@acme.example'],
      [3, new Date().toISOString().slice(0, 10), 'Solver', 'ACTIVATE (3)', 3, 'boss@acme.example'],
      [2, '2025-02-03', 'Solver', 'DEACTIVATE (3)', -3, 'ann@acme.example'],
      [1, '2025-02-03', 'Mesher', 'DEACTIVATE (1)', -1, 'ann@acme.example'],
      [1, '2025-02-03', 'Solver', 'ACTIVATE (3)', 3, 'ann@acme.example'],
    ]);
    expect(entry!.rows.slice(2).map((r) => r.time)).toEqual([
      '2025-02-03 04:05:56',
      '2025-02-03 04:05:06',
      '2025-02-03 04:05:06',
    ]);
    expect(entry!.rows[4]).toMatchObject({
      customerNumber: CN,
      activationId: 'HI-S1',
      endDate: expect.any(String),
    });
    // The CSV export serves the same rows.
    expect(await history(boss, [HOST], activationsApi.exportHistory)).toEqual(answer);
  });

  test('serves several hosts in one call, leaves out hosts the account does not use, and lets viewers read', async ({
    api,
    cast: { boss, reader, outsider },
    calls: { create, history },
  }) => {
    await create(SECOND, [{ id: 'HI-S1', count: 1 }]);
    const { data } = await history(reader, [SECOND, 'f00000000009', HOST]);
    expect(data.map((h) => [h.hostId, h.rows.length])).toEqual([
      [SECOND, 1],
      [HOST, 5],
    ]);
    const foreign = await api.refused(outsider, activationsApi.history, hostsBody([HOST]), 403);
    expect(JSON.stringify(foreign)).not.toContain('Solver');
    await api.refused(boss, activationsApi.history, hostsBody(['not-a-mac']), 400);
  });
});

describe('what a history row names (decision 049)', () => {
  test('a triad by its three servers, a perpetual by its maintenance end', async ({
    api,
    database,
    cast: { boss },
  }) => {
    await buildLease(database.db, CN, 'HI-PERP', {
      partNumber: 'HI-SOLVER',
      endDate: null,
      versionDate: '2099-01-31',
    });
    const ids = ['a10000000011', 'a10000000012', 'a10000000013'];
    await api.ok(boss, activationsApi.create, {
      customerNumber: CN,
      serverName: 'tri1,tri2,tri3',
      serverId: ids.join(','),
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      type: 'new',
      activations: [{ id: 'HI-PERP', count: 1 }],
    });
    const servers = await api.ok(boss, licenseServersApi.list, { customerNumber: CN });
    const triad = servers.data.find((s) => s.serverId === ids.join(','));
    expect(triad?.displayName).toBe(
      `tri1 (MAC_ADDRESS=${ids[0]}), tri2 (MAC_ADDRESS=${ids[1]}), tri3 (MAC_ADDRESS=${ids[2]})`,
    );
    const rows = await api.ok(boss, activationsApi.history, {
      customerNumber: CN,
      hostIds: [{ hostId: ids.join(','), hostIdType: 'ETHERNET,ETHERNET,ETHERNET' }],
    });
    expect(rows.data[0]!.rows).toMatchObject([
      { activationId: 'HI-PERP', endDate: null, versionDate: '2099-01-31' },
    ]);
  });
});

describe('host state follows its live seats (spec 002 §4 host lifecycle)', () => {
  test('a rehost that returns every live fulfillment leaves the source Inactive, and it may then be removed', async ({
    api,
    cast: { boss },
    calls: { create, giveBack, hostOf, liveFulfillments },
  }) => {
    const source = 'a10000000003';
    const hostBody = { customerNumber: CN, hostId: source, hostIdType: 'ETHERNET' };
    await create(source, [
      { id: 'HI-S1', count: 1 },
      { id: 'HI-M1', count: 2 },
    ]);
    expect((await hostOf(source))?.state).toBe('Active');
    const live = await liveFulfillments(source);
    const refused = await api.refused(boss, licenseServersApi.remove, hostBody, 409);
    expect(refused.err).toBe(`Host h03 (${source}) is active.`);
    // Returning part of it keeps it Active; the rest (the rehost) makes it Inactive.
    await giveBack({ lifecycle: 'rehost', activations: [{ id: live[0]!.id, count: -live[0]!.count }] });
    expect((await hostOf(source))?.state).toBe('Active');
    await giveBack({ lifecycle: 'rehost', activations: [{ id: live[1]!.id, count: -live[1]!.count }] });
    expect((await hostOf(source))?.state).toBe('Inactive');
    // Activating again makes it Active; deactivating all makes it Inactive again.
    await create(source, [{ id: 'HI-S1', count: 1 }], '');
    expect((await hostOf(source))?.state).toBe('Active');
    const [again] = await liveFulfillments(source);
    await giveBack({ lifecycle: 'deactivate', activations: [{ id: again!.id, count: -1 }] });
    expect((await hostOf(source))?.state).toBe('Inactive');
    await api.ok(boss, licenseServersApi.remove, hostBody);
    expect(await hostOf(source)).toBeUndefined();
  });
});
