import { asc, gt, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { auditEntries, products } from '../../db/schema.ts';

/*
 * Issue 13 §1: fulfillments created, returned and rehosted are audited, one entry per fulfillment with its seats
 * before and after, by the user with the request; a refused batch, or one replayed by its operation key, writes none.
 */

const CN = '4320001';
const OTHER = '4320002';
const PART = 'SIM-AUDIT-2';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let bossId: string;

const post = (url: string, headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

let hostSeq = 0;
const newHostId = () => (0xa00000 + ++hostSeq).toString(16).padStart(12, '0');

const create = (body: Record<string, unknown>) =>
  post('/api/fulfillments/create', boss, { customerNumber: CN, serverIdType: 'ETHERNET', ...body });
const giveBack = (body: Record<string, unknown>) =>
  post('/api/fulfillments/return', boss, { customerNumber: CN, ...body });

/** The entries written after `from` (the highest id before the call), oldest first. */
const since = (from: number) =>
  database.db.select().from(auditEntries).where(gt(auditEntries.id, from)).orderBy(asc(auditEntries.id));
const mark = async () =>
  (await database.db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0;
const fulfillmentEntries = async (from: number) =>
  (await since(from)).filter((e) => e.objectType === 'fulfillment');

/** The host's fulfillment ids by activation id. */
async function fulfillmentsOn(hostId: string) {
  const res = await post('/api/fulfillments/allentitlements', boss, {
    customerNumber: CN,
    serverId: hostId,
    serverIdType: 'ETHERNET',
  });
  const rows = res.json().data.assigned as {
    activationid: string;
    fulfillments: { FulfillmentID: number }[];
  }[];
  return Object.fromEntries(rows.map((r) => [r.activationid, r.fulfillments[0].FulfillmentID]));
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
  ({ boss } = await buildAccountFixture(database.db, CN, OTHER));
  bossId = (await signInAs(database.db, 'boss@acme.example')).userId;
  for (const id of ['FUL-A', 'FUL-B'])
    await buildLease(database.db, CN, id, { partNumber: PART, quantity: 20 });
  await buildLease(database.db, CN, 'FUL-GONE', { partNumber: PART, startDate: day(-400), endDate: day(-1) });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('fulfillments audit', () => {
  it('a create batch is one entry per fulfillment: activation id, host and seats, by the user', async () => {
    const hostId = newHostId();
    const from = await mark();
    const res = await create({
      serverName: 'ful1',
      serverId: hostId,
      type: 'new',
      // FUL-A twice: one fulfillment, one entry.
      activations: [
        { id: 'FUL-A', count: 1 },
        { id: 'FUL-B', count: 2 },
        { id: 'FUL-A', count: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const ids = await fulfillmentsOn(hostId);
    const entries = await fulfillmentEntries(from);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorId: bossId,
      actorName: 'boss@acme.example',
      action: 'fulfillments.created',
      objectType: 'fulfillment',
      objectId: String(ids['FUL-A']),
      before: null,
      after: { activationId: 'FUL-A', host: hostId, count: 3 },
      clientIp: '127.0.0.1',
    });
    expect(entries[0].requestId).toBeTruthy();
    expect(entries[1]).toMatchObject({
      objectId: String(ids['FUL-B']),
      after: { activationId: 'FUL-B', host: hostId, count: 2 },
    });
    // More seats on a live fulfillment: its seats before and after.
    const more = await mark();
    await create({ serverName: 'ful1', serverId: hostId, activations: [{ id: 'FUL-B', count: 1 }] });
    expect(await fulfillmentEntries(more)).toMatchObject([
      { objectId: String(ids['FUL-B']), before: { count: 2 }, after: { count: 3 } },
    ]);
  });

  it('a refused create batch (one line expired) writes nothing, not even its host', async () => {
    const from = await mark();
    const res = await create({
      serverName: 'ful2',
      serverId: newHostId(),
      type: 'new',
      activations: [
        { id: 'FUL-A', count: 1 },
        { id: 'FUL-GONE', count: 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(await since(from)).toEqual([]);
  });

  it('a return batch is one entry per fulfillment with its seats before and after; a refused one writes nothing', async () => {
    const hostId = newHostId();
    await create({
      serverName: 'ful3',
      serverId: hostId,
      activations: [
        { id: 'FUL-A', count: 3 },
        { id: 'FUL-B', count: 1 },
      ],
    });
    const ids = await fulfillmentsOn(hostId);
    let from = await mark();
    const refused = await giveBack({
      activations: [
        { id: ids['FUL-A'], count: -1 },
        { id: ids['FUL-B'], count: -2 },
      ],
    });
    expect(refused.statusCode).toBe(409);
    expect(await since(from)).toEqual([]);
    from = await mark();
    const res = await giveBack({
      activations: [
        { id: ids['FUL-A'], count: -1 },
        { id: ids['FUL-B'], count: -1 },
        { id: ids['FUL-A'], count: -1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    const entries = await fulfillmentEntries(from);
    expect(entries.map((e) => [e.action, e.objectId, e.before, e.after])).toEqual([
      ['fulfillments.returned', String(ids['FUL-A']), { count: 3 }, { count: 1 }],
      ['fulfillments.returned', String(ids['FUL-B']), { count: 1 }, { count: 0 }],
    ]);
    expect(entries.every((e) => e.customerNumber === CN && e.actorName === 'boss@acme.example')).toBe(true);
  });

  it('a rehost: returns from the source, then one rehosted entry per fulfillment naming both hosts; replays write nothing', async () => {
    const source = newHostId();
    const target = newHostId();
    await create({ serverName: 'src', serverId: source, activations: [{ id: 'FUL-A', count: 2 }] });
    const { 'FUL-A': sourceId } = await fulfillmentsOn(source);
    const back = {
      lifecycle: 'rehost',
      operationKey: 'audit-rehost-return',
      activations: [{ id: sourceId, count: -2 }],
    };
    const move = {
      serverName: 'dst',
      serverId: target,
      type: 'rehost',
      prevServer: { serverId: source, serverIdType: 'ETHERNET' },
      operationKey: 'audit-rehost-create',
      activations: [{ id: 'FUL-A', count: 2 }],
    };
    let from = await mark();
    expect((await giveBack(back)).statusCode).toBe(200);
    expect((await create(move)).statusCode).toBe(200);
    const { 'FUL-A': targetId } = await fulfillmentsOn(target);
    expect((await since(from)).map((e) => [e.action, e.objectType, e.objectId, e.before, e.after])).toEqual([
      ['fulfillments.returned', 'fulfillment', String(sourceId), { count: 2 }, { count: 0 }],
      ['license-servers.deactivated', 'license-server', source, { state: 'Active' }, { state: 'Inactive' }],
      [
        'license-servers.added',
        'license-server',
        target,
        null,
        { name: 'dst', serverNames: 'dst', port: 1055, borrowable: false },
      ],
      [
        'fulfillments.rehosted',
        'fulfillment',
        String(targetId),
        { host: source },
        { activationId: 'FUL-A', host: target, count: 2 },
      ],
    ]);
    // The browser resends both steps with their keys: answered from the first outcome, nothing recorded twice.
    from = await mark();
    expect((await giveBack(back)).json().data.replayed).toBe(true);
    expect((await create(move)).json().data.replayed).toBe(true);
    expect(await since(from)).toEqual([]);
  });
});
