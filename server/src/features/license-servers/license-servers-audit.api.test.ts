import { activationsApi } from '@lp/contract/activations/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { contactRoles } from '@lp/domain/policy';
import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildLease, buildProduct } from '../../../harness/factories.ts';
import { activationCalls } from '../../../test/activation-calls.ts';
import { acme, apiTest } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';
import { portalContacts } from '../../db/schema.ts';
import { verifyAudit } from '../audit/service.ts';

/*
 * Issue 13 §1: hosts added, changed, activated and deactivated, removed or deleted, and shared-server group
 * changes are audited, one entry per host and account, by the user with the request; a refused write writes none.
 */

const CN = acme.customerNumber;
const SISTER = '4310003';
const STRANGER = '4310004';
const PART = 'SIM-AUDIT-1';

let hostSeq = 0;
const newHostId = () => (++hostSeq).toString(16).padStart(12, '0');

const hostBody = (hostId: string, customerNumber: string = CN) => ({
  customerNumber,
  hostId,
  hostIdType: 'ETHERNET',
});

const test = apiTest
  .extend('audit', { scope: 'file' }, async ({ database }) => {
    const log = auditLog(database.db);
    return {
      ...log,
      hostEntries: async (from: number) =>
        (await log.since(from)).filter((e) => e.objectType === 'license-server'),
    };
  })
  /** The admin's calls on the account's (or Sister's) hosts. */
  .extend('calls', { scope: 'file' }, async ({ api, cast: { boss } }) => {
    const calls = activationCalls(api, boss, CN);
    return {
      ...calls,
      /** The first fulfillment on a host of the account. */
      fulfillmentOf: async (hostId: string, customerNumber: string = CN) =>
        (await calls.hostView(hostId, customerNumber)).assigned[0]!.fulfillments[0]!.FulfillmentID,
      /** A host of both accounts, a seat of each on it. */
      onBoth: async (serverName: string, hostId: string) => {
        await calls.create({ serverName, serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
        await calls.create({
          serverName,
          serverId: hostId,
          activations: [{ id: 'AUD-S', count: 1 }],
          customerNumber: SISTER,
        });
      },
      /** Saves the host's Borrowable on its own (decision 048). */
      settings: (hostId: string, ansysborrowable: boolean) =>
        api.ok(boss, licenseServersApi.settings, { ...hostBody(hostId), ansysborrowable }),
    };
  });

// The cast comes first: its accounts own the leases, and its admin is Sister's admin too.
test.beforeAll(async ({ database, cast: _accounts }) => {
  await buildProduct(database.db, PART, { name: 'Solver', featureName: 'solver' });
  await buildAccount(database.db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildAccount(database.db, { customerNumber: STRANGER, name: 'Stranger Co' });
  await buildLease(database.db, CN, 'AUD-A', { partNumber: PART, quantity: 50 });
  await buildLease(database.db, SISTER, 'AUD-S', { partNumber: PART, quantity: 50 });
});

describe('license-servers audit', () => {
  test('a new host is one added entry with its settings, by the user with the request and address', async ({
    audit,
    calls: { create },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    const from = await audit.mark();
    await create({
      serverName: 'audit1',
      serverId: hostId,
      type: 'new',
      portNumber: 27000,
      ansysborrowable: true,
      activations: [{ id: 'AUD-A', count: 1 }],
    });
    const entries = await audit.hostEntries(from);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      chain: CN,
      actorKind: 'user',
      actorId: boss.userId,
      actorName: 'boss@acme.example',
      action: 'license-servers.added',
      objectType: 'license-server',
      objectId: hostId,
      before: null,
      after: { name: 'audit1', serverNames: 'audit1', port: 27000, borrowable: true },
      clientIp: '127.0.0.1',
    });
    expect(entries[0]!.requestId).toBeTruthy();
  });

  test('a refused new host (its id in use) writes nothing', async ({
    api,
    audit,
    calls: { create },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    await create({ serverName: 'taken', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const from = await audit.mark();
    await api.refused(
      boss,
      activationsApi.create,
      {
        customerNumber: CN,
        serverIdType: 'ETHERNET',
        serverName: 'taken2',
        serverId: hostId,
        type: 'new',
        activations: [{ id: 'AUD-A', count: 1 }],
      },
      409,
    );
    expect(await audit.since(from)).toEqual([]);
  });

  test("records a host's port and Borrowable changed by a create as their before and after", async ({
    audit,
    calls: { create },
  }) => {
    const hostId = newHostId();
    await create({ serverName: 'ported', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const from = await audit.mark();
    await create({
      serverName: 'ported',
      serverId: hostId,
      portNumber: 1999,
      activations: [{ id: 'AUD-A', count: 1 }],
    });
    expect(await audit.hostEntries(from)).toMatchObject([
      { action: 'license-servers.changed', objectId: hostId, before: { port: 1055 }, after: { port: 1999 } },
    ]);
  });

  test('records Borrowable saved on its own (decision 048); the same value writes nothing', async ({
    audit,
    calls: { create, settings },
  }) => {
    const hostId = newHostId();
    await create({ serverName: 'borrow', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const from = await audit.mark();
    await settings(hostId, true);
    expect(await audit.hostEntries(from)).toMatchObject([
      {
        action: 'license-servers.changed',
        objectId: hostId,
        customerNumber: CN,
        before: { borrowable: false },
        after: { borrowable: true },
      },
    ]);
    const again = await audit.mark();
    await settings(hostId, true);
    expect(await audit.since(again)).toEqual([]);
  });

  test('a host emptied by returns is deactivated, and activated again by a create; a refused return writes nothing', async ({
    api,
    audit,
    calls: { create, giveBack, fulfillmentOf },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    await create({ serverName: 'cycle', serverId: hostId, activations: [{ id: 'AUD-A', count: 2 }] });
    const id = await fulfillmentOf(hostId);
    let from = await audit.mark();
    await api.refused(
      boss,
      activationsApi.return,
      { customerNumber: CN, activations: [{ id, count: -3 }] },
      409,
    );
    expect(await audit.since(from)).toEqual([]);
    // Returning one seat of two leaves the host Active: no host entry.
    await giveBack({ activations: [{ id, count: -1 }] });
    expect(await audit.hostEntries(from)).toEqual([]);
    from = await audit.mark();
    await giveBack({ lifecycle: 'deactivate', activations: [{ id, count: -1 }] });
    expect(await audit.hostEntries(from)).toMatchObject([
      {
        customerNumber: CN,
        actorName: 'boss@acme.example',
        action: 'license-servers.deactivated',
        objectId: hostId,
        before: { state: 'Active' },
        after: { state: 'Inactive' },
      },
    ]);
    from = await audit.mark();
    await create({ serverName: 'cycle', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    expect(await audit.hostEntries(from)).toMatchObject([
      { action: 'license-servers.activated', before: { state: 'Inactive' }, after: { state: 'Active' } },
    ]);
  });

  test('removing an inactive host: deleted with its last account, removed while another uses it; an active one writes nothing', async ({
    api,
    audit,
    calls: { onBoth, giveBack, fulfillmentOf },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    await onBoth('gone', hostId);
    let from = await audit.mark();
    await api.refused(boss, licenseServersApi.remove, hostBody(hostId), 409);
    expect(await audit.since(from)).toEqual([]);
    for (const cn of [CN, SISTER])
      await giveBack({
        customerNumber: cn,
        activations: [{ id: await fulfillmentOf(hostId, cn), count: -1 }],
      });
    from = await audit.mark();
    await api.ok(boss, licenseServersApi.remove, hostBody(hostId));
    expect(await audit.hostEntries(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-servers.removed',
        objectId: hostId,
        before: { name: 'gone', port: 1055, borrowable: false, state: 'Inactive', sharedGroup: false },
        after: null,
      },
    ]);
    from = await audit.mark();
    await api.ok(boss, licenseServersApi.remove, hostBody(hostId, SISTER));
    expect(await audit.hostEntries(from)).toMatchObject([
      { customerNumber: SISTER, action: 'license-servers.deleted', objectId: hostId },
    ]);
  });

  test("Borrowable on a shared host: one entry in each account's chain in one batch, all verifying; a membership revoked since refuses it", async ({
    api,
    database,
    audit,
    cast: { boss },
    calls: { onBoth, settings },
  }) => {
    const hostId = newHostId();
    await onBoth('both', hostId);
    const from = await audit.mark();
    await settings(hostId, true);
    const entries = await audit.hostEntries(from);
    expect(entries.map((e) => [e.chain, e.action, e.before, e.after])).toEqual([
      [CN, 'license-servers.changed', { borrowable: false }, { borrowable: true }],
      [SISTER, 'license-servers.changed', { borrowable: false }, { borrowable: true }],
    ]);
    expect(new Set(entries.map((e) => e.at.getTime())).size).toBe(1);
    for (const cn of [CN, SISTER])
      expect(await verifyAudit(database.db, cn)).toEqual([
        { chain: cn, entries: expect.any(Number), ok: true },
      ]);
    // The user no longer administers Sister: the host's Borrowable goes into Sister's file too, so it is refused.
    const sisterAdmin = and(
      eq(portalContacts.customerNumber, SISTER),
      eq(portalContacts.email, 'boss@acme.example'),
    );
    await database.db.delete(portalContacts).where(sisterAdmin);
    try {
      const after = await audit.mark();
      await api.refused(
        boss,
        licenseServersApi.settings,
        { ...hostBody(hostId), ansysborrowable: false },
        403,
      );
      expect(await audit.since(after)).toEqual([]);
    } finally {
      await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
    }
  });

  test("shared-group changes are one entry per account in that account's log; refused or replayed ones write nothing", async ({
    api,
    audit,
    calls: { create },
    cast: { boss },
  }) => {
    const hostId = newHostId();
    await create({ serverName: 'grouped', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    let from = await audit.mark();
    // Sister joins the host through the group: added to it, in the group.
    const group = { ...hostBody(hostId), group: [CN, SISTER], operationKey: 'audit-group-1' };
    await api.ok(boss, licenseServersApi.setSharedGroup, group);
    expect(await audit.hostEntries(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-servers.shared-group.changed',
        before: { sharedGroup: false },
        after: { sharedGroup: true },
      },
      {
        customerNumber: SISTER,
        chain: SISTER,
        action: 'license-servers.added',
        before: null,
        after: { name: 'grouped', sharedGroup: true },
      },
    ]);
    from = await audit.mark();
    await api.ok(boss, licenseServersApi.setSharedGroup, group);
    await api.ok(boss, licenseServersApi.setSharedGroup, { ...group, operationKey: undefined });
    await api.refused(
      boss,
      licenseServersApi.setSharedGroup,
      { ...hostBody(hostId), group: [CN, STRANGER] },
      403,
    );
    expect(await audit.since(from)).toEqual([]);
    await api.ok(boss, licenseServersApi.deactivateSharedGroup, hostBody(hostId));
    const left = await audit.hostEntries(from);
    expect(left.map((e) => [e.customerNumber, e.action, e.before, e.after])).toEqual([
      [CN, 'license-servers.shared-group.changed', { sharedGroup: true }, { sharedGroup: false }],
      [SISTER, 'license-servers.shared-group.changed', { sharedGroup: true }, { sharedGroup: false }],
    ]);
  });
});
