import os from 'node:os';
import { messages } from '@lp/contract/common/errors';
import { credentialsApi } from '@lp/contract/credentials/api';
import { contactRoles } from '@lp/domain/policy';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect } from 'vitest';
import { addContact, buildAccount, buildLicenseServer } from '../../../harness/factories.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { acme, anonymous, apiOf, apiTest, type Caller, other } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import type { TestDatabase } from '../../../test/test-db.ts';
import { elasticServerSettings, licenseServers } from '../../db/schema.ts';
import { loadConfig } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { unknownServer } from '../ip-rules/service.ts';
import { getElasticServerPolicy, noElasticServer } from './service.ts';

const CN = acme.customerNumber;
const OTHER = other.customerNumber;
const BARE = '4100003';
const CLS = 'ELASTIC-CRED-1';
const CLS_B = 'ELASTIC-CRED-2';

/**
 * The PIN key of this file's app, named rather than read from the shared temporary folder's key file, so the
 * policy calls below open the PINs with exactly the key the app sealed them with.
 */
const PIN_KEY = 'c4'.repeat(32);

const test = apiTest
  .override('appEnv', { scope: 'file' }, { PIN_ENCRYPTION_KEY: PIN_KEY })
  /** The admin of an account without an elastic server. */
  .extend('bareBoss', { scope: 'file' }, async ({ database, signIn }) => {
    await buildAccount(database.db, { customerNumber: BARE, name: 'Bare' });
    await addContact(database.db, BARE, 'boss@bare.example', contactRoles.admin);
    return signIn('boss@bare.example');
  })
  /** The calls of this feature as the tests make them, with the account and server they usually name. */
  .extend('calls', { scope: 'file' }, async ({ api, database, cast }) => {
    const call = api.call;
    return {
      device: (who: Caller, customerNumber: string = CN) =>
        call(who, credentialsApi.elasticDevice, { customerNumber, customerName: 'Acme' }),
      getPin: (who: Caller, clsId = CLS, customerNumber: string = CN) =>
        call(who, credentialsApi.getPin, { customerNumber, customerName: 'Acme', clsId }),
      generatePin: (who: Caller, clsId = CLS, customerNumber: string = CN) =>
        call(who, credentialsApi.generatePin, { customerNumber, clsId }),
      changePin: (who: Caller, pin: unknown, clsId = CLS, customerNumber: string = CN) =>
        call(who, credentialsApi.changePin, { clsId, customerNumber, pin }),
      getUsers: (who: Caller, clsId = CLS, customerNumber: string = CN) =>
        call(who, credentialsApi.getUsers, { customerNumber, customerName: 'Acme', clsId }),
      saveUsers: (who: Caller, users: unknown, clsId = CLS, customerNumber: string = CN) =>
        call(who, credentialsApi.saveUsers, { clsId, customerNumber, users }),
      storedRow: async (clsId = CLS) => {
        const [row] = await database.db
          .select()
          .from(elasticServerSettings)
          .where(
            and(
              eq(elasticServerSettings.customerNumber, CN),
              eq(elasticServerSettings.elasticServerId, clsId),
            ),
          );
        return row;
      },
      currentPin: async (clsId = CLS) =>
        (
          await api.ok(cast.busops, credentialsApi.getPin, {
            customerNumber: CN,
            customerName: 'Acme',
            clsId,
          })
        ).data?.pin,
      currentUsers: async (clsId = CLS) =>
        (
          await api.ok(cast.busops, credentialsApi.getUsers, {
            customerNumber: CN,
            customerName: 'Acme',
            clsId,
          })
        ).data.users,
      /** Every refusal for a server that is not one of the account's active elastic servers looks the same. */
      expectUnknownServer: async (send: (clsId: string) => Promise<LightMyRequestResponse>) => {
        for (const cls of ['OTHER-CLS', 'OLD-ELASTIC', 'ONPREM-1', 'made-up']) {
          const res = await send(cls);
          expect(res.statusCode, cls).toBe(404);
          expect(res.json(), cls).toMatchObject({ status: 'FAILURE', err: unknownServer });
        }
      },
    };
  });

