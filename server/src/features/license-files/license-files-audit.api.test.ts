import { contactRoles } from '@lp/domain/policy';
import { asc, eq, gt, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLease } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { accounts, auditEntries, products } from '../../db/schema.ts';

/*
 * Issue 13 §1: license files generated, downloaded and e-mailed are audited, one entry per account's file, by
 * the user with the request; a refused call writes none.
 */

const CN = '4330001';
const OTHER = '4330002';
const SISTER = '4330003';
const HOST = 'dd0000000001';
const EMPTY = 'dd0000000002';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let bossId: string;
let readerId: string;

const post = (url: string, headers: Headers, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });
const ofHost = (serverId: string, customerNumber = CN) => ({
  customerNumber,
  serverId,
  serverIdType: 'ETHERNET',
});
const fileOf = (customerNumber: string) => `license_${customerNumber}_${HOST}.lic`;

/** The entries written after `from` (the highest id before the call), oldest first. */
const since = (from: number) =>
  database.db.select().from(auditEntries).where(gt(auditEntries.id, from)).orderBy(asc(auditEntries.id));
const mark = async () =>
  (await database.db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values({
    partNumber: 'LFA-SOLVER',
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd',
  });
  ({ boss, reader } = await buildAccountFixture(database.db, CN, OTHER));
  bossId = (await signInAs(database.db, 'boss@acme.example')).userId;
  readerId = (await signInAs(database.db, 'reader@acme.example')).userId;
  await database.db
    .update(accounts)
    .set({ supportEmail: 'it@acme.example' })
    .where(eq(accounts.customerNumber, CN));
  await buildAccount(database.db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildLease(database.db, CN, 'LFA-A', { partNumber: 'LFA-SOLVER' });
  await buildLease(database.db, SISTER, 'LFA-S', { partNumber: 'LFA-SOLVER' });
  for (const [customerNumber, id, serverId] of [
    [CN, 'LFA-A', HOST],
    [SISTER, 'LFA-S', HOST],
    [CN, 'LFA-A', EMPTY],
  ]) {
    const res = await post('/api/fulfillments/create', boss, {
      customerNumber,
      serverName: 'lfa',
      serverIdType: 'ETHERNET',
      serverId,
      activations: [{ id, count: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  // Everything of the account returned from EMPTY: the host stays, with no line to license.
  const view = await post('/api/fulfillments/entitlements', boss, ofHost(EMPTY));
  const [row] = view.json().data as { fulfillments: { FulfillmentID: number }[] }[];
  const back = await post('/api/fulfillments/return', boss, {
    customerNumber: CN,
    activations: [{ id: row.fulfillments[0].FulfillmentID, count: -1 }],
  });
  expect(back.statusCode).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('license-files audit', () => {
  it("generating the account's text is one entry: its file, host and daemons, by the user", async () => {
    const from = await mark();
    expect((await post('/api/fulfillments/license', reader, ofHost(HOST))).statusCode).toBe(200);
    const entries = await since(from);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorId: readerId,
      actorName: 'reader@acme.example',
      action: 'license-files.generated',
      objectType: 'license-file',
      objectId: fileOf(CN),
      before: null,
      after: { host: HOST, daemons: ['cfdlmd'] },
      clientIp: '127.0.0.1',
    });
    expect(entries[0].requestId).toBeTruthy();
  });

  it("the texts of several customers: one entry per customer with a file, in that customer's log", async () => {
    const from = await mark();
    const res = await post('/api/fulfillments/licenses', boss, {
      hostId: HOST,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: SISTER }, { customerNumber: CN }],
    });
    expect(res.statusCode).toBe(200);
    expect((await since(from)).map((e) => [e.chain, e.action, e.objectId, e.actorId])).toEqual([
      [CN, 'license-files.generated', fileOf(CN), bossId],
      [SISTER, 'license-files.generated', fileOf(SISTER), bossId],
    ]);
  });

  it('downloading the merged file is one entry', async () => {
    const from = await mark();
    expect((await post('/api/fulfillments/download', boss, ofHost(HOST))).statusCode).toBe(200);
    expect(await since(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-files.downloaded',
        objectId: fileOf(CN),
        after: { host: HOST },
        actorName: 'boss@acme.example',
      },
    ]);
  });

  it('e-mailing the file is one entry naming the recipients', async () => {
    const from = await mark();
    expect((await post('/api/fulfillments/email', boss, ofHost(HOST))).statusCode).toBe(200);
    expect(await since(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-files.emailed',
        objectId: fileOf(CN),
        after: { host: HOST, to: 'it@acme.example', cc: 'boss@acme.example' },
        actorId: bossId,
      },
    ]);
  });

  it('a refused or failed call writes nothing', async () => {
    const from = await mark();
    // Nothing of the account on the host, a host it does not use, a viewer e-mailing, no support address.
    expect((await post('/api/fulfillments/license', boss, ofHost(EMPTY))).statusCode).toBe(409);
    expect((await post('/api/fulfillments/download', boss, ofHost(EMPTY))).statusCode).toBe(409);
    expect((await post('/api/fulfillments/download', boss, ofHost('dd00000000ff'))).statusCode).toBe(404);
    expect((await post('/api/fulfillments/email', reader, ofHost(HOST))).statusCode).toBe(403);
    expect((await post('/api/fulfillments/email', boss, ofHost(HOST, SISTER))).statusCode).toBe(409);
    expect(
      (
        await post('/api/fulfillments/licenses', boss, {
          hostId: HOST,
          hostIdType: 'ETHERNET',
          customers: [{ customerNumber: OTHER }],
        })
      ).statusCode,
    ).toBe(403);
    expect(await since(from)).toEqual([]);
  });
});
