import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { messages } from '@lp/contract/common/errors';
import { credentialsApi } from '@lp/contract/credentials/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { verifyLicenseText } from '@lp/domain/license-signature';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { buildLease, buildLicenseServer } from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { activationCalls } from '../../test/activation-calls.ts';
import { acme, anonymous, apiOf, apiTest } from '../../test/api-fixture.ts';
import { createTestDatabase } from '../../test/test-db.ts';
import {
  accounts,
  appSettings,
  elasticServerSettings,
  emails,
  licenseSigningKeys,
  products,
} from '../db/schema.ts';
import { loadConfig } from './config.ts';
import { sealingKey } from './sealing-key.ts';
import { KEY_FILE, SealingKeyError } from './secret-box.ts';

/**
 * Decision 043: a server whose sealing key does not open the database's secrets answers 503 with the catalogue's
 * text wherever it needs them, seals nothing new, and generates no key file of its own.
 */

const CN = acme.customerNumber;
const CLS = 'SEALED-CLS-1';
const HOST = 'ab0000000043';
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');

const host = { customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' };

const test = apiTest
  // The fixture's app is the one with the right key.
  .override('appEnv', { scope: 'file' }, async ({ tempDir }) => ({
    PIN_ENCRYPTION_KEY: KEY_A,
    DATA_DIR: tempDir,
  }))
  .extend('sealed', { scope: 'file' }, async ({ database, tempDir, cast: { boss } }) => {
    const { db } = database;
    return {
      /** A folder of its own (a DATA_DIR) inside the file's. */
      freshDir: () => fs.mkdtempSync(path.join(tempDir, 'sealed-')),
      /** Every call that opens or seals a secret, as a signed-in administrator makes it. */
      calls: (app: FastifyInstance) => {
        const { call } = apiOf(app);
        return {
          'license text': () => call(boss, licenseFilesApi.license, host),
          download: () => call(boss, licenseFilesApi.download, host),
          'e-mail': () => call(boss, licenseFilesApi.email, host),
          'PIN generation': () => call(boss, credentialsApi.generatePin, { customerNumber: CN, clsId: CLS }),
          'PIN read': () =>
            call(boss, credentialsApi.getPin, { customerNumber: CN, customerName: 'Acme', clsId: CLS }),
          'PIN change': () =>
            call(boss, credentialsApi.changePin, { customerNumber: CN, clsId: CLS, pin: '123456' }),
        };
      },
      /** What a wrong key must leave exactly as it was. */
      state: async () => ({
        keys: await db.select().from(licenseSigningKeys).orderBy(asc(licenseSigningKeys.keyId)),
        pins: await db.select().from(elasticServerSettings),
        emails: await db.select().from(emails),
        check: await db.select().from(appSettings).where(eq(appSettings.key, 'sealing-key-check')),
      }),
    };
  })
  .extend('expectRefusals', { scope: 'file' }, async ({ sealed }) => async (app: FastifyInstance) => {
    for (const [name, call] of Object.entries(sealed.calls(app))) {
      const res = await call();
      expect(res.statusCode, name).toBe(503);
      expect(res.json(), name).toEqual({
        status: 'FAILURE',
        err: messages.sealedKeysUnavailable,
        code: 'UNAVAILABLE',
      });
    }
  })
  .extend('proof', { scope: 'file' }, async ({ database, sealed }) => {
    const config = (env: Record<string, string>) =>
      loadConfig({ NODE_ENV: 'test', DATA_DIR: sealed.freshDir(), ...env });
    return {
      config,
      /** The operator's fix the start prints when the key of `env` does not open the database's secrets. */
      fixOf: async (env: Record<string, string>) => {
        const cfg = config(env);
        const error = await sealingKey({ db: database.db, config: cfg }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SealingKeyError);
        return { fix: (error as SealingKeyError).operatorFix, dataDir: cfg.DATA_DIR };
      },
    };
  });

test.beforeAll(async ({ api, app, database, sealed, cast: { boss } }) => {
  await database.db.update(accounts).set({ supportEmail: 'it@acme.example' });
  await database.db.insert(products).values({
    partNumber: 'SK-SOLVER',
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd',
  });
  await buildLease(database.db, CN, 'SK-LEASE', { partNumber: 'SK-SOLVER' });
  await activationCalls(api, boss, CN).create({
    serverName: 'sealed1',
    serverId: HOST,
    activations: [{ id: 'SK-LEASE', count: 2 }],
  });
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic' });
  // With the right key every call works: the signing key and the PIN get sealed.
  for (const [name, call] of Object.entries(sealed.calls(app)))
    expect((await call()).statusCode, name).toBe(200);
});

describe('a server whose key is not the one the secrets were sealed with', () => {
  test('answers 503 on license files and PINs and changes nothing; the right key still works', async ({
    api,
    database,
    sealed,
    expectRefusals,
    cast: { boss },
  }) => {
    const before = await sealed.state();
    const wrong = await createTestApp(database, { PIN_ENCRYPTION_KEY: KEY_B, DATA_DIR: sealed.freshDir() });
    try {
      await expectRefusals(wrong);
      // What needs no secret still answers.
      await apiOf(wrong).ok(anonymous, licenseFilesApi.keys, undefined);
    } finally {
      await wrong.close();
    }
    expect(await sealed.state()).toEqual(before);
    const { text } = await api.ok(boss, licenseFilesApi.license, host);
    const published = Object.fromEntries(
      before.keys.map((k) => [k.keyId, k.publicKeyPem] as [string, string]),
    );
    expect(verifyLicenseText(text, published).map((v) => v.verdict)).toEqual(['valid']);
  });

  test('answers 503 without a key at all, and never generates a key file next to sealed secrets', async ({
    database,
    sealed,
    expectRefusals,
  }) => {
    const before = await sealed.state();
    const dataDir = sealed.freshDir();
    const keyless = await createTestApp(database, { DATA_DIR: dataDir });
    try {
      await expectRefusals(keyless);
    } finally {
      await keyless.close();
    }
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
    expect(await sealed.state()).toEqual(before);
  });
});

describe('proving the key', () => {
  test('names the setting that is wrong or missing', async ({ sealed, proof: { fixOf } }) => {
    expect((await fixOf({ PIN_ENCRYPTION_KEY: KEY_B })).fix).toMatch(
      /^PIN_ENCRYPTION_KEY does not open the secrets sealed in this database/,
    );
    const missing = await fixOf({});
    expect(missing.fix).toContain(
      `PIN_ENCRYPTION_KEY is not set and ${path.resolve(missing.dataDir, KEY_FILE)} does not exist`,
    );
    const dataDir = sealed.freshDir();
    fs.writeFileSync(path.join(dataDir, KEY_FILE), `${KEY_B}\n`);
    expect((await fixOf({ DATA_DIR: dataDir })).fix).toMatch(
      new RegExp(`^the key file ${path.join(dataDir, KEY_FILE)} does not open the secrets`),
    );
  });

  test('checks an installation sealed before the check value existed against its sealed values', async ({
    database,
    proof: { config, fixOf },
  }) => {
    const [check] = await database.db
      .select()
      .from(appSettings)
      .where(eq(appSettings.key, 'sealing-key-check'));
    await database.db.delete(appSettings).where(eq(appSettings.key, 'sealing-key-check'));
    try {
      await fixOf({ PIN_ENCRYPTION_KEY: KEY_B });
      expect(
        await database.db.select().from(appSettings).where(eq(appSettings.key, 'sealing-key-check')),
      ).toEqual([]);
      const key = await sealingKey({ db: database.db, config: config({ PIN_ENCRYPTION_KEY: KEY_A }) });
      expect(key.toString('hex')).toBe(KEY_A);
      // The right key wrote a new check value, which the wrong key does not open either.
      const [rewritten] = await database.db
        .select()
        .from(appSettings)
        .where(eq(appSettings.key, 'sealing-key-check'));
      expect(rewritten.value).not.toEqual(check.value);
      await fixOf({ PIN_ENCRYPTION_KEY: KEY_B });
    } finally {
      await database.db
        .insert(appSettings)
        .values(check)
        .onConflictDoUpdate({ target: appSettings.key, set: { value: check.value } });
    }
  });

  test('on a database with nothing sealed, generates the key file once and makes it the key', async ({
    sealed,
  }) => {
    // Not the fixture's database: this one must hold no sealed secret.
    const empty = await createTestDatabase();
    try {
      const dataDir = sealed.freshDir();
      const first = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      const key = await sealingKey({ db: empty.db, config: first });
      expect(fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8').trim()).toBe(key.toString('hex'));
      // Another node with a key file of its own cannot start sealing beside it.
      const other = loadConfig({ NODE_ENV: 'test', DATA_DIR: sealed.freshDir() });
      const error = await sealingKey({ db: empty.db, config: other }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SealingKeyError);
      expect(fs.existsSync(path.join(other.DATA_DIR, KEY_FILE))).toBe(false);
      const again = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      expect((await sealingKey({ db: empty.db, config: again })).equals(key)).toBe(true);
    } finally {
      await empty.close();
    }
  });
});
