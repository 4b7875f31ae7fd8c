import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import lockfile from 'proper-lockfile';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  /** Runs a plain query; for health checks and tools. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

// A number unique to this product, used so that concurrently starting API nodes migrate one at a time.
const MIGRATION_LOCK = 7_300_415;

export class DataDirLockedError extends Error {}

export async function openPglite(
  dir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  let release: (() => Promise<void>) | undefined;
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    try {
      // PGlite lets a second process open the same folder and silently loses writes; refuse instead.
      release = await lockfile.lock(dir, { lockfilePath: `${dir}.lock`, stale: 15_000, update: 5_000 });
    } catch (e) {
      if ((e as { code?: string }).code === 'ELOCKED') {
        throw new DataDirLockedError(
          `The data folder ${dir} is in use by another process (lock file ${dir}.lock). Stop the other server or set DATA_DIR to another folder.`,
        );
      }
      throw e;
    }
  }
  const client = await PGlite.create({ dataDir: dir, loadDataDir: options.loadDataDir });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    async ping() {
      await client.query('select 1');
    },
    async close() {
      await client.close();
      await release?.();
    },
    // exposed for template dumps in tests
    ...{ pglite: client },
  };
}

export async function openPostgres(url: string, poolMax = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax });
  // An idle client error (server restart) must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    engine: 'postgres',
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

export async function migrateDatabase(database: Database, url?: string): Promise<void> {
  if (database.engine === 'pglite') {
    await migratePglite(database.db as never, { migrationsFolder });
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

export async function openDatabase(config: {
  DATABASE_URL?: string;
  pgliteDir: string;
  DATABASE_POOL_MAX: number;
}) {
  const database = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX)
    : await openPglite(config.pgliteDir);
  await migrateDatabase(database, config.DATABASE_URL);
  return database;
}

/** Runs raw SQL on either engine and returns its rows (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
