import fs from 'node:fs';
import path from 'node:path';
import { desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { appSettings, elasticServerSettings, licenseSigningKeys } from '../db/schema.ts';
import type { Config } from './config.ts';
import { KEY_FILE, loadOrCreateKeyFile, readKeyFile, SealingKeyError, seal, unseal } from './secret-box.ts';

/**
 * The sealing key, proven against the database before anything is sealed or opened (decision 043). The database
 * holds a key check value: a known text sealed with the key, written the first time a key is proven. A process
 * whose key does not open it (another PIN_ENCRYPTION_KEY, a key file generated on another machine) seals
 * nothing and opens nothing: callers get a SealingKeyError (503, the operator's fix in the log; the CLI exits
 * with it). A key file is generated only while nothing at all is sealed, so no process can start sealing with
 * a key of its own next to values sealed with another.
 */

/** What each sealed value is bound to (its associated data), so the check below opens what the features seal. */
export const sealedAs = {
  signingKey: (keyId: string) => ['license-signing-key', keyId],
  pin: (customerNumber: string, elasticServerId: string) => [customerNumber, elasticServerId],
};

const CHECK_SETTING = 'sealing-key-check';
const CHECK_TEXT = 'lp-sealing-key-check';
const CHECK_BOUND_TO = ['sealing-key-check'];

type KeyContext = { db: Db; config: Config };
interface Sealed {
  stored: string;
  boundTo: readonly string[];
}

const keyFileOf = (config: Config) => path.join(path.resolve(config.DATA_DIR), KEY_FILE);

/** Where this process's key comes from, as the operator sets it. */
const keySource = (config: Config) =>
  config.PIN_ENCRYPTION_KEY ? 'PIN_ENCRYPTION_KEY' : `the key file ${keyFileOf(config)}`;

/** The configured key, never generating one: PIN_ENCRYPTION_KEY, else the key file in DATA_DIR when it exists. */
function configuredKey(config: Config): Buffer | undefined {
  if (config.PIN_ENCRYPTION_KEY) return Buffer.from(config.PIN_ENCRYPTION_KEY, 'hex');
  const file = keyFileOf(config);
  if (!fs.existsSync(file)) return undefined;
  try {
    return readKeyFile(file);
  } catch (e) {
    throw new SealingKeyError(
      `${(e as Error).message}. Restore the key file the secrets were sealed with, or set PIN_ENCRYPTION_KEY.`,
    );
  }
}

const opens = (key: Buffer, { stored, boundTo }: Sealed) => {
  try {
    unseal(key, stored, boundTo, 'value');
    return true;
  } catch {
    return false;
  }
};

async function readCheck(db: Db): Promise<Sealed | undefined> {
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, CHECK_SETTING));
  return row && { stored: row.value as string, boundTo: CHECK_BOUND_TO };
}

/** Values sealed before the check value existed (an installation from before decision 043): the newest of each kind. */
async function sealedValues(db: Db): Promise<Sealed[]> {
  const keys = await db
    .select({ keyId: licenseSigningKeys.keyId, stored: licenseSigningKeys.privateKeyCipher })
    .from(licenseSigningKeys)
    .orderBy(desc(licenseSigningKeys.createdAt))
    .limit(1);
  const pins = await db
    .select({
      customerNumber: elasticServerSettings.customerNumber,
      elasticServerId: elasticServerSettings.elasticServerId,
      stored: elasticServerSettings.pinCipher,
    })
    .from(elasticServerSettings)
    .where(isNotNull(elasticServerSettings.pinCipher))
    .orderBy(desc(elasticServerSettings.updatedAt))
    .limit(1);
  return [
    ...keys.map((k) => ({ stored: k.stored, boundTo: sealedAs.signingKey(k.keyId) })),
    ...pins.map((p) => ({ stored: p.stored!, boundTo: sealedAs.pin(p.customerNumber, p.elasticServerId) })),
  ];
}

const missingKey = (config: Config) =>
  new SealingKeyError(
    `This database's secrets (license signing keys, elastic server PINs) are sealed with a key this process does not have: PIN_ENCRYPTION_KEY is not set and ${keyFileOf(config)} does not exist. Set PIN_ENCRYPTION_KEY to the key the servers use (or DATA_DIR to the folder holding their ${KEY_FILE}).`,
  );

const wrongKey = (config: Config) =>
  new SealingKeyError(
    `${keySource(config)} does not open the secrets sealed in this database (license signing keys, elastic server PINs): it is not the key they were sealed with. Set PIN_ENCRYPTION_KEY to the key the servers use (or DATA_DIR to the folder holding their ${KEY_FILE}).`,
  );

async function proveKey({ db, config }: KeyContext): Promise<Buffer> {
  let key = configuredKey(config);
  let check = await readCheck(db);
  if (!check) {
    const sealed = await sealedValues(db);
    if (sealed.length) {
      if (!key) throw missingKey(config);
      // One value is enough: values sealed with another key by an earlier mistake must not lock out the
      // key that opens the rest (rotating the signing key with it repairs the installation).
      if (!sealed.some((value) => opens(key!, value))) throw wrongKey(config);
    } else {
      // Nothing is sealed anywhere yet, so no key can be wrong: this one becomes the installation's key.
      key ??= loadOrCreateKeyFile(path.resolve(config.DATA_DIR));
    }
    await db
      .insert(appSettings)
      .values({ key: CHECK_SETTING, value: seal(key, CHECK_TEXT, CHECK_BOUND_TO) })
      .onConflictDoNothing();
    // Another process may have written its check value first; its key is the one that counts.
    check = await readCheck(db);
  }
  if (!key) throw missingKey(config);
  if (!check || !opens(key, check)) throw wrongKey(config);
  return key;
}

const proven = new WeakMap<Config, Buffer>();

/**
 * The key that seals and opens secrets, once it opened the database's check value; throws SealingKeyError
 * (so the caller seals nothing) when it does not. Proven once per configuration, retried on every call while it fails.
 */
export async function sealingKey(ctx: KeyContext): Promise<Buffer> {
  let key = proven.get(ctx.config);
  if (!key) {
    key = await proveKey(ctx);
    proven.set(ctx.config, key);
  }
  return key;
}
