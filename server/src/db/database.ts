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
import { checkMigratable, migrationFailure } from './migrations.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  /** Runs a plain query; for health checks and tools. Fails when no answer comes within `deadlineMs`. */
  ping(deadlineMs?: number): Promise<void>;
  /**
   * Runs one query and hands its rows over `size` at a time from a database cursor, so a large result never
   * sits whole in this process (decision 021). Values come as from `db.execute` (timestamps as text).
   * Leaving the loop early (break, throw) closes the cursor.
   */
  streamRows(query: SQL, size: number): AsyncGenerator<Record<string, unknown>[], void>;
  /**
   * Runs `work` on connections without the statement and lock deadlines, for work that may rightly run or wait
   * long: the first seeding, which nodes starting together wait for (decision 043). PGlite has none to lift.
   */
  unbounded<T>(work: (database: Database) => Promise<T>): Promise<T>;
  /** PostgreSQL's connection pool right now, for the metrics (PGlite has one in-process connection, no pool). */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

/**
 * Deadlines of PostgreSQL connections (decision 043), in ms; 0 or absent: none. PGlite runs in this process
 * with one connection and cannot interrupt a statement, so none of them applies to it.
 */
export interface DatabaseTimeouts {
  /** Waiting for a pooled connection, opening a new one included */
  connectMs?: number;
  /** PostgreSQL's statement_timeout; the client gives up ANSWER_GRACE_MS later and discards the connection */
  statementMs?: number;
  /** PostgreSQL's lock_timeout */
  lockMs?: number;
  /** PostgreSQL's idle_in_transaction_session_timeout: a node that vanished mid-transaction frees its locks */
  idleInTransactionMs?: number;
}

/** The configuration's deadlines (the DATABASE_*_TIMEOUT_MS settings; absent ones: none). */
export const timeoutsOf = (config: {
  DATABASE_CONNECT_TIMEOUT_MS?: number;
  DATABASE_STATEMENT_TIMEOUT_MS?: number;
  DATABASE_LOCK_TIMEOUT_MS?: number;
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS?: number;
}): DatabaseTimeouts => ({
  connectMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  statementMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  lockMs: config.DATABASE_LOCK_TIMEOUT_MS,
  idleInTransactionMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
});

/** How long past statement_timeout the client waits for PostgreSQL's own cancellation before it cuts the line. */
export const ANSWER_GRACE_MS = 1000;

/** The readiness check's default deadline: under the 2 s a load balancer's probe allows. */
export const PING_DEADLINE_MS = 1500;

const noAnswer = (ms: number) =>
  Object.assign(new Error(`The database did not answer within ${ms} ms`), { code: 'ETIMEDOUT' });

/** Fails after `ms` unless `work` settled; `work` itself goes on and cleans up after itself. */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(noAnswer(ms)), ms);
  });
  // A failure after the deadline has nobody left to hear it.
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Cuts a connection: its queries fail at once ("ETIMEDOUT", an outage) and the pool discards it on release. */
const cut = (client: pg.ClientBase, ms: number) =>
  (client as pg.Client).connection.stream.destroy(noAnswer(ms));

/**
 * A node-postgres client whose statements must be answered within `answerMs`. A database that stops answering
 * (a network black hole: the socket stays open, nothing comes back) sends no error and closes nothing, so
 * without this a request would wait for as long as TCP does (many minutes) and its connection would go back to
 * the pool still waiting. Past the deadline the connection is cut: the statement and everything queued behind
 * it fail as an outage (503), and pg-pool drops a client that is no longer queryable instead of reusing it.
 * Cursor reads (submittable queries) get the same deadline per read in `streamRows`.
 */
function clientAnsweringWithin(answerMs: number): typeof pg.Client {
  return class AnsweringClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // A cut connection also emits 'error' while checked out; its queries already carry the error.
      this.on('error', () => {});
    }

    override query(...args: unknown[]): never {
      const run = (pg.Client.prototype.query as (...a: unknown[]) => unknown).bind(this);
      if (typeof (args[0] as { submit?: unknown } | undefined)?.submit === 'function')
        return run(...args) as never;
      const timer = setTimeout(() => cut(this, answerMs), answerMs);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (...result: unknown[]) => {
          clearTimeout(timer);
          callback(...result);
        };
        return run(...args) as never;
      }
      const answer = run(...args) as Promise<unknown>;
      answer.then(
        () => clearTimeout(timer),
        () => clearTimeout(timer),
      );
      return answer as never;
    }
  };
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
  // A folder PGlite cannot open is not left locked: the operator CLI runs in its callers' processes (tests) too.
  const client = await PGlite.create({ dataDir: dir, loadDataDir: options.loadDataDir }).catch(
    async (e: unknown) => {
      await release?.();
      throw e;
    },
  );
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    // One in-process connection: a ping queued behind a long statement is late like any other answer.
    async ping(deadlineMs = PING_DEADLINE_MS) {
      await within(client.query('select 1'), deadlineMs);
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
    unbounded(work) {
      return work(this as Database);
    },
    async close() {
      await client.close();
      await release?.();
    },
    // exposed for template dumps in tests
    ...{ pglite: client },
  };
}

