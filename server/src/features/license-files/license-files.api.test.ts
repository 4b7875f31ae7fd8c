import os from 'node:os';
import { messages } from '@lp/contract/common/errors';
import { verifyLicenseText } from '@lp/domain/license-signature';
import { contactRoles } from '@lp/domain/policy';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLease, dayFromToday as day } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture } from '../../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { accounts, emails, type entitlements, products } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import { rotateSigningKey } from './service.ts';

const CN = '4400001';
const OTHER = '4400002';
const SISTER = '4400003';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let outsider: Headers;

const post = (url: string, headers: Headers | undefined, payload: object) =>
  app.inject({ method: 'POST', url, headers, payload });

const TRIAD = {
  ids: 'AA0000000001,AA0000000002,AA0000000003',
  canonical: 'aa0000000001,aa0000000002,aa0000000003',
};
const SHARED = 'bb0000000001';
const EMPTY = 'cc0000000001';
const ODD = 'ee0000000001';

async function activate(
  customerNumber: string,
  serverName: string,
  serverId: string,
  activations: object[],
  extra: object = {},
) {
  const res = await post('/api/fulfillments/create', boss, {
    customerNumber,
    serverName,
    serverId,
    serverIdType: TRIAD.ids === serverId ? 'ETHERNET,ETHERNET,ETHERNET' : 'ETHERNET',
    activations,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function publicKeys() {
  const res = await app.inject({ method: 'GET', url: '/api/license-keys' });
  expect(res.statusCode).toBe(200);
  return Object.fromEntries(
    (res.json().data as { keyId: string; publicKeyPem: string }[]).map((k) => [k.keyId, k.publicKeyPem]),
  );
}

/** A multipart/form-data body as a browser sends it. */
function form(fields: Record<string, string>, file?: { name: string; content: string | Buffer }) {
  const boundary = '----lp-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const upload = (headers: Headers | undefined, body: ReturnType<typeof form>) =>
  app.inject({
    method: 'POST',
    url: '/api/uploadserverid',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });

const lease = (
  customerNumber: string,
  activationId: string,
  over: Partial<typeof entitlements.$inferInsert> = {},
) => buildLease(database.db, customerNumber, activationId, { partNumber: 'LF-SOLVER', ...over });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await database.db.insert(products).values([
    {
      partNumber: 'LF-SOLVER',
      name: 'Solver',
      family: 'Fluids',
      daemon: 'cfdlmd',
      featureName: 'cfd_solver',
    },
    {
      partNumber: 'LF-MECH',
      name: 'Mechanical',
      family: 'Structures',
      daemon: 'mechlmd',
      featureName: 'mech',
    },
  ]);
  ({ boss, reader, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  await database.db
    .update(accounts)
    .set({ supportEmail: 'it@acme.example' })
    .where(eq(accounts.customerNumber, CN));
  await buildAccount(database.db, { customerNumber: SISTER, name: 'Acme Sister' });
  await addContact(database.db, SISTER, 'boss@acme.example', contactRoles.admin);
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
  await post('/api/sharedserver', boss, {
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
  const view = await post('/api/fulfillments/entitlements', boss, {
    customerNumber: CN,
    serverId: EMPTY,
    serverIdType: 'ETHERNET',
  });
  const fid = (view.json().data as { fulfillments: { FulfillmentID: number }[] }[])[0].fulfillments[0]
    .FulfillmentID;
  expect(
    (
      await post('/api/fulfillments/return', boss, {
        customerNumber: CN,
        activations: [{ id: fid, count: -1 }],
      })
    ).statusCode,
  ).toBe(200);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const licenseOf = (headers: Headers | undefined, serverId: string, extra: object = {}) =>
  post('/api/fulfillments/license', headers, {
    customerNumber: CN,
    serverId,
    serverIdType: serverId === TRIAD.ids ? 'ETHERNET,ETHERNET,ETHERNET' : 'ETHERNET',
    ...extra,
  });

describe('license text of a host', () => {
  it('answers 401 without a session, 403 to an outsider and 404 for a host the account does not use', async () => {
    expect((await licenseOf(undefined, TRIAD.ids)).statusCode).toBe(401);
    const foreign = await post('/api/fulfillments/license', outsider, {
      customerNumber: CN,
      serverId: TRIAD.ids,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.body).not.toContain('lic1');
    const unknown = await licenseOf(boss, 'dd0000000001');
    expect(unknown.statusCode).toBe(404);
    const bad = await licenseOf(boss, 'xyz');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      status: 'FAILURE',
      err: 'Invalid ETHERNET server id: xyz. It must be 12 hexadecimal (0-9, a-f, or A-F) digits.',
      code: 'BAD_REQUEST',
    });
  });

  it('writes a triad file per daemon, every feature line signed with a published key', async () => {
    const res = await licenseOf(boss, TRIAD.ids);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.licenseFileName).toBe(`license_${CN}_${TRIAD.canonical}.lic`);
    expect(Object.keys(body.licenseText).sort()).toEqual(['cfdlmd', 'mechlmd']);
    const text: string = body.text;
    expect(text.match(/^SERVER .*$/gm)).toEqual([
      'SERVER lic1 aa0000000001 1055',
      'SERVER lic2 aa0000000002 1055',
      'SERVER lic3 aa0000000003 1055',
    ]);
    expect(text).toMatch(/^VENDOR cfdlmd$/m);
    expect(text).toMatch(/^VENDOR mechlmd$/m);
    expect(text).toContain('# Solver, LF-LEASE, 4400001');
    expect(text).toMatch(/INCREMENT cfd_solver cfdlmd \S+ \d{2}-[a-z]{3}-\d{4} 2 /);
    expect(text).toMatch(/INCREMENT cfd_solver cfdlmd \S+ permanent 3 /);
    expect(text).toContain(`VENDOR_STRING=customer:${CN}`);
    // BORROW only on the Network Borrow line.
    const mech = body.licenseText.mechlmd as string;
    expect(mech).toMatch(/BORROW/);
    expect(body.licenseText.cfdlmd).not.toMatch(/BORROW/);
    expect(body.shared).toEqual([]);
    const verdicts = verifyLicenseText(text, await publicKeys());
    expect(verdicts.length).toBe(3);
    expect(verdicts.every((v) => v.verdict === 'valid')).toBe(true);
  });

  it("the host's Borrowable setting decides: a caller may leave BORROW out, never add it", async () => {
    const without = await licenseOf(boss, TRIAD.ids, { ansysborrowed: false });
    expect(without.json().licenseText.mechlmd).not.toMatch(/BORROW/);
    await lease(CN, 'LF-LOAN2', { licenseModel: 'Network Borrow', partNumber: 'LF-MECH' });
    await activate(CN, 'noborrow1', 'ff0000000001', [{ id: 'LF-LOAN2', count: 1 }]);
    const forced = await licenseOf(reader, 'ff0000000001', { ansysborrowed: true });
    expect(forced.statusCode).toBe(200);
    expect(forced.json().text).not.toMatch(/BORROW/);
  });

  it('answers the spec text, not a 500, when stored data cannot go into a license file', async () => {
    const res = await licenseOf(boss, ODD);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ status: 'FAILURE', err: messages.errorLicenseFile, code: 'UNPROCESSABLE' });
  });

  it('answers that no daemon has activations for a host with everything returned', async () => {
    const res = await licenseOf(boss, EMPTY);
    expect(res.statusCode).toBe(409);
    expect(res.json().err).toBe(messages.noDaemonsWithActivations);
  });

  it("a shared host's files: the user's own accounts in the shared file, others' lines never", async () => {
    const res = await licenseOf(boss, SHARED);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.text).not.toContain(`customer:${SISTER}`);
    expect(body.shared).toHaveLength(1);
    expect(body.shared[0].fileName).toBe(`cfdlmd_license_${SHARED}_shared.lic`);
    expect(body.shared[0].text).toContain(`customer:${CN}`);
    expect(body.shared[0].text).toContain(`customer:${SISTER}`);
    // The reader sees only the first account: the sister's lines are not theirs to see.
    const asReader = await licenseOf(reader, SHARED);
    expect(asReader.statusCode).toBe(200);
    expect(asReader.body).not.toContain(SISTER);
    expect(asReader.json().shared).toEqual([]);
  });

  it('reports a customer without activations and tolerates it unless no customer has any', async () => {
    const res = await post('/api/fulfillments/licenses', boss, {
      hostId: EMPTY,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }, { customerNumber: SISTER }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((d: { status: string; err?: string }) => [d.status, d.err])).toEqual([
      ['FAILURE', messages.noDaemonsWithActivations],
      ['SUCCESS', undefined],
    ]);
    expect(body.merged.text).toContain(`customer:${SISTER}`);
    expect(body.merged.text).not.toContain(`customer:${CN}`);
    const none = await post('/api/fulfillments/licenses', boss, {
      hostId: EMPTY,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }],
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().err).toBe(messages.noDaemonsWithActivations);
  });

  it('merges several customers of a host', async () => {
    const res = await post('/api/fulfillments/licenses', boss, {
      hostId: SHARED,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }, { customerNumber: SISTER }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data.map((d: { status: string }) => d.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(body.merged.text.match(/^SERVER /gm)).toHaveLength(1);
    expect(body.merged.text.match(/^VENDOR cfdlmd$/gm)).toHaveLength(1);
    expect(body.merged.text.match(/^INCREMENT /gm)).toHaveLength(2);
    expect(verifyLicenseText(body.merged.text, await publicKeys()).every((v) => v.verdict === 'valid')).toBe(
      true,
    );
    const asReader = await post('/api/fulfillments/licenses', reader, {
      hostId: SHARED,
      hostIdType: 'ETHERNET',
      customers: [{ customerNumber: CN }, { customerNumber: SISTER }],
    });
    expect(asReader.statusCode).toBe(404);
    expect(asReader.body).not.toContain('Acme Sister');
  });

  it('downloads the merged file as an attachment, also for a view-only user', async () => {
    const res = await post('/api/fulfillments/download', reader, {
      customerNumber: CN,
      serverId: TRIAD.ids,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="license_${CN}_${TRIAD.canonical}.lic"`,
    );
    expect(res.body.match(/^INCREMENT /gm)).toHaveLength(3);
  });

  it('files signed before a key rotation still verify; new files carry the new key id', async () => {
    const before = (await licenseOf(boss, TRIAD.ids)).json().text as string;
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() });
    const keyId = await rotateSigningKey({ db: database.db, config });
    const keys = await publicKeys();
    expect(Object.keys(keys)).toContain(keyId);
    expect(verifyLicenseText(before, keys).every((v) => v.verdict === 'valid')).toBe(true);
    const after = (await licenseOf(boss, TRIAD.ids)).json().text as string;
    expect(verifyLicenseText(after, keys).every((v) => v.verdict === 'valid')).toBe(true);
    expect(verifyLicenseText(after, { [keyId]: keys[keyId] }).every((v) => v.verdict === 'valid')).toBe(true);
    const listed = (await app.inject({ method: 'GET', url: '/api/license-keys' })).json().data as {
      retiredAt: string | null;
    }[];
    expect(listed.filter((k) => k.retiredAt === null)).toHaveLength(1);
  });
});

describe('e-mail of a license file', () => {
  it("sends the server's own file to the account's support list with the user in copy", async () => {
    const res = await post('/api/fulfillments/email', boss, {
      customerNumber: CN,
      serverId: TRIAD.ids,
      serverIdType: 'ETHERNET,ETHERNET,ETHERNET',
      licenseText: 'INCREMENT forged',
      supportEmailTo: 'attacker@evil.example',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await database.db.select().from(emails).where(eq(emails.customerNumber, CN));
    expect(mail.to).toBe('it@acme.example');
    expect(mail.cc).toBe('boss@acme.example');
    const attachments = mail.attachments as { filename: string; contentBase64: string }[];
    expect(attachments[0].filename).toBe(`license_${CN}_${TRIAD.canonical}.lic`);
    const text = Buffer.from(attachments[0].contentBase64, 'base64').toString('utf8');
    expect(text).not.toContain('forged');
    expect(verifyLicenseText(text, await publicKeys()).every((v) => v.verdict === 'valid')).toBe(true);
    // The account's e-mail page shows the attachment as sent, and the keys' address works outside the portal.
    const detail = await post('/api/getemail', boss, { customerNumber: CN, id: mail.id });
    expect(detail.statusCode, detail.body).toBe(200);
    const shown = detail.json().data;
    expect(shown.attachments).toEqual([
      {
        fileName: `license_${CN}_${TRIAD.canonical}.lic`,
        contentType: 'text/plain',
        size: Buffer.byteLength(text),
        contentBase64: attachments[0].contentBase64,
      },
    ]);
    expect(shown.body).toMatch(/<a href="https?:\/\/[^"/]+(\/[^"]*)?\/api\/license-keys"[^>]*>https?:/);
    expect(shown.body).not.toMatch(/ at \/api\/license-keys/);
  });

  it('counts against the hourly e-mail limit of the user (decision 045): past it 429, nothing queued', async () => {
    // A node allowing one e-mail a user an hour: the boss has sent one above.
    const strict = await createTestApp(database, { MAIL_USER_LIMIT_PER_HOUR: '1' });
    try {
      const before = await database.db.$count(emails, eq(emails.customerNumber, CN));
      const res = await strict.inject({
        method: 'POST',
        url: '/api/fulfillments/email',
        headers: boss,
        payload: { customerNumber: CN, serverId: TRIAD.ids, serverIdType: 'ETHERNET,ETHERNET,ETHERNET' },
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().err).toBe(messages.userMailLimit(1));
      expect(await database.db.$count(emails, eq(emails.customerNumber, CN))).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('refuses view-only users and accounts without a support address', async () => {
    const asReader = await post('/api/fulfillments/email', reader, {
      customerNumber: CN,
      serverId: TRIAD.ids,
    });
    expect(asReader.statusCode).toBe(403);
    expect(asReader.json().err).toBe(messages.noPermission);
    const sister = await post('/api/fulfillments/email', boss, {
      customerNumber: SISTER,
      serverId: SHARED,
      serverIdType: 'ETHERNET',
    });
    expect(sister.statusCode).toBe(409);
    expect(sister.json().err).toBe(messages.noSupportEmail);
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

  it('reads a triad from an existing license file', async () => {
    const res = await upload(boss, form({ customerNumber: CN }, { name: 'old.lic', content: licenseFile }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      serverName: 'alpha,beta,gamma',
      serverId: '0050569a1b2c,0050569a1b2d,0050569a1b2e',
      numServers: 3,
      // The SERVER lines' port is kept for the new host (issue 21).
      portNumber: 27000,
    });
  });

  it('reads lmhostid output', async () => {
    const text =
      'lmhostid - Copyright (c) 1989-2024 Flexera. All Rights Reserved.\nThe FlexNet host ID of this machine is "0050569a1b2c"\n';
    const res = await upload(boss, form({ customerNumber: CN }, { name: 'hostid.txt', content: text }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.serverId).toBe('0050569a1b2c');
  });

  it('refuses what it cannot read, naming the line, and never answers 500', async () => {
    const bad = await upload(
      boss,
      form({ customerNumber: CN }, { name: 'x.txt', content: 'hello\nworld wide web\n' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().status).toBe('FAILURE');
    expect(bad.json().err).toMatch(/line \d/i);
    const noFile = await upload(boss, form({ customerNumber: CN }));
    expect(noFile.statusCode).toBe(400);
    const noCustomer = await upload(boss, form({}, { name: 'old.lic', content: licenseFile }));
    expect(noCustomer.statusCode).toBe(400);
    const big = await upload(
      boss,
      form({ customerNumber: CN }, { name: 'big.lic', content: Buffer.alloc(1_100_000, 0x41) }),
    );
    expect(big.statusCode).toBe(413);
    const json = await post('/api/uploadserverid', boss, { customerNumber: CN });
    expect(json.statusCode).toBe(415);
  });

  it('answers 401 without a session and 403 to an outsider', async () => {
    const body = form({ customerNumber: CN }, { name: 'old.lic', content: licenseFile });
    expect((await upload(undefined, body)).statusCode).toBe(401);
    expect((await upload(outsider, body)).statusCode).toBe(403);
  });
});
