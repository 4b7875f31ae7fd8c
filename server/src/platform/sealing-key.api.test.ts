import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messages } from '@lp/contract/common/errors';
import { verifyLicenseText } from '@lp/domain/license-signature';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLease, buildLicenseServer } from '../../harness/factories.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { buildAccountFixture } from '../../test/account-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
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

const CN = '4300001';
const OTHER = '4300002';
const CLS = 'SEALED-CLS-1';
const HOST = 'ab0000000043';
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');
type Headers = Record<string, string>;

let database: TestDatabase;
let right: FastifyInstance;
let boss: Headers;
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-sealed-'));
  dirs.push(dir);
  return dir;
};

const post = (app: FastifyInstance, url: string, payload: object) =>
  app.inject({ method: 'POST', url, headers: boss, payload });
const host = { customerNumber: CN, serverId: HOST, serverIdType: 'ETHERNET' };

/** Every call that opens or seals a secret, as a signed-in administrator makes it. */
const sealedCalls = (app: FastifyInstance) => ({
  'license text': () => post(app, '/api/fulfillments/license', host),
  download: () => post(app, '/api/fulfillments/download', host),
  'e-mail': () => post(app, '/api/fulfillments/email', host),
  'PIN generation': () => post(app, '/api/generatepin', { customerNumber: CN, clsId: CLS }),
  'PIN read': () => post(app, '/api/getpin', { customerNumber: CN, customerName: 'Acme', clsId: CLS }),
  'PIN change': () => post(app, '/api/changepin', { customerNumber: CN, clsId: CLS, pin: '123456' }),
});

/** What a wrong key must leave exactly as it was. */
const sealedState = async () => ({
  keys: await database.db.select().from(licenseSigningKeys).orderBy(asc(licenseSigningKeys.keyId)),
  pins: await database.db.select().from(elasticServerSettings),
  emails: await database.db.select().from(emails),
  check: await database.db.select().from(appSettings).where(eq(appSettings.key, 'sealing-key-check')),
});

beforeAll(async () => {
  database = await createTestDatabase();
  right = await createTestApp(database, { PIN_ENCRYPTION_KEY: KEY_A, DATA_DIR: tempDir() });
  ({ boss } = await buildAccountFixture(database.db, CN, OTHER));
  await database.db.update(accounts).set({ supportEmail: 'it@acme.example' });
  await database.db.insert(products).values({
    partNumber: 'SK-SOLVER',
    name: 'Solver',
    family: 'Fluids',
    daemon: 'cfdlmd',
    featureName: 'cfd',
  });
  await buildLease(database.db, CN, 'SK-LEASE', { partNumber: 'SK-SOLVER' });
  const created = await post(right, '/api/fulfillments/create', {
    customerNumber: CN,
    serverName: 'sealed1',
    serverId: HOST,
    serverIdType: 'ETHERNET',
    activations: [{ id: 'SK-LEASE', count: 2 }],
  });
  expect(created.statusCode, created.body).toBe(200);
  await buildLicenseServer(database.db, CN, { hostIdentity: CLS, kind: 'elastic' });
  // With the right key every call works: the signing key and the PIN get sealed.
  for (const [name, call] of Object.entries(sealedCalls(right)))
    expect((await call()).statusCode, name).toBe(200);
});

afterAll(async () => {
  await right?.close();
  await database?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function expectRefusals(app: FastifyInstance) {
  for (const [name, call] of Object.entries(sealedCalls(app))) {
    const res = await call();
    expect(res.statusCode, name).toBe(503);
    expect(res.json(), name).toEqual({
      status: 'FAILURE',
      err: messages.sealedKeysUnavailable,
      code: 'UNAVAILABLE',
    });
  }
}

describe('a server whose key is not the one the secrets were sealed with', () => {
  it('answers 503 on license files and PINs and changes nothing; the right key still works', async () => {
    const before = await sealedState();
    const wrong = await createTestApp(database, { PIN_ENCRYPTION_KEY: KEY_B, DATA_DIR: tempDir() });
    try {
      await expectRefusals(wrong);
      // What needs no secret still answers.
      const keys = await wrong.inject({ method: 'GET', url: '/api/license-keys' });
      expect(keys.statusCode).toBe(200);
    } finally {
      await wrong.close();
    }
    expect(await sealedState()).toEqual(before);
    const text = (await post(right, '/api/fulfillments/license', host)).json().text as string;
    const published = Object.fromEntries(
      before.keys.map((k) => [k.keyId, k.publicKeyPem] as [string, string]),
    );
    expect(verifyLicenseText(text, published).map((v) => v.verdict)).toEqual(['valid']);
  });

  it('answers 503 without a key at all, and never generates a key file next to sealed secrets', async () => {
    const before = await sealedState();
    const dataDir = tempDir();
    const keyless = await createTestApp(database, { DATA_DIR: dataDir });
    try {
      await expectRefusals(keyless);
    } finally {
      await keyless.close();
    }
    expect(fs.existsSync(path.join(dataDir, KEY_FILE))).toBe(false);
    expect(await sealedState()).toEqual(before);
  });
});

describe('proving the key', () => {
  const config = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'test', DATA_DIR: tempDir(), ...env });
  const fixOf = async (env: Record<string, string>) => {
    const cfg = config(env);
    const error = await sealingKey({ db: database.db, config: cfg }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SealingKeyError);
    return { fix: (error as SealingKeyError).operatorFix, dataDir: cfg.DATA_DIR };
  };

  it('names the setting that is wrong or missing', async () => {
    expect((await fixOf({ PIN_ENCRYPTION_KEY: KEY_B })).fix).toMatch(
      /^PIN_ENCRYPTION_KEY does not open the secrets sealed in this database/,
    );
    const missing = await fixOf({});
    expect(missing.fix).toContain(
      `PIN_ENCRYPTION_KEY is not set and ${path.resolve(missing.dataDir, KEY_FILE)} does not exist`,
    );
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, KEY_FILE), `${KEY_B}\n`);
    expect((await fixOf({ DATA_DIR: dataDir })).fix).toMatch(
      new RegExp(`^the key file ${path.join(dataDir, KEY_FILE)} does not open the secrets`),
    );
  });

  it('checks an installation sealed before the check value existed against its sealed values', async () => {
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

  it('on a database with nothing sealed, generates the key file once and makes it the key', async () => {
    const empty = await createTestDatabase();
    try {
      const dataDir = tempDir();
      const first = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
      const key = await sealingKey({ db: empty.db, config: first });
      expect(fs.readFileSync(path.join(dataDir, KEY_FILE), 'utf8').trim()).toBe(key.toString('hex'));
      // Another node with a key file of its own cannot start sealing beside it.
      const other = loadConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() });
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
