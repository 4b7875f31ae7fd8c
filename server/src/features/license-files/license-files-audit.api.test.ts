import { licenseFilesApi } from '@lp/contract/license-files/api';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildLease, buildProduct } from '../../../harness/factories.ts';
import { activationCalls } from '../../../test/activation-calls.ts';
import { acme, apiTest, other } from '../../../test/api-fixture.ts';
import { auditLog } from '../../../test/audit-entries.ts';
import { accounts } from '../../db/schema.ts';

/*
 * Issue 13 §1: license files generated, downloaded and e-mailed are audited, one entry per account's file, by
 * the user with the request; a refused call writes none.
 */

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const SISTER = '4330003';
const HOST = 'dd0000000001';
const EMPTY = 'dd0000000002';

const ofHost = (serverId: string, customerNumber: string = CN) => ({
  customerNumber,
  serverId,
  serverIdType: 'ETHERNET',
});
const fileOf = (customerNumber: string) => `license_${customerNumber}_${HOST}.lic`;

const test = apiTest.extend('audit', { scope: 'file' }, async ({ database }) => auditLog(database.db));

// The cast comes first: its accounts own the leases, and its admin is the sister account's admin too.
test.beforeAll(async ({ api, database, cast: { boss } }) => {
  const { db } = database;
  await buildProduct(db, 'LFA-SOLVER', {
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd',
  });
  await db.update(accounts).set({ supportEmail: 'it@acme.example' }).where(eq(accounts.customerNumber, CN));
  await buildAccount(db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(db, SISTER, 'boss@acme.example', contactRoles.admin);
  await buildLease(db, CN, 'LFA-A', { partNumber: 'LFA-SOLVER' });
  await buildLease(db, SISTER, 'LFA-S', { partNumber: 'LFA-SOLVER' });
  const { create, live, giveBack } = activationCalls(api, boss, CN);
  for (const [customerNumber, id, serverId] of [
    [CN, 'LFA-A', HOST],
    [SISTER, 'LFA-S', HOST],
    [CN, 'LFA-A', EMPTY],
  ] as const) {
    await create({ customerNumber, serverName: 'lfa', serverId, activations: [{ id, count: 1 }] });
  }
  // Everything of the account returned from EMPTY: the host stays, with no line to license.
  const returned = (await live(EMPTY))['LFA-A']!;
  await giveBack({ activations: [{ id: returned.id, count: -1 }] });
});

describe('license-files audit', () => {
  test("generating the account's text is one entry: its file, host and daemons, by the user", async ({
    api,
    audit,
    cast: { reader },
  }) => {
    const from = await audit.mark();
    await api.ok(reader, licenseFilesApi.license, ofHost(HOST));
    const entries = await audit.since(from);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      customerNumber: CN,
      actorKind: 'user',
      actorId: reader.userId,
      actorName: 'reader@acme.example',
      action: 'license-files.generated',
      objectType: 'license-file',
      objectId: fileOf(CN),
      before: null,
      after: { host: HOST, daemons: ['cfdlmd'] },
      clientIp: '127.0.0.1',
    });
    expect(entries[0]!.requestId).toBeTruthy();
  });

  test("the texts of several customers: one entry per customer with a file, in that customer's log", async ({
    api,
    audit,
    cast: { boss },
  }) => {
    const from = await audit.mark();
    await api.ok(boss, licenseFilesApi.licenses, {
      hostId: HOST,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: SISTER }, { customerNumber: CN }],
    });
    expect((await audit.since(from)).map((e) => [e.chain, e.action, e.objectId, e.actorId])).toEqual([
      [CN, 'license-files.generated', fileOf(CN), boss.userId],
      [SISTER, 'license-files.generated', fileOf(SISTER), boss.userId],
    ]);
  });

  test('downloading the merged file is one entry', async ({ api, audit, cast: { boss } }) => {
    const from = await audit.mark();
    // The file is text, not JSON: the raw answer.
    expect((await api.call(boss, licenseFilesApi.download, ofHost(HOST))).statusCode).toBe(200);
    expect(await audit.since(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-files.downloaded',
        objectId: fileOf(CN),
        after: { host: HOST },
        actorName: 'boss@acme.example',
      },
    ]);
  });

  test('e-mailing the file is one entry naming the recipients', async ({ api, audit, cast: { boss } }) => {
    const from = await audit.mark();
    await api.ok(boss, licenseFilesApi.email, ofHost(HOST));
    expect(await audit.since(from)).toMatchObject([
      {
        customerNumber: CN,
        action: 'license-files.emailed',
        objectId: fileOf(CN),
        after: { host: HOST, to: 'it@acme.example', cc: 'boss@acme.example' },
        actorId: boss.userId,
      },
    ]);
  });

  test('a refused or failed call writes nothing', async ({ api, audit, cast: { boss, reader } }) => {
    const from = await audit.mark();
    // Nothing of the account on the host, a host it does not use, a viewer e-mailing, no support address.
    await api.refused(boss, licenseFilesApi.license, ofHost(EMPTY), 409);
    await api.refused(boss, licenseFilesApi.download, ofHost(EMPTY), 409);
    await api.refused(boss, licenseFilesApi.download, ofHost('dd00000000ff'), 404);
    await api.refused(reader, licenseFilesApi.email, ofHost(HOST), 403);
    await api.refused(boss, licenseFilesApi.email, ofHost(HOST, SISTER), 409);
    await api.refused(
      boss,
      licenseFilesApi.licenses,
      { hostId: HOST, hostIdType: 'ETHERNET', customers: [{ customerNumber: OTHER }] },
      403,
    );
    expect(await audit.since(from)).toEqual([]);
  });
});
