import fs from 'node:fs';
import path from 'node:path';
import { type Database, migrationsFolder, queryRows } from '@lp/server/db/database';
import { sql } from 'drizzle-orm';

/**
 * `migrate`: the CLI opens the database like a node, which applies the pending migrations (all or none); this
 * names where the database now stands, for the upgrade steps of docs/operations.md (decision 057).
 */
export async function migrated(database: Database, out: (line: string) => void): Promise<number> {
  const journal: { when: number; tag: string }[] = JSON.parse(
    fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  ).entries;
  const [{ n, last }] = await queryRows<{ n: number; last: string }>(
    database.db,
    sql`select count(*)::int as n, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  const tag = journal.find((m) => String(m.when) === last)?.tag ?? last;
  out(`The database is migrated: ${n} migrations applied, the last ${tag}.`);
  return 0;
}
