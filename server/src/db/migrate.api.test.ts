import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../../test/global-setup.ts';
import { createTestDatabase } from '../../test/test-db.ts';
import { type Database, migrateDatabase, openPostgres, queryRows } from './database.ts';

const opened: Database[] = [];
afterAll(async () => {
  for (const d of opened.reverse()) await d.close();
});

const appliedMigrations = async (d: Database) =>
  (await queryRows<{ n: number }>(d.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`))[0]
    .n;

describe('migrations', () => {
  it('re-running migrations on a migrated database changes nothing', async () => {
    const d = await createTestDatabase();
    opened.push(d);
    const before = await appliedMigrations(d);
    await migrateDatabase(d, d.url);
    expect(await appliedMigrations(d)).toBe(before);
    expect(before).toBeGreaterThan(0);
  });

  it('several nodes starting at once migrate an empty database exactly once', async () => {
    const base = process.env.TEST_DATABASE_URL;
    if (process.env.TEST_ENGINE !== 'postgres' || !base) {
      // PGlite is single-process by design (the folder lock refuses a second opener), so the
      // concurrent-start case is PostgreSQL's; on PGlite the sequential case above covers it.
      const d = await createTestDatabase();
      opened.push(d);
      await Promise.all([migrateDatabase(d), migrateDatabase(d)]);
      expect(await appliedMigrations(d)).toBeGreaterThan(0);
      return;
    }
    const name = `lp_m_${randomBytes(5).toString('hex')}`;
    const admin = await openPostgres(base, 1);
    await admin.db.execute(sql.raw(`create database ${name}`));
    const url = withDatabase(base, name);
    const node = await openPostgres(url, 2);
    try {
      await Promise.all([migrateDatabase(node, url), migrateDatabase(node, url), migrateDatabase(node, url)]);
      const tables = await queryRows<{ n: number }>(
        node.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(tables[0].n).toBeGreaterThan(10);
      expect(await appliedMigrations(node)).toBeGreaterThan(0);
    } finally {
      await node.close();
      await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
      await admin.close();
    }
  });
});