/** A context like the test app's: the same PIN key. */
const policyCtx = (database: TestDatabase, log: AppContext['log']): AppContext => ({
  config: loadConfig({ NODE_ENV: 'test', DATA_DIR: os.tmpdir(), PIN_ENCRYPTION_KEY: PIN_KEY }),
  database,
  db: database.db,
  secret: Buffer.alloc(32),
  log,
});

test.beforeAll(async ({ database, cast: _accounts, bareBoss: _bare }) => {
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
});

describe('getElasticDevice', () => {
  test("answers the account's (oldest active) elastic license server to viewers", async ({
    cast: { reader },
    calls: { device },
  }) => {
    const res = await device(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { deviceId: CLS, alias: `${CLS}-alias` } });
  });

  test('answers an empty alias when the server has none', async ({
    database,
    cast: { outsider },
    calls: { device },
  }) => {
    await database.db
      .update(licenseServers)
      .set({ alias: null })
      .where(eq(licenseServers.hostIdentity, 'OTHER-CLS'));
    const res = await device(outsider, OTHER);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { deviceId: 'OTHER-CLS', alias: '' } });
  });

  test('refuses anonymous (401), outsiders (403), bad bodies (400); 404 without an elastic server', async ({
    api,
    bareBoss,
    cast: { boss, outsider },
    calls: { device },
  }) => {
    expect((await device(anonymous)).statusCode).toBe(401);
    const foreign = await device(outsider);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().err).toBe(messages.noPermissionPage);
    expect(JSON.stringify(foreign.json())).not.toContain(CLS);
    const bad = await api.call(boss, credentialsApi.elasticDevice, { customerNumber: 42 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().err).toMatch(/^Invalid request: customerNumber/);
    const none = await device(bareBoss, BARE);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ status: 'FAILURE', err: noElasticServer });
  });
});

describe('PIN', () => {
  test('a server without a PIN answers pin null, not an error status (decision 051)', async ({
    cast: { reader },
    calls: { getPin },
  }) => {
    const res = await getPin(reader);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { pin: null } });
  });

  test('a view-only user cannot set the PIN of a server without one (403), and reading writes nothing', async ({
    database,
    cast: { boss, reader },
    calls: { getPin, generatePin, storedRow },
  }) => {
    // Issue 20 §7, spec 001 §6: view-only users cannot edit the PIN, and setting the first one is an edit.
    const viewer = await generatePin(reader);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json()).toMatchObject({ status: 'FAILURE', err: messages.noPermission });
    expect((await getPin(reader)).json().data).toEqual({ pin: null });
    expect((await getPin(boss)).json().data).toEqual({ pin: null });
    expect(await storedRow()).toBeUndefined();
    expect(await auditEntriesOf(database.db, 'credentials.pin.')).toEqual([]);
  });

  test('generatepin gives it a random six-digit PIN, stored encrypted, and never replaces it', async ({
    cast: { boss },
    calls: { generatePin, storedRow, currentPin },
  }) => {
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

  test('pages racing to generate all end up with the one PIN that was stored', async ({
    cast: { boss },
    calls: { generatePin, currentPin },
  }) => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => generatePin(boss, CLS_B)));
    const pins = new Set(answers.map((r) => r.json().data.pin));
    expect(pins.size).toBe(1);
    expect(await currentPin(CLS_B)).toBe([...pins][0]);
  });

  test('an administrator changes the PIN; the new one is stored encrypted and read back', async ({
    cast: { boss, reader, busops },
    calls: { getPin, changePin, storedRow, currentPin },
  }) => {
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

  test('refuses PINs that are not exactly six digits with the spec message, keeping the stored PIN', async ({
    cast: { boss },
    calls: { changePin, currentPin },
  }) => {
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

  test('refuses view-only users (403), outsiders (403), anonymous (401) and unknown servers (404)', async ({
    cast: { boss, reader, outsider },
    calls: { changePin, currentPin, expectUnknownServer },
  }) => {
    const before = await currentPin();
    const viewer = await changePin(reader, '111111');
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().err).toBe(messages.noPermission);
    expect((await changePin(outsider, '111111')).statusCode).toBe(403);
    expect((await changePin(outsider, '111111', 'OTHER-CLS')).statusCode).toBe(403);
    expect((await changePin(anonymous, '111111')).statusCode).toBe(401);
    await expectUnknownServer((cls) => changePin(boss, '111111', cls));
    expect(await currentPin()).toBe(before);
  });

  test('reading and generating: 401 anonymous, 403 outsiders (learning nothing), 404 unknown servers', async ({
    api,
    cast: { boss, outsider },
    calls: { getPin, generatePin, storedRow, expectUnknownServer },
  }) => {
    for (const send of [getPin, generatePin]) {
      expect((await send(anonymous)).statusCode).toBe(401);
      const foreign = await send(outsider);
      expect(foreign.statusCode).toBe(403);
      expect(JSON.stringify(foreign.json())).not.toMatch(/[0-9]{6}/);
      expect((await send(outsider, 'OTHER-CLS')).statusCode).toBe(403);
      await expectUnknownServer((cls) => send(boss, cls));
      const bad = await api.call(boss, credentialsApi.getPin, { customerNumber: CN });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().err).toMatch(/^Invalid request: clsId/);
    }
    // Generating for a foreign server stored nothing for it under this account.
    expect(await storedRow('OTHER-CLS')).toBeUndefined();
  });
});