export async function openPostgres(
  url: string,
  poolMax = 10,
  timeouts: DatabaseTimeouts = {},
): Promise<Database> {
  const { connectMs, statementMs, lockMs, idleInTransactionMs } = timeouts;
  const answerMs = statementMs ? statementMs + ANSWER_GRACE_MS : 0;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: connectMs || undefined,
    statement_timeout: statementMs || undefined,
    lock_timeout: lockMs || undefined,
    idle_in_transaction_session_timeout: idleInTransactionMs || undefined,
    // Idle connections to a peer that vanished are found and dropped rather than handed out.
    keepAlive: true,
    Client: answerMs ? clientAnsweringWithin(answerMs) : pg.Client,
  });
  // An idle client error (server restart) must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const database: Database = {
    db,
    engine: 'postgres',
    async ping(deadlineMs = PING_DEADLINE_MS) {
      await within(pool.query('select 1'), deadlineMs);
    },
    // The cursor holds one pooled connection until the last chunk; the large-request gate bounds how many.
    async *streamRows(query, size) {
      const { sql: text, params } = dialect.sqlToQuery(query);
      const client = await pool.connect();
      const cursor = client.query(new Cursor<Row>(text, params, { types: textTimestamps }));
      let failed = false;
      try {
        for (;;) {
          const late = answerMs ? setTimeout(() => cut(client, answerMs), answerMs) : undefined;
          const rows = await cursor.read(size).finally(() => clearTimeout(late));
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
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: poolMax,
    }),
    async unbounded(work) {
      const own = await openPostgres(url, 2, { connectMs });
      try {
        return await work(own);
      } finally {
        await own.close();
      }
    },
    async close() {
      await pool.end();
    },
  };
  return database;
}

/**
 * Migrations may rightly run long (an index on a large table): only connecting has a deadline. All pending
 * migrations run in one transaction; a database this release cannot migrate, or a migration that fails, stops
 * with a MigrationError naming it (decision 057). `folder` is for tests.
 */
export async function migrateDatabase(
  database: Database,
  url?: string,
  connectMs?: number,
  folder = migrationsFolder,
): Promise<void> {
  if (database.engine === 'pglite') {
    await checkMigratable((text) => queryRows(database.db, sql.raw(text)), folder);
    await migratePglite(database.db as never, { migrationsFolder: folder }).catch((e: unknown) => {
      throw migrationFailure(e, folder);
    });
    return;
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectMs || undefined });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await checkMigratable(async (text) => (await client.query(text)).rows, folder);
    await migratePg(drizzlePg(client), { migrationsFolder: folder }).catch((e: unknown) => {
      throw migrationFailure(e, folder);
    });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

export async function openDatabase(
  config: {
    DATABASE_URL?: string;
    pgliteDir: string;
    DATABASE_POOL_MAX: number;
  } & Parameters<typeof timeoutsOf>[0],
) {
  const timeouts = timeoutsOf(config);
  const database = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, config.DATABASE_POOL_MAX, timeouts)
    : await openPglite(config.pgliteDir);
  // A database that cannot be migrated is closed (and its PGlite folder unlocked) before the error goes up.
  await migrateDatabase(database, config.DATABASE_URL, timeouts.connectMs).catch(async (e: unknown) => {
    await database.close().catch(() => {});
    throw e;
  });
  return database;
}

/** Runs raw SQL on either engine and returns its rows (both drivers answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Rows travel as one JSON parameter (json_to_recordset): one statement per batch on both drivers. Plain json, not
 * jsonb: read once, the text needs no binary form (about half the parse time for a batch of 500 wide rows).
 */
export const jsonRows = (rows: readonly object[]) => sql`${JSON.stringify(rows)}::json`;

/**
 * Holds a named lock until the transaction ends (both engines): writers of one thing (an account's ledger, the
 * first seeding of an empty database) take turns instead of reading the same state.
 */
export async function lockUntilCommit(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select ${lockUntilCommitCall(name)}`);
}

/** lockUntilCommit's lock as an SQL call, for a statement that takes it along with other work (the web checkout). */
export const lockUntilCommitCall = (name: string) => sql`pg_advisory_xact_lock(hashtextextended(${name}, 0))`;
