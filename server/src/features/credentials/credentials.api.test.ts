import os from 'node:os';
import { messages } from '@lp/contract/common/errors';
import { contactRoles } from '@lp/domain/policy';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addContact, buildAccount, buildLicenseServer } from '../../../harness/factories.ts';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { buildAccountFixture, signInStaff } from '../../../test/account-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { elasticServerSettings, licenseServers } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { unknownServer } from '../ip-rules/service.ts';
import { getElasticServerPolicy, noElasticServer } from './service.ts';

const CN = '4100001';
const OTHER = '4100002';
const BARE = '4100003';
const CLS = 'ELASTIC-CRED-1';
const CLS_B = 'ELASTIC-CRED-2';
type Headers = Record<string, string>;

let database: TestDatabase;
let app: FastifyInstance;
let boss: Headers;
let reader: Headers;
let outsider: Headers;
let bareBoss: Headers;
let busops: Headers;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  ({ boss, reader, outsider } = await buildAccountFixture(database.db, CN, OTHER));
  await buildAccount(database.db, { customerNumber: BARE, name: 'Bare' });
  const server = (customerNumber: string, hostIdentity: string, kind: string, state = 'Active') =>
    buildLicenseServer(database.db, customerNumber, {
      hostIdentity,
      kind,
      state,
      alias: `${hostIdentity}-alias`,
    });
  // One at a time: ids (and so "the account's server", the oldest) follow this order.
  await server(CN, CLS, 'elastic');
  await server(CN, CLS_B, 'elastic');
  await server(CN, 'OLD-ELASTIC', 'elastic', 'Inactive');
  await server(CN, 'ONPREM-1', 'flexlm');
  await server(OTHER, 'OTHER-CLS', 'elastic');
  await server(BARE, 'BARE-ONPREM', 'flexlm');
  await addContact(database.db, BARE, 'boss@bare.example', contactRoles.admin);
  bareBoss = (await signInAs(database.db, 'boss@bare.example')).headers;
  busops = await signInStaff(database.db, 'busops');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

const post = (url: string, headers: Headers | undefined, payload: unknown) =>
  app.inject({ method: 'POST', url, headers, payload: payload as object });
const device = (headers: Headers | undefined, customerNumber = CN) =>
  post('/api/devices/elastic', headers, { customerNumber, customerName: 'Acme' });
const getPin = (headers: Headers | undefined, clsId = CLS, customerNumber = CN) =>
  post('/api/getpin', headers, { customerNumber, customerName: 'Acme', clsId });
const generatePin = (headers: Headers | undefined, clsId = CLS, customerNumber = CN) =>
  post('/api/generatepin', headers, { customerNumber, clsId });
const changePin = (headers: Headers | undefined, pin: unknown, clsId = CLS, customerNumber = CN) =>
  post('/api/changepin', headers, { clsId, customerNumber, pin });
const getUsers = (headers: Headers | undefined, clsId = CLS, customerNumber = CN) =>
  post('/api/getUsers', headers, { customerNumber, customerName: 'Acme', clsId });
const saveUsers = (headers: Headers | undefined, users: unknown, clsId = CLS, customerNumber = CN) =>
  post('/api/saveUsers', headers, { clsId, customerNumber, users });

const storedRow = async (clsId = CLS) => {
  const [row] = await database.db
    .select()
    .from(elasticServerSettings)
    .where(and(eq(elasticServerSettings.customerNumber, CN), eq(elasticServerSettings.clsId, clsId)));
  return row;
};
const currentPin = async (clsId = CLS) =>
  (await getPin(busops, clsId)).json().data?.pin as string | undefined;
const currentUsers = async (clsId = CLS) => (await getUsers(busops, clsId)).json().data.users as string[];
/** A context like the test app's: the same data folder, so the same PIN key. */
const policyCtx = (): AppContext => ({
  config: loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir() }),
  database,
  db: database.db,
  secret: Buffer.alloc(32),
  log: app.log,
});

/** Every refusal for a server that is not one of the account's active elastic servers looks the same. */
async function expectUnknownServer(call: (clsId: string) => ReturnType<typeof post>) {
  for (const cls of ['OTHER-CLS', 'OLD-ELASTIC', 'ONPREM-1', 'made-up']) {
    const res = await call(cls);
    expect(res.statusCode, cls).toBe(404);
    expect(res.json(), cls).toMatchObject({ status: 'FAILURE', err: unknownServer });
  }
}

