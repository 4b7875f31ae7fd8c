import { contactRoles } from '@lp/domain/policy';
import { and, asc, eq, gt, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLease } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { auditEntries, portalContacts, products } from '../../db/schema.ts';
import { verifyAudit } from '../audit/service.ts';

/*
 * Issue 13 §1: hosts added, changed, activated and deactivated, removed or deleted, and shared-server group
 * changes are audited, one entry per host and account, by the user with the request; a refused write writes none.
 */

const CN = '4310001';
const OTHER = '4310002';
const SISTER = '4310003';
const STRANGER = '4310004';
const PART = 'SIM-AUDIT-1';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let bossId: string;

const post = (url: string, headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

let hostSeq = 0;
const newHostId = () => (++hostSeq).toString(16).padStart(12, '0');

const create = (body: Record<string, unknown>) =>
  post('/api/fulfillments/create', boss, { customerNumber: CN, serverIdType: 'ETHERNET', ...body });

const hostBody = (hostId: string, customerNumber = CN) => ({
  customerNumber,
  hostId,
  hostIdType: 'ETHERNET',
});

/** The entries written after `mark` (the highest id before the call), oldest first. */
const since = (mark: number) =>
  database.db.select().from(auditEntries).where(gt(auditEntries.id, mark)).orderBy(asc(auditEntries.id));
const mark = async () =>
  (await database.db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0;
const hostEntries = async (from: number) =>
  (await since(from)).filter((e) => e.objectType === 'license-server');

async function fulfillmentOf(hostId: string, customerNumber = CN) {
  const res = await post('/api/fulfillments/allentitlements', boss, {
    customerNumber,
    serverId: hostId,
    serverIdType: 'ETHERNET',
  });
  return res.json().data.assigned[0].fulfillments[0].FulfillmentID as number;
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
  await buildAccount(database.db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildAccount(database.db, { customerNumber: STRANGER, name: 'Stranger Co' });
  await buildLease(database.db, CN, 'AUD-A', { partNumber: PART, quantity: 50 });
  await buildLease(database.db, SISTER, 'AUD-S', { partNumber: PART, quantity: 50 });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('license-servers audit', () => {
  it('a new host is one added entry with its settings, by the user with the request and address', async () => {
    const hostId = newHostId();
    const from = await mark();
    const res = await create({
      serverName: 'audit1',
      serverId: hostId,
      type: 'new',
      portNumber: 27000,
      ansysborrowable: true,
      activations: [{ id: 'AUD-A', count: 1 }],
    });
    expect(res.statusCode).toBe(200);
    const entries = await hostEntries(from);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      chain: CN,
      actorKind: 'user',
      actorId: bossId,
      actorName: 'boss@acme.example',
      action: 'license-servers.added',
      objectType: 'license-server',
      objectId: hostId,
      before: null,
      after: { name: 'audit1', serverNames: 'audit1', port: 27000, borrowable: true },
      clientIp: '127.0.0.1',
    });
    expect(entries[0].requestId).toBeTruthy();
  });

  it('a refused new host (its id in use) writes nothing', async () => {
    const hostId = newHostId();
    expect(
      (await create({ serverName: 'taken', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] }))
        .statusCode,
    ).toBe(200);
    const from = await mark();
    const again = await create({
      serverName: 'taken2',
      serverId: hostId,
      type: 'new',
      activations: [{ id: 'AUD-A', count: 1 }],
    });
    expect(again.statusCode).toBe(409);
    expect(await since(from)).toEqual([]);
  });

  it("records a host's port and Borrowable changed by a create as their before and after", async () => {
    const hostId = newHostId();
    await create({ serverName: 'ported', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const from = await mark();
    await create({
      serverName: 'ported',
      serverId: hostId,
      portNumber: 1999,
      activations: [{ id: 'AUD-A', count: 1 }],
    });
    expect(await hostEntries(from)).toMatchObject([
      { action: 'license-servers.changed', objectId: hostId, before: { port: 1055 }, after: { port: 1999 } },
    ]);
  });

  it('records Borrowable saved on its own (decision 048); the same value writes nothing', async () => {
    const hostId = newHostId();
    await create({ serverName: 'borrow', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const from = await mark();
    const settings = (ansysborrowable: boolean) =>
      post('/api/fulfillments/servers/settings', boss, { ...hostBody(hostId), ansysborrowable });
    expect((await settings(true)).statusCode).toBe(200);
    expect(await hostEntries(from)).toMatchObject([
      {
        action: 'license-servers.changed',
        objectId: hostId,
        customerNumber: CN,
        before: { borrowable: false },
        after: { borrowable: true },
      },
    ]);
    const again = await mark();
    expect((await settings(true)).statusCode).toBe(200);
    expect(await since(again)).toEqual([]);
  });

  it('a host emptied by returns is deactivated, and activated again by a create; a refused return writes nothing', async () => {
    const hostId = newHostId();
    await create({ serverName: 'cycle', serverId: hostId, activations: [{ id: 'AUD-A', count: 2 }] });
    const id = await fulfillmentOf(hostId);
    let from = await mark();
    const tooMany = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      activations: [{ id, count: -3 }],
    });
    expect(tooMany.statusCode).toBe(409);
    expect(await since(from)).toEqual([]);
    // Returning one seat of two leaves the host Active: no host entry.
    await post('/api/fulfillments/return', boss, { customerNumber: CN, activations: [{ id, count: -1 }] });
    expect(await hostEntries(from)).toEqual([]);
    from = await mark();
    const res = await post('/api/fulfillments/return', boss, {
      customerNumber: CN,
      lifecycle: 'deactivate',
      activations: [{ id, count: -1 }],
    });
    expect(res.statusCode).toBe(200);
    expect(await hostEntries(from)).toMatchObject([
      {
        customerNumber: CN,
        actorName: 'boss@acme.example',
        action: 'license-servers.deactivated',
        objectId: hostId,
        before: { state: 'Active' },
        after: { state: 'Inactive' },
      },
    ]);
    from = await mark();
    await create({ serverName: 'cycle', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    expect(await hostEntries(from)).toMatchObject([
      { action: 'license-servers.activated', before: { state: 'Inactive' }, after: { state: 'Active' } },
    ]);
  });

  it('removing an inactive host: deleted with its last account, removed while another uses it; an active one writes nothing', async () => {
    const hostId = newHostId();
    await create({ serverName: 'gone', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    await post('/api/fulfillments/create', boss, {
      customerNumber: SISTER,
      serverName: 'gone',
      serverId: hostId,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'AUD-S', count: 1 }],
    });
    let from = await mark();
    expect((await post('/api/sharedserver/remove', boss, hostBody(hostId))).statusCode).toBe(409);
    expect(await since(from)).toEqual([]);
    for (const cn of [CN, SISTER])
      await post('/api/fulfillments/return', boss, {
        customerNumber: cn,
        activations: [{ id: await fulfillmentOf(hostId, cn), count: -1 }],
      });
    from = await mark();
    expect((await post('/api/sharedserver/remove', boss, hostBody(hostId))).statusCode).toBe(200);
    expect(await hostEntries(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-servers.removed',
        objectId: hostId,
        before: { name: 'gone', port: 1055, borrowable: false, state: 'Inactive', sharedGroup: false },
        after: null,
      },
    ]);
    from = await mark();
    expect((await post('/api/sharedserver/remove', boss, hostBody(hostId, SISTER))).statusCode).toBe(200);
    expect(await hostEntries(from)).toMatchObject([
      { customerNumber: SISTER, action: 'license-servers.deleted', objectId: hostId },
    ]);
  });

  it("Borrowable on a shared host: one entry in each account's chain in one batch, all verifying; a membership revoked since refuses it", async () => {
    const hostId = newHostId();
    await create({ serverName: 'both', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    const joined = await post('/api/fulfillments/create', boss, {
      customerNumber: SISTER,
      serverName: 'both',
      serverId: hostId,
      serverIdType: 'ETHERNET',
      activations: [{ id: 'AUD-S', count: 1 }],
    });
    expect(joined.statusCode).toBe(200);
    const from = await mark();
    const settings = (ansysborrowable: boolean) =>
      post('/api/fulfillments/servers/settings', boss, { ...hostBody(hostId), ansysborrowable });
    expect((await settings(true)).statusCode).toBe(200);
    const entries = await hostEntries(from);
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
      const after = await mark();
      expect((await settings(false)).statusCode).toBe(403);
      expect(await since(after)).toEqual([]);
    } finally {
      await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
    }
  });

  it("shared-group changes are one entry per account in that account's log; refused or replayed ones write nothing", async () => {
    const hostId = newHostId();
    await create({ serverName: 'grouped', serverId: hostId, activations: [{ id: 'AUD-A', count: 1 }] });
    let from = await mark();
    // Sister joins the host through the group: added to it, in the group.
    const group = { ...hostBody(hostId), group: [CN, SISTER], operationKey: 'audit-group-1' };
    expect((await post('/api/sharedserver', boss, group)).statusCode).toBe(200);
    expect(await hostEntries(from)).toMatchObject([
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
    from = await mark();
    expect((await post('/api/sharedserver', boss, group)).statusCode).toBe(200);
    expect((await post('/api/sharedserver', boss, { ...group, operationKey: undefined })).statusCode).toBe(
      200,
    );
    expect(
      (await post('/api/sharedserver', boss, { ...hostBody(hostId), group: [CN, STRANGER] })).statusCode,
    ).toBe(403);
    expect(await since(from)).toEqual([]);
    expect((await post('/api/sharedserver/deactivate', boss, hostBody(hostId))).statusCode).toBe(200);
    const left = await hostEntries(from);
    expect(left.map((e) => [e.customerNumber, e.action, e.before, e.after])).toEqual([
      [CN, 'license-servers.shared-group.changed', { sharedGroup: true }, { sharedGroup: false }],
      [SISTER, 'license-servers.shared-group.changed', { sharedGroup: true }, { sharedGroup: false }],
    ]);
  });
});
