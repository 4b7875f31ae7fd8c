import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { generateLicenseFiles } from '@lp/domain/license-file';
import { verifyLicenseText } from '@lp/domain/license-signature';
import { type Database, openPglite } from '@lp/server/db/database';
import { licenseSigningKeys } from '@lp/server/db/schema';
import { currentSigner } from '@lp/server/features/license-files/service';
import { loadConfig } from '@lp/server/platform/config';
import { KEY_FILE } from '@lp/server/platform/secret-box';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_RUNS_TIMEOUT, runCli } from '../test/run-cli.ts';

/**
 * Decision 043: `license rotate-key` proves its sealing key against the database first. With another key or none
 * it changes nothing, creates no key file and names the setting; with the servers' key it rotates.
 */

const engine = process.env.TEST_ENGINE ?? 'pglite';
const KEY_A = randomBytes(32).toString('hex');
const KEY_B = randomBytes(32).toString('hex');

let dataDir: string;
let pgDatabase: TestDatabase | undefined;

/** The command as an operator runs it (in this process), on the test's database, with exactly the key settings given. */
function rotate(env: Record<string, string>) {
  const base: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env };
  delete base.DATABASE_URL;
  if (!env.PIN_ENCRYPTION_KEY) delete base.PIN_ENCRYPTION_KEY;
  if (pgDatabase?.url) base.DATABASE_URL = pgDatabase.url;
  return runCli(['license', 'rotate-key'], { env: base });
}

/** The database the CLI used, opened here between its runs (a PGlite folder has one user at a time). */
async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
  const database = pgDatabase ?? (await openPglite(path.join(dataDir, 'pglite')));
  try {
    return await use(database);
  } finally {
    if (!pgDatabase) await database.close();
  }
}

const signingKeys = () =>
  withDatabase((d) => d.db.select().from(licenseSigningKeys).orderBy(asc(licenseSigningKeys.keyId)));

beforeAll(async () => {
  dataDir = await migratedDataDir('cli-sealing');
  if (engine === 'postgres') pgDatabase = await createTestDatabase();
});
afterAll(async () => {
  await pgDatabase?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`license rotate-key and the sealing key (${engine})`, () => {
  it(
    'changes nothing with a wrong or missing key and says which setting; rotates with the right one',
    async () => {
      const first = await rotate({ PIN_ENCRYPTION_KEY: KEY_A });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const before = await signingKeys();
      expect(before).toHaveLength(1);

      const wrong = await rotate({ PIN_ENCRYPTION_KEY: KEY_B });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).toMatch(/^PIN_ENCRYPTION_KEY does not open the secrets sealed in this database/);
      expect(wrong.stderr).toMatch(/Nothing was changed\.\n$/);

      const keyFile = path.join(dataDir, KEY_FILE);
      const missing = await rotate({});
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain(`PIN_ENCRYPTION_KEY is not set and ${keyFile} does not exist`);
      expect(missing.stderr).toMatch(/Nothing was changed\.\n$/);
      expect(fs.existsSync(keyFile)).toBe(false);

      fs.writeFileSync(keyFile, `${KEY_B}\n`, { mode: 0o600 });
      const wrongFile = await rotate({});
      expect(wrongFile.code).toBe(1);
      expect(wrongFile.stderr).toContain(`the key file ${keyFile} does not open the secrets`);
      fs.rmSync(keyFile);

      // The refused runs left the signing keys exactly as they were, and the current one still signs.
      expect(await signingKeys()).toEqual(before);
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, PIN_ENCRYPTION_KEY: KEY_A });
      const published = Object.fromEntries(before.map((k) => [k.keyId, k.publicKeyPem] as [string, string]));
      const files = await withDatabase(async (d) =>
        generateLicenseFiles(
          {
            servers: [{ name: 'h1', type: 'ETHERNET', id: 'ab0000000001' }],
            customerNumber: '1000001',
            issued: '2026-01-01',
            features: [
              {
                product: 'Solver',
                activationId: 'A-1',
                featureName: 'cfd',
                daemon: 'cfdlmd',
                count: 1,
                startDate: '2026-01-01',
                endDate: '2027-01-01',
                versionDate: null,
                borrowable: false,
              },
            ],
          },
          await currentSigner({ db: d.db, config }),
        ),
      );
      expect(verifyLicenseText(files.text, published).map((v) => v.verdict)).toEqual(['valid']);

      const right = await rotate({ PIN_ENCRYPTION_KEY: KEY_A });
      expect(right.stderr).toBe('');
      expect(right.code).toBe(0);
      const after = await signingKeys();
      expect(after).toHaveLength(2);
      expect(after.find((k) => k.keyId === before[0].keyId)?.retiredAt).not.toBeNull();
      expect(right.stdout).toBe(`${after.find((k) => k.retiredAt === null)?.keyId}\n`);
    },
    CLI_RUNS_TIMEOUT,
  );
});
