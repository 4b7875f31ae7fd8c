import { spawn } from 'node:child_process';
import path from 'node:path';
import { featureFlagsApi } from '@lp/contract/featureflags/api';
import { routeFeatureDescription, routeFeatures } from '@lp/domain/feature-flags';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiOf, apiTest, type Caller } from '../../../test/api-fixture.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { type Database, openPglite } from '../../db/database.ts';
import { accounts, features } from '../../db/schema.ts';
import { ensureRouteFeatures } from './service.ts';

/**
 * Decision 025: the route features are product data. The real server process (main.ts) is started once
 * without demo data (SEED_ON_EMPTY=false) on a fresh database and stopped, then the database is inspected, so
 * the test covers what an operator's installation does at start, not only the function it calls.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const postgres = process.env.TEST_ENGINE === 'postgres';

/**
 * What the process starts on: the file's own folder as its DATA_DIR and, on PostgreSQL, a database of its own. Not the
 * fixture's `database`: on PGlite the process opens its folder itself, which the in-process database cannot be.
 */
const test = apiTest.extend('installation', { scope: 'file' }, async ({ tempDir }, { onCleanup }) => {
  const pgDatabase = postgres ? await createTestDatabase() : undefined;
  onCleanup(async () => {
    await pgDatabase?.close();
  });
  return { dataDir: tempDir, pgDatabase };
});
type Installation = { dataDir: string; pgDatabase?: TestDatabase };

/** Runs main.ts until it is ready, then stops it with SIGTERM; fails with its output if it exits otherwise. */
async function startAndStop({ dataDir, pgDatabase }: Installation): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SEED_ON_EMPTY: 'false',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
  };
  if (postgres) env.DATABASE_URL = pgDatabase!.url!;
  else delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
    if (output.includes('Licensing Portal is ready at')) child.kill('SIGTERM');
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0 || !output.includes('Licensing Portal is ready at'))
    throw new Error(`server exited (${code}) without getting ready:\n${output}`);
  return output;
}

/** The database the process used (PGlite's folder is free again once the process has exited). */
async function withDatabase<T>(
  { dataDir, pgDatabase }: Installation,
  use: (database: Database) => Promise<T>,
): Promise<T> {
  if (postgres) return use(pgDatabase!);
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

const expected = routeFeatures.map((f) => ({
  name: f.name,
  description: routeFeatureDescription(f),
  enabled: true,
  conflicts: [],
}));
const byName = <T extends { name: string }>(rows: T[]) =>
  [...rows].sort((a, b) => (a.name < b.name ? -1 : 1));

describe('route features on an installation without demo data', () => {
  test(`are there after the first start and answered by GET ${featureFlagsApi.list.path}`, async ({
    installation,
  }) => {
    const output = await startAndStop(installation);
    expect(output).toContain('route features added');
    await withDatabase(installation, async (database) => {
      expect(await database.db.$count(accounts)).toBe(0);
      const app = await createTestApp(database);
      try {
        const { userId, headers } = await signInAs(database.db, 'dev@vendor.example', {
          vendorRoles: ['support'],
        });
        const dev: Caller = { email: 'dev@vendor.example', userId, headers };
        const { data } = await apiOf(app).ok(dev, featureFlagsApi.list, undefined);
        expect(data.features).toEqual(byName(expected));
        expect(data.enabled).toEqual(byName(expected).map((f) => f.name));
      } finally {
        await app.close();
      }
    });
  }, 360_000);

  test('are neither duplicated nor reset by the next start, and what an administrator changed stays', async ({
    installation,
  }) => {
    // The next start runs the same call main.ts made above (a second process would add 20-30 s per engine).
    await withDatabase(installation, async ({ db }) => {
      await db
        .update(features)
        .set({ enabled: false, description: 'Off until the e-mail relay is set up' })
        .where(eq(features.name, 'emails'));
      await db.delete(features).where(eq(features.name, 'ssl'));
      // Only the deleted one comes back: a product feature that is missing is not a choice to keep.
      expect(await ensureRouteFeatures(db)).toEqual(['ssl']);
      expect(await ensureRouteFeatures(db)).toEqual([]);
      const rows = await db.select().from(features);
      expect(rows).toHaveLength(routeFeatures.length);
      expect(rows.find((f) => f.name === 'emails')).toEqual({
        name: 'emails',
        description: 'Off until the e-mail relay is set up',
        enabled: false,
        conflicts: [],
      });
      expect(rows.find((f) => f.name === 'ssl')?.enabled).toBe(true);
    });
  }, 120_000);
});
