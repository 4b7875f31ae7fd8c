import os from 'node:os';
import { messages } from '@lp/contract/common/errors';
import { emailsApi } from '@lp/contract/emails/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { licenseServersApi } from '@lp/contract/license-servers/api';
import { verifyLicenseText } from '@lp/domain/license-signature';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  addContact,
  buildAccount,
  buildLease,
  buildProduct,
  dayFromToday as day,
} from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { activationCalls } from '../../../test/activation-calls.ts';
import { acme, anonymous, apiOf, apiTest, type Caller, Multipart, other } from '../../../test/api-fixture.ts';
import { accounts, emails, type entitlements } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import { rotateSigningKey } from './service.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const SISTER = '4400003';

const TRIAD = {
  ids: 'AA0000000001,AA0000000002,AA0000000003',
  canonical: 'aa0000000001,aa0000000002,aa0000000003',
};
const SHARED = 'bb0000000001';
const EMPTY = 'cc0000000001';
const ODD = 'ee0000000001';

const idTypeOf = (serverId: string) => (serverId === TRIAD.ids ? 'ETHERNET,ETHERNET,ETHERNET' : 'ETHERNET');
const ofHost = (serverId: string, customerNumber: string = CN) => ({
  customerNumber,
  serverId,
  serverIdType: idTypeOf(serverId),
});

const test = apiTest
  /** A lease of a product of the file's (the solver unless `over` names another). */
  .extend(
    'lease',
    { scope: 'file' },
    async ({ database }) =>
      (customerNumber: string, activationId: string, over: Partial<typeof entitlements.$inferInsert> = {}) =>
        buildLease(database.db, customerNumber, activationId, { partNumber: 'LF-SOLVER', ...over }),
  )
  .extend('calls', { scope: 'file' }, async ({ api, cast: { boss } }) => ({
    ...activationCalls(api, boss, CN),
    /** The admin activates seats on a host (of any of the admin's accounts). */
    activate: (
      customerNumber: string,
      serverName: string,
      serverId: string,
      activations: { id: string; count: number }[],
      extra: { ansysborrowable?: boolean } = {},
    ) =>
      activationCalls(api, boss, customerNumber).create({
        serverName,
        serverId,
        serverIdType: idTypeOf(serverId),
        activations,
        ...extra,
      }),
    /** The published keys by key id, as anyone outside the portal reads them. */
    publicKeys: async () =>
      Object.fromEntries(
        (await api.ok(anonymous, licenseFilesApi.keys, undefined)).data.map((k) => [k.keyId, k.publicKeyPem]),
      ),
    /** The account's license text of a host, which must be made. */
    licenseOk: (who: Caller, serverId: string, extra: { ansysborrowed?: boolean } = {}) =>
      api.ok(who, licenseFilesApi.license, { ...ofHost(serverId), ...extra }),
  }));

