import fs from 'node:fs';
import path from 'node:path';
import { type Database, openPglite } from '@lp/server/db/database';
import { authenticateWebProduct } from '@lp/server/features/web-sessions/web-credentials';
import { buildProduct } from '@lp/server/harness/factories';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_RUNS_TIMEOUT, type CliRun, runCli } from '../test/run-cli.ts';

/* Issue 24 (decision 071): vendor staff issue, list and revoke the per-product credentials of /web/v1. */

const engine = process.env.TEST_ENGINE ?? 'pglite';

let dataDir: string;
let pgDatabase: TestDatabase | undefined;

function cli(...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env.DATABASE_URL;
  if (pgDatabase?.url) env.DATABASE_URL = pgDatabase.url;
  return runCli(args, { env });
}

/** The database the CLI wrote, opened by the test once the command has ended (a PGlite folder has one user). */
async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  if (pgDatabase) return work(pgDatabase);
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await migratedDataDir('cli-web-credentials');
  if (engine === 'postgres') pgDatabase = await createTestDatabase();
  await withDatabase(async ({ db }) => {
    await buildProduct(db, 'WEB-CLI-1', { name: 'Fluids - Shared Web', featureName: 'web_cli_1' });
    await buildProduct(db, 'WEB-CLI-2', { name: 'Fluids - Named User', featureName: 'web_cli_2' });
  });
});

afterAll(async () => {
  await pgDatabase?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`web-credentials (${engine})`, () => {
  it(
    'issues a credential printing only its token, lists it, revokes it by id; refuses unknown part numbers and ids',
    async () => {
      const issued = await cli(
        'web-credentials',
        'issue',
        '--product',
        'Fluids Online',
        '--part-number',
        'WEB-CLI-1',
        '--part-number',
        'WEB-CLI-2',
      );
      expect(issued.code, issued.stderr).toBe(0);
      const token = issued.stdout.trim();
      expect(token).toMatch(/^web_[\w-]{43}$/);
      expect(issued.stderr).toContain('/web/v1/');
      const product = await withDatabase(({ db }) => authenticateWebProduct(db, token));
      expect(product).toMatchObject({ product: 'Fluids Online', partNumbers: ['WEB-CLI-1', 'WEB-CLI-2'] });

      const listed = await cli('web-credentials', 'list', '--json');
      expect(listed.code).toBe(0);
      const rows = JSON.parse(listed.stdout) as { id: string; product: string; revokedAt: string | null }[];
      expect(rows).toEqual([
        expect.objectContaining({ id: product!.credentialId, product: 'Fluids Online', revokedAt: null }),
      ]);
      // The token is never shown again.
      expect(listed.stdout).not.toContain(token);

      const revoked = await cli('web-credentials', 'revoke', product!.credentialId);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toBe(`Revoked web-license credential ${product!.credentialId}.\n`);
      expect(await withDatabase(({ db }) => authenticateWebProduct(db, token))).toBeNull();
      const text = await cli('web-credentials', 'list');
      expect(text.stdout).toContain(`${product!.credentialId}  Fluids Online  WEB-CLI-1,WEB-CLI-2`);
      expect(text.stdout).toContain('revoked');

      const again = await cli('web-credentials', 'revoke', product!.credentialId);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('No active web-license credential');
      const unknown = await cli('web-credentials', 'issue', '--product', 'X', '--part-number', 'NOPE-1');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No product with part number NOPE-1.');
      expect((await cli('web-credentials', 'issue', '--part-number', 'WEB-CLI-1')).code).toBe(2);
      expect((await cli('web-credentials', 'revoke', 'not-a-uuid')).code).toBe(2);
    },
    CLI_RUNS_TIMEOUT,
  );
});
