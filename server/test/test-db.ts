import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../src/db/database.ts';
import { withDatabase } from './global-setup.ts';

export interface TestDatabase extends Database {
  url?: string;
}

/** A fresh, migrated database for one test file, on the engine the project runs (TEST_ENGINE). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const engine = process.env.TEST_ENGINE ?? 'pglite';
  if (engine === 'pglite') {
    const dump = fs.readFileSync(inject('pgliteTemplate'));
    return openPglite(undefined, { loadDataDir: new Blob([dump], { type: 'application/x-tar' }) });
  }
  const base = process.env.TEST_DATABASE_URL!;
  const name = `lp_t_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgres(base, 1);
  await admin.db.execute(sql.raw(`create database ${name} template ${inject('postgresTemplate')}`));
  const url = withDatabase(base, name);
  const database = await openPostgres(url, 5);
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    },
  };
}

/**
 * A DATA_DIR (under the temporary folder, named `lp-<prefix>-…`) for a process the test starts, a server or the
 * CLI. On PGlite its database folder already holds the run's migrated template: PGlite's initdb and the
 * migrations cost a process about 8 s of CPU, and only the tests of a new installation need them (those make
 * their folder themselves). On PostgreSQL the folder stays empty: the database is the test's own.
 */
export async function migratedDataDir(prefix: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `lp-${prefix}-`));
  if ((process.env.TEST_ENGINE ?? 'pglite') === 'pglite') {
    const dump = new Blob([fs.readFileSync(inject('pgliteTemplate'))], { type: 'application/x-tar' });
    await (await openPglite(path.join(dir, 'pglite'), { loadDataDir: dump })).close();
  }
  return dir;
}