describe('a PIN stored under another key', () => {
  test('is never shown or replaced: the calls answer 503 (decision 043) and the stored value stays', async ({
    database,
    cast: { boss },
    calls: { storedRow, currentPin },
  }) => {
    const stored = (await storedRow()).pinCipher;
    const otherKey = await createTestApp(database, { PIN_ENCRYPTION_KEY: 'ab'.repeat(32) });
    try {
      for (const operation of [credentialsApi.getPin, credentialsApi.generatePin]) {
        const refusal = await apiOf(otherKey).refused(
          boss,
          operation,
          { customerNumber: CN, clsId: CLS },
          503,
        );
        expect(refusal, operation.operationId).toEqual({
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
  test('start empty (everyone with the PIN) and are readable by viewers', async ({
    cast: { reader },
    calls: { getUsers },
  }) => {
    const res = await getUsers(reader, CLS_B);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { users: [] } });
  });

  test('are saved as typed, in order, without touching the PIN', async ({
    cast: { boss, reader },
    calls: { changePin, getUsers, saveUsers, currentPin, currentUsers },
  }) => {
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

  test('refuses bad lists with the spec message, keeping the stored list', async ({
    cast: { boss },
    calls: { saveUsers, currentUsers },
  }) => {
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

  test('refuses view-only users (403), outsiders (403), anonymous (401) and unknown servers (404)', async ({
    cast: { boss, reader, outsider },
    calls: { getUsers, saveUsers, currentUsers, expectUnknownServer },
  }) => {
    const before = await currentUsers();
    const viewer = await saveUsers(reader, ['mallory']);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().err).toBe(messages.noPermission);
    expect((await saveUsers(outsider, ['mallory'])).statusCode).toBe(403);
    expect((await saveUsers(anonymous, ['mallory'])).statusCode).toBe(401);
    await expectUnknownServer((cls) => saveUsers(boss, ['mallory'], cls));
    expect(await currentUsers()).toEqual(before);
    expect((await getUsers(anonymous)).statusCode).toBe(401);
    expect((await getUsers(outsider)).statusCode).toBe(403);
    await expectUnknownServer((cls) => getUsers(boss, cls));
  });

  test('an empty list allows everyone again; busops may save', async ({
    cast: { boss, busops },
    calls: { saveUsers, currentUsers },
  }) => {
    expect((await saveUsers(busops, [])).statusCode).toBe(200);
    expect(await currentUsers()).toEqual([]);
    expect((await saveUsers(boss, ['erin'])).statusCode).toBe(200);
  });
});

describe('getElasticServerPolicy (for the license-server API)', () => {
  test('answers the decrypted PIN and the users as saved; null and [] for a server without settings', async ({
    app,
    database,
  }) => {
    const ctx = policyCtx(database, app.log);
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