// The cast comes first: its accounts own the leases, and its admin is the sister account's admin too.
test.beforeAll(async ({ api, database, lease, cast: { boss }, calls: { activate, live, giveBack } }) => {
  const { db } = database;
  await buildProduct(db, 'LF-SOLVER', {
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd_solver',
  });
  await buildProduct(db, 'LF-MECH', {
    name: 'Mechanical',
    family: 'Structures',
    daemon: 'mechlmd',
    featureName: 'mech',
  });
  await db.update(accounts).set({ supportEmail: 'it@acme.example' }).where(eq(accounts.customerNumber, CN));
  await buildAccount(db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(db, SISTER, 'boss@acme.example', contactRoles.admin);
  await lease(CN, 'LF-LEASE', {});
  await lease(CN, 'LF-LOAN', { licenseModel: 'Network Borrow', partNumber: 'LF-MECH' });
  await lease(CN, 'LF-PERP', { endDate: null, versionDate: day(300) });
  await lease(CN, 'LF-UNUSED', {});
  await lease(SISTER, 'LF-SISTER', {});
  await lease(OTHER, 'LF-OTHER', {});
  await activate(
    CN,
    'lic1,lic2,lic3',
    TRIAD.ids,
    [
      { id: 'LF-LEASE', count: 2 },
      { id: 'LF-LOAN', count: 1 },
      { id: 'LF-PERP', count: 3 },
    ],
    { ansysborrowable: true },
  );
  await activate(CN, 'shared1', SHARED, [{ id: 'LF-LEASE', count: 1 }]);
  await activate(SISTER, 'shared1', SHARED, [{ id: 'LF-SISTER', count: 4 }]);
  await api.ok(boss, licenseServersApi.setSharedGroup, {
    customerNumber: CN,
    hostId: SHARED,
    hostIdType: 'ETHERNET',
    group: [CN, SISTER],
  });
  await activate(CN, 'empty1', EMPTY, [{ id: 'LF-UNUSED', count: 1 }]);
  await activate(SISTER, 'empty1', EMPTY, [{ id: 'LF-SISTER', count: 1 }]);
  await lease(CN, 'LF-NOPRODUCT', { partNumber: null });
  await activate(CN, 'odd1', ODD, [{ id: 'LF-NOPRODUCT', count: 1 }]);
  // Everything returned: the host stays, with no line to license.
  const unused = (await live(EMPTY))['LF-UNUSED']!;
  await giveBack({ activations: [{ id: unused.id, count: -1 }] });
});

describe('license text of a host', () => {
  test('answers 401 without a session, 403 to an outsider and 404 for a host the account does not use', async ({
    api,
    cast: { boss, outsider },
  }) => {
    await api.refused(anonymous, licenseFilesApi.license, ofHost(TRIAD.ids), 401);
    const foreign = await api.refused(outsider, licenseFilesApi.license, ofHost(TRIAD.ids), 403);
    expect(JSON.stringify(foreign)).not.toContain('lic1');
    await api.refused(boss, licenseFilesApi.license, ofHost('dd0000000001'), 404);
    const bad = await api.refused(boss, licenseFilesApi.license, ofHost('xyz'), 400);
    expect(bad).toEqual({
      status: 'FAILURE',
      err: 'Invalid ETHERNET server id: xyz. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
      code: 'BAD_REQUEST',
    });
  });

  test('writes a triad file per daemon, every feature line signed with a published key', async ({
    cast: { boss },
    calls: { licenseOk, publicKeys },
  }) => {
    const body = await licenseOk(boss, TRIAD.ids);
    expect(body.licenseFileName).toBe(`license_${CN}_${TRIAD.canonical}.lic`);
    expect(Object.keys(body.licenseText).sort()).toEqual(['cfdlmd', 'mechlmd']);
    const text = body.text;
    expect(text.match(/^SERVER .*$/gm)).toEqual([
      'SERVER lic1 aa0000000001 1055',
      'SERVER lic2 aa0000000002 1055',
      'SERVER lic3 aa0000000003 1055',
    ]);
    expect(text).toMatch(/^VENDOR cfdlmd$/m);
    expect(text).toMatch(/^VENDOR mechlmd$/m);
    expect(text).toContain(`# Solver, LF-LEASE, ${CN}`);
    expect(text).toMatch(/INCREMENT cfd_solver cfdlmd \S+ \d{2}-[a-z]{3}-\d{4} 2 /);
    expect(text).toMatch(/INCREMENT cfd_solver cfdlmd \S+ permanent 3 /);
    expect(text).toContain(`VENDOR_STRING=customer:${CN}`);
    // BORROW only on the Network Borrow line.
    expect(body.licenseText.mechlmd).toMatch(/BORROW/);
    expect(body.licenseText.cfdlmd).not.toMatch(/BORROW/);
    expect(body.shared).toEqual([]);
    const verdicts = verifyLicenseText(text, await publicKeys());
    expect(verdicts.length).toBe(3);
    expect(verdicts.every((v) => v.verdict === 'valid')).toBe(true);
  });

  test("the host's Borrowable setting decides: a caller may leave BORROW out, never add it", async ({
    lease,
    cast: { boss, reader },
    calls: { activate, licenseOk },
  }) => {
    const without = await licenseOk(boss, TRIAD.ids, { ansysborrowed: false });
    expect(without.licenseText.mechlmd).not.toMatch(/BORROW/);
    await lease(CN, 'LF-LOAN2', { licenseModel: 'Network Borrow', partNumber: 'LF-MECH' });
    await activate(CN, 'noborrow1', 'ff0000000001', [{ id: 'LF-LOAN2', count: 1 }]);
    const forced = await licenseOk(reader, 'ff0000000001', { ansysborrowed: true });
    expect(forced.text).not.toMatch(/BORROW/);
  });

  test('answers the spec text, not a 500, when stored data cannot go into a license file', async ({
    api,
    cast: { boss },
  }) => {
    const refusal = await api.refused(boss, licenseFilesApi.license, ofHost(ODD), 422);
    expect(refusal).toEqual({ status: 'FAILURE', err: messages.errorLicenseFile, code: 'UNPROCESSABLE' });
  });

  test('answers that no daemon has activations for a host with everything returned', async ({
    api,
    cast: { boss },
  }) => {
    const refusal = await api.refused(boss, licenseFilesApi.license, ofHost(EMPTY), 409);
    expect(refusal.err).toBe(messages.noDaemonsWithActivations);
  });

  test("a shared host's files: the user's own accounts in the shared file, others' lines never", async ({
    cast: { boss, reader },
    calls: { licenseOk },
  }) => {
    const body = await licenseOk(boss, SHARED);
    expect(body.text).not.toContain(`customer:${SISTER}`);
    expect(body.shared).toHaveLength(1);
    expect(body.shared[0]!.fileName).toBe(`cfdlmd_license_${SHARED}_shared.lic`);
    expect(body.shared[0]!.text).toContain(`customer:${CN}`);
    expect(body.shared[0]!.text).toContain(`customer:${SISTER}`);
    // The reader sees only the first account: the sister's lines are not theirs to see (nor anywhere in the answer).
    const asReader = await licenseOk(reader, SHARED);
    expect(JSON.stringify(asReader)).not.toContain(SISTER);
    expect(asReader.shared).toEqual([]);
  });

  test('reports a customer without activations and tolerates it unless no customer has any', async ({
    api,
    cast: { boss },
  }) => {
    const body = await api.ok(boss, licenseFilesApi.licenses, {
      hostId: EMPTY,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }, { customerNumber: SISTER }],
    });
    expect(body.data.map((d) => [d.status, d.err])).toEqual([
      ['FAILURE', messages.noDaemonsWithActivations],
      ['SUCCESS', undefined],
    ]);
    expect(body.merged.text).toContain(`customer:${SISTER}`);
    expect(body.merged.text).not.toContain(`customer:${CN}`);
    const none = await api.refused(
      boss,
      licenseFilesApi.licenses,
      { hostId: EMPTY, hostIdType: 'ETHERNET', customers: [{ customerNumber: CN }] },
      409,
    );
    expect(none.err).toBe(messages.noDaemonsWithActivations);
  });

  test('merges several customers of a host', async ({
    api,
    cast: { boss, reader },
    calls: { publicKeys },
  }) => {
    const both = {
      hostId: SHARED,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }, { customerNumber: SISTER }],
    };
    const body = await api.ok(boss, licenseFilesApi.licenses, both);
    expect(body.data.map((d) => d.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(body.merged.text.match(/^SERVER /gm)).toHaveLength(1);
    expect(body.merged.text.match(/^VENDOR cfdlmd$/gm)).toHaveLength(1);
    expect(body.merged.text.match(/^INCREMENT /gm)).toHaveLength(2);
    expect(verifyLicenseText(body.merged.text, await publicKeys()).every((v) => v.verdict === 'valid')).toBe(
      true,
    );
    const asReader = await api.refused(reader, licenseFilesApi.licenses, both, 404);
    expect(JSON.stringify(asReader)).not.toContain('Acme Sister');
  });

  test('downloads the merged file as an attachment, also for a view-only user', async ({
    api,
    cast: { reader },
  }) => {
    const res = await api.call(reader, licenseFilesApi.download, ofHost(TRIAD.ids));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="license_${CN}_${TRIAD.canonical}.lic"`,
    );
    expect(res.body.match(/^INCREMENT /gm)).toHaveLength(3);
  });

  test('files signed before a key rotation still verify; new files carry the new key id', async ({
    api,
    database,
    cast: { boss },
    calls: { licenseOk, publicKeys },
  }) => {
    const before = (await licenseOk(boss, TRIAD.ids)).text;
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() });
    const keyId = await rotateSigningKey({ db: database.db, config });
    const keys = await publicKeys();
    expect(Object.keys(keys)).toContain(keyId);
    expect(verifyLicenseText(before, keys).every((v) => v.verdict === 'valid')).toBe(true);
    const after = (await licenseOk(boss, TRIAD.ids)).text;
    expect(verifyLicenseText(after, keys).every((v) => v.verdict === 'valid')).toBe(true);
    expect(verifyLicenseText(after, { [keyId]: keys[keyId]! }).every((v) => v.verdict === 'valid')).toBe(
      true,
    );
    const listed = (await api.ok(anonymous, licenseFilesApi.keys, undefined)).data;
    expect(listed.filter((k) => k.retiredAt === null)).toHaveLength(1);
  });
});

describe('e-mail of a license file', () => {
  test("sends the server's own file to the account's support list with the user in copy", async ({
    api,
    database,
    cast: { boss },
    calls: { publicKeys },
  }) => {
    await api.ok(boss, licenseFilesApi.email, {
      ...ofHost(TRIAD.ids),
      licenseText: 'INCREMENT forged',
      supportEmailTo: 'attacker@evil.example',
    });
    const [mail] = await database.db.select().from(emails).where(eq(emails.customerNumber, CN));
    expect(mail!.to).toBe('it@acme.example');
    expect(mail!.cc).toBe('boss@acme.example');
    const attachments = mail!.attachments as { filename: string; contentBase64: string }[];
    expect(attachments[0]!.filename).toBe(`license_${CN}_${TRIAD.canonical}.lic`);
    const text = Buffer.from(attachments[0]!.contentBase64, 'base64').toString('utf8');
    expect(text).not.toContain('forged');
    expect(verifyLicenseText(text, await publicKeys()).every((v) => v.verdict === 'valid')).toBe(true);
    // The account's e-mail page shows the attachment as sent, and the keys' address works outside the portal.
    const shown = (await api.ok(boss, emailsApi.get, { customerNumber: CN, id: mail!.id })).data;
    expect(shown.attachments).toEqual([
      {
        fileName: `license_${CN}_${TRIAD.canonical}.lic`,
        contentType: 'text/plain',
        size: Buffer.byteLength(text),
        contentBase64: attachments[0]!.contentBase64,
      },
    ]);
    expect(shown.body).toMatch(/<a href="https?:\/\/[^"/]+(\/[^"]*)?\/api\/license-keys"[^>]*>https?:/);
    expect(shown.body).not.toMatch(/ at \/api\/license-keys/);
  });

  test('counts against the hourly e-mail limit of the user (decision 045): past it 429, nothing queued', async ({
    database,
    cast: { boss },
  }) => {
    // A node allowing one e-mail a user an hour: the boss has sent one above.
    const strict = await createTestApp(database, { MAIL_USER_LIMIT_PER_HOUR: '1' });
    try {
      const before = await database.db.$count(emails, eq(emails.customerNumber, CN));
      const refusal = await apiOf(strict).refused(boss, licenseFilesApi.email, ofHost(TRIAD.ids), 429);
      expect(refusal.err).toBe(messages.userMailLimit(1));
      expect(await database.db.$count(emails, eq(emails.customerNumber, CN))).toBe(before);
    } finally {
      await strict.close();
    }
  });

  test('refuses view-only users and accounts without a support address', async ({
    api,
    cast: { boss, reader },
  }) => {
    const asReader = await api.refused(
      reader,
      licenseFilesApi.email,
      { customerNumber: CN, serverId: TRIAD.ids },
      403,
    );
    expect(asReader.err).toBe(messages.noPermission);
    const sister = await api.refused(boss, licenseFilesApi.email, ofHost(SHARED, SISTER), 409);
    expect(sister.err).toBe(messages.noSupportEmail);
  });
});

describe('upload of a host file', () => {
  const licenseFile = [
    'SERVER alpha 0050569A1B2C 27000',
    'SERVER beta 0050569A1B2D 27000',
    'SERVER gamma 0050569A1B2E 27000',
    'VENDOR cfdlmd',
    'USE_SERVER',
    'INCREMENT cfd_solver cfdlmd 2027.0101 31-dec-2027 5 SIGN="00"',
  ].join('\r\n');
  const upload = licenseServersApi.upload;

  test('reads a triad from an existing license file', async ({ api, cast: { boss } }) => {
    const form = new Multipart({ customerNumber: CN }, { name: 'old.lic', content: licenseFile });
    expect((await api.upload(boss, upload, form)).data).toMatchObject({
      serverName: 'alpha,beta,gamma',
      serverId: '0050569a1b2c,0050569a1b2d,0050569a1b2e',
      numServers: 3,
      // The SERVER lines' port is kept for the new host (issue 21).
      portNumber: 27000,
    });
  });

  test('reads lmhostid output', async ({ api, cast: { boss } }) => {
    const text =
      'lmhostid - Copyright (c) 1989-2024 Flexera. All Rights Reserved.\nThe FlexNet host ID of this machine is "0050569a1b2c"\n';
    const form = new Multipart({ customerNumber: CN }, { name: 'hostid.txt', content: text });
    expect((await api.upload(boss, upload, form)).data.serverId).toBe('0050569a1b2c');
  });

  test('refuses what it cannot read, naming the line, and never answers 500', async ({
    api,
    cast: { boss },
  }) => {
    const bad = await api.refused(
      boss,
      upload,
      new Multipart({ customerNumber: CN }, { name: 'x.txt', content: 'hello\nworld wide web\n' }),
      400,
    );
    expect(bad.err).toMatch(/line \d/i);
    const noFile = await api.call(boss, upload, new Multipart({ customerNumber: CN }));
    expect(noFile.statusCode).toBe(400);
    const noCustomer = await api.call(
      boss,
      upload,
      new Multipart({}, { name: 'old.lic', content: licenseFile }),
    );
    expect(noCustomer.statusCode).toBe(400);
    const big = await api.call(
      boss,
      upload,
      new Multipart({ customerNumber: CN }, { name: 'big.lic', content: Buffer.alloc(1_100_000, 0x41) }),
    );
    expect(big.statusCode).toBe(413);
    const json = await api.call(boss, upload, { customerNumber: CN });
    expect(json.statusCode).toBe(415);
  });

  test('answers 401 without a session and 403 to an outsider', async ({ api, cast: { outsider } }) => {
    const form = new Multipart({ customerNumber: CN }, { name: 'old.lic', content: licenseFile });
    expect((await api.call(anonymous, upload, form)).statusCode).toBe(401);
    expect((await api.call(outsider, upload, form)).statusCode).toBe(403);
  });
});
