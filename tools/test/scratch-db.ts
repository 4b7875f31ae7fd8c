import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Database, openPglite, openPostgres, queryRows } from '@lp/server/db/database';
import { withDatabase } from '@lp/server/test/global-setup';
import type { RunSql } from '@lp/server/test/table-snapshot';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * A new, empty database for the backup and upgrade tests, on the engine the project runs: a DATA_DIR whose PGlite
 * folder the server, the CLI and the test open in turn, or a PostgreSQL database of its own on TEST_DATABASE_URL.
 */
export interface ScratchDatabase {
  dataDir: string;
  url?: string;
  /** The server's and the CLI's settings for this database */
  env: Record<string, string>;
  /** Opens the database in this process for `use` (PGlite: the folder is the test's meanwhile). */
  use<T>(work: (database: Database & { run: RunSql }) => Promise<T>): Promise<T>;
  /** Runs a multi-statement SQL text (a dump) as it is. */
  load(text: string): Promise<void>;
  drop(): Promise<void>;
}

export const engine = process.env.TEST_ENGINE ?? 'pglite';

/** Keys every process of a test shares (the sealing key of PostgreSQL installations, the checkpoint key). */
const keys = { AUDIT_CHECKPOINT_KEY: 'cd'.repeat(32) };

/** `migrated`: made from the test run's migrated template (saves PGlite's initdb and the migrations), else empty. */
export async function scratchDatabase(prefix: string, migrated = false): Promise<ScratchDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `lp-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: dataDir, ...keys };
  let url: string | undefined;
  let name: string | undefined;
  if (engine === 'postgres') {
    name = `lp_${prefix}_${randomBytes(5).toString('hex')}`;
    await adminQuery(`create database ${name}${migrated ? ` template ${inject('postgresTemplate')}` : ''}`);
    url = withDatabase(process.env.TEST_DATABASE_URL!, name);
    Object.assign(env, { DATABASE_URL: url, PIN_ENCRYPTION_KEY: 'ab'.repeat(32) });
  }
  const open = () => (url ? openPostgres(url, 2) : openPglite(path.join(dataDir, 'pglite')));
  if (migrated && !url) {
    const template = new Blob([fs.readFileSync(inject('pgliteTemplate'))], { type: 'application/x-tar' });
    await (await openPglite(path.join(dataDir, 'pglite'), { loadDataDir: template })).close();
  }
  return {
    dataDir,
    url,
    env,
    async use(work) {
      const database = await open();
      try {
        return await work({ ...database, run: (text) => queryRows(database.db, sql.raw(text)) });
      } finally {
        await database.close();
      }
    },
    async load(text) {
      if (!url) {
        const database = await open();
        try {
          await (database as unknown as { pglite: { exec(t: string): Promise<unknown> } }).pglite.exec(text);
        } finally {
          await database.close();
        }
        return;
      }
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(text);
      } finally {
        await client.end();
      }
    },
    async drop() {
      if (name) await adminQuery(`drop database if exists ${name} with (force)`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function adminQuery(text: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The CLI's environment for a scratch database: exactly its settings, nothing of the test's own. */
export function cliEnv(scratch: ScratchDatabase): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...scratch.env };
  if (!scratch.url) delete env.DATABASE_URL;
  return env;
}
