import { activationsApi } from '@lp/contract/activations/api';
import { describe, expect } from 'vitest';
import { buildLease, buildProduct, dayFromToday as day } from '../../../harness/factories.ts';
import { activationCalls, type CreateBody, type ReturnBody } from '../../../test/activation-calls.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';

/*
 * Issue 13 §1: fulfillments created, returned and rehosted are audited, one entry per fulfillment with its seats
 * before and after, by the user with the request; a refused batch, or one replayed by its operation key, writes none.
 */

const CN = acme.customerNumber;
const PART = 'SIM-AUDIT-2';

let hostSeq = 0;
const newHostId = () => (0xa00000 + ++hostSeq).toString(16).padStart(12, '0');

const test = apiTest
  .extend('audit', { scope: 'file' }, async ({ database }) => {
    const log = auditLog(database.db);
    return {
      ...log,
      fulfillmentEntries: async (from: number) =>
        (await log.since(from)).filter((e) => e.objectType === 'fulfillment'),
    };
  })
  /** The admin's batches on the account's hosts. */
  .extend('calls', { scope: 'file' }, async ({ api, cast: { boss } }) => activationCalls(api, boss, CN));

// The cast comes first: its account owns the leases.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await buildProduct(database.db, PART, { name: 'Solver', featureName: 'solver' });
  for (const id of ['FUL-A', 'FUL-B'])
    await buildLease(database.db, CN, id, { partNumber: PART, quantity: 20 });
  await buildLease(database.db, CN, 'FUL-GONE', { partNumber: PART, startDate: day(-400), endDate: day(-1) });
});

describe('fulfillments audit', () => {
  test('a create batch is one entry per fulfillment: activation id, host and seats, by the user', async ({
    audit,
    calls: { create, live },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    const from = await audit.mark();
    await create({
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
    const ids = await live(hostId);
    const entries = await audit.fulfillmentEntries(from);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorId: boss.userId,
      actorName: 'boss@acme.example',
      action: 'fulfillments.created',
      objectType: 'fulfillment',
      objectId: String(ids['FUL-A']!.id),
      before: null,
      after: { activationId: 'FUL-A', host: hostId, count: 3 },
      clientIp: '127.0.0.1',
    });
    expect(entries[0]!.requestId).toBeTruthy();
    expect(entries[1]).toMatchObject({
      objectId: String(ids['FUL-B']!.id),
      after: { activationId: 'FUL-B', host: hostId, count: 2 },
    });
    // More seats on a live fulfillment: its seats before and after.
    const more = await audit.mark();
    await create({ serverName: 'ful1', serverId: hostId, activations: [{ id: 'FUL-B', count: 1 }] });
    expect(await audit.fulfillmentEntries(more)).toMatchObject([
      { objectId: String(ids['FUL-B']!.id), before: { count: 2 }, after: { count: 3 } },
    ]);
  });

  test('a refused create batch (one line expired) writes nothing, not even its host', async ({
    api,
    audit,
    cast: { boss },
  }) => {
    const from = await audit.mark();
    await api.refused(
      boss,
      activationsApi.create,
      {
        customerNumber: CN,
        serverIdType: 'ETHERNET',
        serverName: 'ful2',
        serverId: newHostId(),
        type: 'new',
        activations: [
          { id: 'FUL-A', count: 1 },
          { id: 'FUL-GONE', count: 1 },
        ],
      },
      400,
    );
    expect(await audit.since(from)).toEqual([]);
  });

  test('a return batch is one entry per fulfillment with its seats before and after; a refused one writes nothing', async ({
    api,
    audit,
    calls: { create, giveBack, live },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    await create({
      serverName: 'ful3',
      serverId: hostId,
      activations: [
        { id: 'FUL-A', count: 3 },
        { id: 'FUL-B', count: 1 },
      ],
    });
    const ids = await live(hostId);
    let from = await audit.mark();
    await api.refused(
      boss,
      activationsApi.return,
      {
        customerNumber: CN,
        activations: [
          { id: ids['FUL-A']!.id, count: -1 },
          { id: ids['FUL-B']!.id, count: -2 },
        ],
      },
      409,
    );
    expect(await audit.since(from)).toEqual([]);
    from = await audit.mark();
    await giveBack({
      activations: [
        { id: ids['FUL-A']!.id, count: -1 },
        { id: ids['FUL-B']!.id, count: -1 },
        { id: ids['FUL-A']!.id, count: -1 },
      ],
    });
    const entries = await audit.fulfillmentEntries(from);
    expect(entries.map((e) => [e.action, e.objectId, e.before, e.after])).toEqual([
      ['fulfillments.returned', String(ids['FUL-A']!.id), { count: 3 }, { count: 1 }],
      ['fulfillments.returned', String(ids['FUL-B']!.id), { count: 1 }, { count: 0 }],
    ]);
    expect(entries.every((e) => e.customerNumber === CN && e.actorName === 'boss@acme.example')).toBe(true);
  });

  test('a rehost: returns from the source, then one rehosted entry per fulfillment naming both hosts; replays write nothing', async ({
    audit,
    calls: { create, giveBack, live },
  }) => {
    const source = newHostId();
    const target = newHostId();
    await create({ serverName: 'src', serverId: source, activations: [{ id: 'FUL-A', count: 2 }] });
    const sourceId = (await live(source))['FUL-A']!.id;
    const back: ReturnBody = {
      lifecycle: 'rehost',
      operationKey: 'audit-rehost-return',
      activations: [{ id: sourceId, count: -2 }],
    };
    const move: CreateBody = {
      serverName: 'dst',
      serverId: target,
      type: 'rehost',
      prevServer: { serverId: source, serverIdType: 'ETHERNET' },
      operationKey: 'audit-rehost-create',
      activations: [{ id: 'FUL-A', count: 2 }],
    };
    let from = await audit.mark();
    await giveBack(back);
    await create(move);
    const targetId = (await live(target))['FUL-A']!.id;
    expect(
      (await audit.since(from)).map((e) => [e.action, e.objectType, e.objectId, e.before, e.after]),
    ).toEqual([
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
    from = await audit.mark();
    expect((await giveBack(back)).data.replayed).toBe(true);
    expect((await create(move)).data.replayed).toBe(true);
    expect(await audit.since(from)).toEqual([]);
  });
});
