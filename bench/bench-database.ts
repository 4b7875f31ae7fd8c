/**
 * A throw-away database for a benchmark: PGlite in a temporary folder, or a fresh PostgreSQL database on
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), migrated, with a raw driver runner for
 * same-run baselines, dropped again by `cleanup`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { type Database, migrateDatabase, openPglite, openPostgres } from '@lp/server/db/database';
import pg from 'pg';

export type RawRunner = (text: string, params: unknown[]) => Promise<unknown>;

export interface BenchDatabase {
  database: Database;
  /** PostgreSQL only: the throw-away database's URL, e.g. for a server process the bench starts. */
  url?: string;
  raw: RawRunner;
  cleanup: () => Promise<void>;
}

export async function openBenchDatabase(
  engine: 'postgres' | 'pglite',
  poolMax: number,
): Promise<BenchDatabase> {
  if (engine === 'pglite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-'));
    const database = await openPglite(path.join(dir, 'data'));
    await migrateDatabase(database);
    const client = (database as unknown as { pglite: PGlite }).pglite;
    return {
      database,
      raw: (text, params) => client.query(text, params as never[]),
      cleanup: async () => {
        await database.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `lp_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  admin.on('error', () => {});
  await admin.connect();
  // template0: template1 may be busy with other sessions' CREATE DATABASE on a shared server.
  await admin.query(`create database ${name} template template0`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString(), poolMax);
  await migrateDatabase(database, url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on('error', () => {});
  return {
    database,
    url: url.toString(),
    raw: (text, params) => pool.query(text, params),
    cleanup: async () => {
      await pool.end();
      await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
