import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import Cursor from 'pg-cursor';
import { lockDataDir } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  /** Runs a plain query; for health checks and tools. */
  ping(): Promise<void>;
  /**
   * Runs one query and hands its rows over `size` at a time from a database cursor, so a large result never
   * sits whole in this process (decision 021). Values come as from `db.execute` (timestamps as text).
   * Leaving the loop early (break, throw) closes the cursor.
   */
  streamRows(query: SQL, size: number): AsyncGenerator<Record<string, unknown>[], void>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

const dialect = new PgDialect();
type Row = Record<string, unknown>;

// Date and time values stay text, as drizzle's drivers return them to the query engine.
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
const textTimestamps = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format as 'text'),
};

let pgliteCursors = 0;

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
    // PGlite lets a second process open the same folder and silently loses writes; refuse instead.
    release = await lockDataDir(dir);
    if (!release) {
      throw new DataDirLockedError(
        `The data folder ${dir} is in use by another process (lock file ${dir}.lock). Stop the other server or set DATA_DIR to another folder.`,
      );
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
    // PGlite has one connection, so a cursor must outlive its statement's transaction: WITH HOLD keeps the
    // result inside PGlite (spilled to temporary files past work_mem) and other queries run between fetches.
    async *streamRows(query, size) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const name = `lp_stream_${++pgliteCursors}`;
      const parsers = { 1082: String, 1114: String, 1184: String, 1186: String };
      await client.query(`declare ${name} no scroll cursor with hold for ${text}`, params);
      try {
        for (;;) {
          const { rows } = await client.query<Row>(`fetch forward ${Math.trunc(size)} from ${name}`, [], {
            parsers,
          });
          if (rows.length === 0) return;
          yield rows;
        }
      } finally {
        await client.query(`close ${name}`).catch(() => {});
      }
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
    // The cursor holds one pooled connection until the last chunk; the large-request gate bounds how many.
    async *streamRows(query, size) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const client = await pool.connect();
      const cursor = client.query(new Cursor<Row>(text, params, { types: textTimestamps }));
      let failed = false;
      try {
        for (;;) {
          const rows = await cursor.read(size);
          if (rows.length === 0) return;
          yield rows;
        }
      } catch (e) {
        failed = true;
        throw e;
      } finally {
        await cursor.close().catch(() => {
          failed = true;
        });
        // A connection whose cursor failed is discarded rather than returned to the pool.
        client.release(failed);
      }
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

/** Rows travel as one JSON parameter (jsonb_to_recordset): one statement per batch on both drivers. */
export const jsonRows = (rows: readonly object[]) => sql`${JSON.stringify(rows)}::jsonb`;

/**
 * Holds a named lock until the transaction ends (both engines): writers of one thing (an account's ledger, the
 * first seeding of an empty database) take turns instead of reading the same state.
 */
export async function lockUntilCommit(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);
}