describe('POST /api/devices/elastic', () => {
  it("answers the account's (oldest active) elastic license server to viewers", async () => {
    const res = await device(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { deviceId: CLS, alias: `${CLS}-alias` } });
  });

  it('answers an empty alias when the server has none', async () => {
    await database.db
      .update(licenseServers)
      .set({ alias: null })
      .where(eq(licenseServers.hostIdentity, 'OTHER-CLS'));
    const res = await device(outsider, OTHER);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { deviceId: 'OTHER-CLS', alias: '' } });
  });

  it('refuses anonymous (401), outsiders (403), bad bodies (400); 404 without an elastic server', async () => {
    expect((await device(undefined)).statusCode).toBe(401);
    const foreign = await device(outsider);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().err).toBe(messages.noPermissionPage);
    expect(JSON.stringify(foreign.json())).not.toContain(CLS);
    const bad = await post('/api/devices/elastic', boss, { customerNumber: 42 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: customerNumber/);
    const none = await device(bareBoss, BARE);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ status: 'FAILURE', err: noElasticServer });
  });
});

describe('PIN', () => {
  it('a server without a PIN answers pin null, not an error status (decision 051)', async () => {
    const res = await getPin(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { pin: null } });
  });

  it('a view-only user cannot set the PIN of a server without one (403), and reading writes nothing', async () => {
    // Issue 20 §7, spec 001 §6: view-only users cannot edit the PIN, and setting the first one is an edit.
    const viewer = await generatePin(reader);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    expect((await getPin(reader)).json().data).toEqual({ pin: null });
    expect((await getPin(boss)).json().data).toEqual({ pin: null });
    expect(await storedRow()).toBeUndefined();
    expect(await auditEntriesOf(database.db, 'credentials.pin.')).toEqual([]);
  });

  it('generatepin gives it a random six-digit PIN, stored encrypted, and never replaces it', async () => {
    // Servers made before PINs came with the server get theirs from the first user who may edit the account.
    const res = await generatePin(boss);
    expect(res.statusCode).toBe(200);
    const pin = res.json().data.pin as string;
    expect(pin).toMatch(/^[0-9]{6}$/);
    expect(await currentPin()).toBe(pin);
    const row = await storedRow();
    expect(row.pinCipher).toMatch(/^v1:/);
    expect(row.pinCipher).not.toContain(pin);
    // Called again (a second tab, a retry), it answers the same PIN and leaves the stored value alone.
    const again = await generatePin(boss);
    expect(again.json()).toEqual({ status: 'SUCCESS', data: { pin } });
    expect((await storedRow()).pinCipher).toBe(row.pinCipher);
  });

  it('pages racing to generate all end up with the one PIN that was stored', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => generatePin(boss, CLS_B)));
    const pins = new Set(answers.map((r) => r.json().data.pin));
    expect(pins.size).toBe(1);
    expect(await currentPin(CLS_B)).toBe([...pins][0]);
  });

  it('an administrator changes the PIN; the new one is stored encrypted and read back', async () => {
    const before = (await storedRow()).pinCipher;
    const res = await changePin(boss, '012345');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS' });
    expect(await currentPin()).toBe('012345');
    const after = (await storedRow()).pinCipher!;
    expect(after).not.toBe(before);
    expect(after).not.toContain('012345');
    // Vendor business operations may change it as well.
    expect((await changePin(busops, '987654')).statusCode).toBe(200);
    expect((await getPin(reader)).json()).toEqual({ status: 'SUCCESS', data: { pin: '987654' } });
  });

  it('refuses PINs that are not exactly six digits with the spec message, keeping the stored PIN', async () => {
    const before = await currentPin();
    for (const pin of [
      '',
      '12345',
      '1234567',
      '12345.6',
      '12.345',
      '-12345',
      ' 123456',
      '12 456',
      'abcdef',
      '１２３４５６',
    ]) {
      const res = await changePin(boss, pin);
      expect(res.statusCode, pin).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.invalidPin });
    }
    const numeric = await changePin(boss, 123456);
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().err).toMatch(/^Invalid request: pin/);
    expect(await currentPin()).toBe(before);
  });

  it('refuses view-only users (403), outsiders (403), anonymous (401) and unknown servers (404)', async () => {
    const before = await currentPin();
    const viewer = await changePin(reader, '111111');
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().err).toBe(messages.noPermission);
    expect((await changePin(outsider, '111111')).statusCode).toBe(403);
    expect((await changePin(outsider, '111111', 'OTHER-CLS')).statusCode).toBe(403);
    expect((await changePin(undefined, '111111')).statusCode).toBe(401);
    await expectUnknownServer((cls) => changePin(boss, '111111', cls));
    expect(await currentPin()).toBe(before);
  });

  it('reading and generating: 401 anonymous, 403 outsiders (learning nothing), 404 unknown servers', async () => {
    for (const call of [getPin, generatePin]) {
      expect((await call(undefined)).statusCode).toBe(401);
      const foreign = await call(outsider);
      expect(foreign.statusCode).toBe(403);
      expect(JSON.stringify(foreign.json())).not.toMatch(/[0-9]{6}/);
      expect((await call(outsider, 'OTHER-CLS')).statusCode).toBe(403);
      await expectUnknownServer((cls) => call(boss, cls));
      const bad = await post('/api/getpin', boss, { customerNumber: CN });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().err).toMatch(/^Invalid request: clsId/);
    }
    // Generating for a foreign server stored nothing for it under this account.
    expect(await storedRow('OTHER-CLS')).toBeUndefined();
  });
});

