import type { HistoryRow } from '@lp/contract/activations/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLease } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { fulfillmentEvents, products } from '../../db/schema.ts';

const CN = '4500001';
const OTHER = '4500002';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let outsider: Headers;

const post = (url: string, headers: Headers | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

const HOST = 'a10000000001';
const SECOND = 'a10000000002';

async function create(serverId: string, activations: { id: string; count: number }[], type = 'new') {
  const res = await post('/api/fulfillments/create', boss, {
    customerNumber: CN,
    serverName: `h${serverId.slice(-2)}`,
    serverId,
    serverIdType: 'ETHERNET',
    type,
    activations,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function hostOf(serverId: string) {
  const res = await post('/api/fulfillments/servers', boss, { customerNumber: CN });
  return (res.json().data as { id: number; serverId: string; state: string }[]).find(
    (s) => s.serverId === serverId,
  );
}

async function liveFulfillments(serverId: string) {
  const res = await post('/api/fulfillments/entitlements', boss, {
    customerNumber: CN,
    serverId,
    serverIdType: 'ETHERNET',
  });
  expect(res.statusCode, res.body).toBe(200);
  return (
    res.json().data as {
      activationid: string;
      fulfillments: { FulfillmentID: number; FulfillCount: number }[];
    }[]
  ).map((r) => ({
    activationId: r.activationid,
    id: r.fulfillments[0].FulfillmentID,
    count: r.fulfillments[0].FulfillCount,
  }));
}

const history = (headers: Headers, hostIds: string[], url = '/api/fulfillments/history') =>
  post(url, headers, {
    customerNumber: CN,
    hostIds: hostIds.map((hostId) => ({ hostId, hostIdType: 'ETHERNET' })),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values([
    { partNumber: 'HI-SOLVER', name: 'Solver', family: 'Fluids', daemon: 'cfdlmd', featureName: 'solver' },
    { partNumber: 'HI-MESH', name: 'Mesher', family: 'Fluids', daemon: 'cfdlmd', featureName: 'mesher' },
  ]);
  ({ boss, reader, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  await buildLease(database.db, CN, 'HI-S1', { partNumber: 'HI-SOLVER' });
  await buildLease(database.db, CN, 'HI-M1', { partNumber: 'HI-MESH' });
  await buildLease(database.db, OTHER, 'HI-O1', { partNumber: 'HI-SOLVER' });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('activation history rows (spec 002 §4 grouping, decision 032)', () => {
  it('groups events within 30 s of a group’s first, sums each activation, newest group first', async () => {
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
    await database.db.insert(fulfillmentEvents).values([
      {
        fulfillmentId: solver.id,
        serverId: host!.id,
        customerNumber: CN,
        time: at(0),
        modifiedBy: '',
        action: 'ACTIVATE',
        count: 5,
      },
      {
        fulfillmentId: solver.id,
        serverId: host!.id,
        customerNumber: CN,
        time: at(20),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -2,
      },
      {
        fulfillmentId: mesh.id,
        serverId: host!.id,
        customerNumber: CN,
        time: at(20),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -1,
      },
      {
        fulfillmentId: solver.id,
        serverId: host!.id,
        customerNumber: CN,
        time: at(50),
        modifiedBy: 'ann@acme.example',
        action: 'RETURN',
        count: -3,
      },
    ]);
    const res = await history(boss, [HOST]);
    expect(res.statusCode, res.body).toBe(200);
    const [entry] = res.json().data;
    expect(entry).toMatchObject({ hostId: HOST, hostIdType: 'ETHERNET' });
    expect(
      (entry.rows as HistoryRow[]).map((r) => [
        r.groupId,
        r.time.slice(0, 10),
        r.product,
        r.action,
        r.count,
        r.modifiedBy,
      ]),
    ).toEqual([
      [3, new Date().toISOString().slice(0, 10), 'Mesher', 'ACTIVATE (1)', 1, 'boss@acme.example'],
      [3, new Date().toISOString().slice(0, 10), 'Solver', 'ACTIVATE (3)', 3, 'boss@acme.example'],
      [2, '2025-02-03', 'Solver', 'DEACTIVATE (3)', -3, 'ann@acme.example'],
      [1, '2025-02-03', 'Mesher', 'DEACTIVATE (1)', -1, 'ann@acme.example'],
      [1, '2025-02-03', 'Solver', 'ACTIVATE (3)', 3, 'ann@acme.example'],
    ]);
    expect(entry.rows.slice(2).map((r: { time: string }) => r.time)).toEqual([
      '2025-02-03 04:05:56',
      '2025-02-03 04:05:06',
      '2025-02-03 04:05:06',
    ]);
    expect(entry.rows[4]).toMatchObject({
      customerNumber: CN,
      activationId: 'HI-S1',
      endDate: expect.any(String),
    });
    // The CSV export serves the same rows.
    expect((await history(boss, [HOST], '/api/fulfillments/servers/export')).json()).toEqual(res.json());
  });

  it('serves several hosts in one call, leaves out hosts the account does not use, and lets viewers read', async () => {
    await create(SECOND, [{ id: 'HI-S1', count: 1 }]);
    const res = await history(reader, [SECOND, 'f00000000009', HOST]);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res.json().data.map((h: { hostId: string; rows: unknown[] }) => [h.hostId, h.rows.length]),
    ).toEqual([
      [SECOND, 1],
      [HOST, 5],
    ]);
    const foreign = await history(outsider, [HOST]);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('Solver');
    const bad = await history(boss, ['not-a-mac']);
    expect(bad.statusCode).toBe(400);
  });
});

describe('what a history row names (decision 049)', () => {
  it('a triad by its three servers, a perpetual by its maintenance end', async () => {
    await buildLease(database.db, CN, 'HI-PERP', {
      partNumber: 'HI-SOLVER',
      endDate: null,
      versionDate: '2099-01-31',
    });
    const ids = ['a10000000011', 'a10000000012', 'a10000000013'];
    const res = await post('/api/fulfillments/create', boss, {
      customerNumber: CN,
      serverName: 'tri1,tri2,tri3',
      serverId: ids.join(','),
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      type: 'new',
      activations: [{ id: 'HI-PERP', count: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const servers = await post('/api/fulfillments/servers', boss, { customerNumber: CN });
    const triad = (servers.json().data as { serverId: string; displayName: string }[]).find(
      (s) => s.serverId === ids.join(','),
    );
    expect(triad?.displayName).toBe(
      `tri1 (MAC_ADDRESS=${ids[0]}), tri2 (MAC_ADDRESS=${ids[1]}), tri3 (MAC_ADDRESS=${ids[2]})`,
    );
    const rows = await post('/api/fulfillments/history', boss, {
      customerNumber: CN,
      hostIds: [{ hostId: ids.join(','), hostIdType: 'ETHERNET,ETHERNET,ETHERNET' }],
    });
    expect(rows.statusCode, rows.body).toBe(200);
    expect(rows.json().data[0].rows).toMatchObject([
      { activationId: 'HI-PERP', endDate: null, versionDate: '2099-01-31' },
    ]);
  });
});

describe('host state follows its live seats (spec 002 §4 host lifecycle)', () => {
  it('a rehost that returns every live fulfillment leaves the source Inactive, and it may then be removed', async () => {
    const source = 'a10000000003';
    await create(source, [
      { id: 'HI-S1', count: 1 },
      { id: 'HI-M1', count: 2 },
    ]);
    expect((await hostOf(source))?.state).toBe('Active');
    const live = await liveFulfillments(source);
    const refused = await post('/api/sharedserver/remove', boss, {
      customerNumber: CN,
      hostId: source,
      hostIdType: 'ETHERNET',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().err).toBe(`Host h03 (${source}) is active.`);
    // Returning part of it keeps it Active; the rest (the rehost) makes it Inactive.
    const partial = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      lifecycle: 'rehost',
      activations: [{ id: live[0].id, count: -live[0].count }],
    });
    expect(partial.statusCode, partial.body).toBe(200);
    expect((await hostOf(source))?.state).toBe('Active');
    const rest = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      lifecycle: 'rehost',
      activations: [{ id: live[1].id, count: -live[1].count }],
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await hostOf(source))?.state).toBe('Inactive');
    // Activating again makes it Active; deactivating all makes it Inactive again.
    await create(source, [{ id: 'HI-S1', count: 1 }], '');
    expect((await hostOf(source))?.state).toBe('Active');
    const [again] = await liveFulfillments(source);
    const off = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      lifecycle: 'deactivate',
      activations: [{ id: again.id, count: -1 }],
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await hostOf(source))?.state).toBe('Inactive');
    const removed = await post('/api/sharedserver/remove', boss, {
      customerNumber: CN,
      hostId: source,
      hostIdType: 'ETHERNET',
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await hostOf(source)).toBeUndefined();
  });
});