describe('a PIN stored under another key', () => {
  it('is never shown or replaced: the calls answer 503 (decision 043) and the stored value stays', async () => {
    const stored = (await storedRow()).pinCipher;
    const otherKey = await createTestApp(database, { PIN_ENCRYPTION_KEY: 'ab'.repeat(32) });
    try {
      for (const call of ['/api/getpin', '/api/generatepin']) {
        const res = await otherKey.inject({
          method: 'POST',
          url: call,
          headers: boss,
          payload: { customerNumber: CN, clsId: CLS },
        });
        expect(res.statusCode, call).toBe(503);
        expect(res.json(), call).toEqual({
          status: 'FAILURE',
          code: 'UNAVAILABLE',
          err: messages.sealedKeysUnavailable,
        });
      }
    } finally {
      await otherKey.close();
    }
    expect((await storedRow()).pinCipher).toBe(stored);
    expect(await currentPin()).toMatch(/^[0-9]{6}$/);
  });
});

describe('allowed usernames', () => {
  it('start empty (everyone with the PIN) and are readable by viewers', async () => {
    const res = await getUsers(reader, CLS_B);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { users: [] } });
  });

  it('are saved as typed, in order, without touching the PIN', async () => {
    const pin = await currentPin();
    const users = ['alice', 'Bob.Smith', 'DOMAIN\\carol', 'dave@example.com'];
    const res = await saveUsers(boss, users);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS' });
    expect(await currentUsers()).toEqual(users);
    expect((await getUsers(reader)).json().data.users).toEqual(users);
    expect(await currentPin()).toBe(pin);
    // And changing the PIN keeps the list.
    expect((await changePin(boss, '246810')).statusCode).toBe(200);
    expect(await currentUsers()).toEqual(users);
  });

  it('refuses bad lists with the spec message, keeping the stored list', async () => {
    const before = await currentUsers();
    for (const users of [
      [''],
      ['alice', ''],
      ['al ice'],
      ['tab\there'],
      ['jürgen'],
      ['alice', 'ALICE'],
      Array.from({ length: 1001 }, (_, i) => `u${i}`),
      ['x'.repeat(257)],
    ]) {
      const res = await saveUsers(boss, users);
      expect(res.statusCode, JSON.stringify(users).slice(0, 40)).toBe(400);
      expect(res.json()).toMatchObject({ status: 'FAILURE', err: messages.invalidUsernames });
    }
    for (const users of ['alice', [1, 2], null]) {
      const res = await saveUsers(boss, users);
      expect(res.statusCode).toBe(400);
      expect(res.json().err).toMatch(/^Invalid request: users/);
    }
    expect(await currentUsers()).toEqual(before);
  });

  it('refuses view-only users (403), outsiders (403), anonymous (401) and unknown servers (404)', async () => {
    const before = await currentUsers();
    const viewer = await saveUsers(reader, ['mallory']);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().err).toBe(messages.noPermission);
    expect((await saveUsers(outsider, ['mallory'])).statusCode).toBe(403);
    expect((await saveUsers(undefined, ['mallory'])).statusCode).toBe(401);
    await expectUnknownServer((cls) => saveUsers(boss, ['mallory'], cls));
    expect(await currentUsers()).toEqual(before);
    expect((await getUsers(undefined)).statusCode).toBe(401);
    expect((await getUsers(outsider)).statusCode).toBe(403);
    await expectUnknownServer((cls) => getUsers(boss, cls));
  });

  it('an empty list allows everyone again; busops may save', async () => {
    expect((await saveUsers(busops, [])).statusCode).toBe(200);
    expect(await currentUsers()).toEqual([]);
    expect((await saveUsers(boss, ['erin'])).statusCode).toBe(200);
  });
});

describe('getElasticServerPolicy (for the license-server API)', () => {
  it('answers the decrypted PIN and the users as saved; null and [] for a server without settings', async () => {
    const ctx = policyCtx();
    expect(await getElasticServerPolicy(ctx, CN, CLS)).toEqual({
      pin: '246810',
      users: ['erin'],
    });
    expect(await getElasticServerPolicy(ctx, OTHER, 'OTHER-CLS')).toEqual({
      pin: null,
      users: [],
    });
  });
});
