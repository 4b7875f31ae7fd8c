import fs from 'node:fs';
import path from 'node:path';

/**
 * Guards around drizzle's migrator (decision 057). Drizzle applies every pending migration in one transaction,
 * so a failing one leaves the database as it was; these checks refuse the cases it would pass over silently and
 * name the migration that failed instead of showing its SQL.
 */
export class MigrationError extends Error {}

interface JournalEntry {
  when: number;
  tag: string;
}

const journalOf = (folder: string): JournalEntry[] =>
  JSON.parse(fs.readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')).entries;

/** The `when` of each migration the database has applied (drizzle's created_at), from drizzle's own table. */
export const APPLIED_SQL = [
  `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  'select created_at from drizzle.__drizzle_migrations',
] as const;

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/**
 * Refuses, before anything is applied, a database this release cannot migrate faithfully:
 * - one migrated by a newer release (this release would run on tables it does not know and could drop what they
 *   hold: a newer column's values are lost when an older node rewrites the row);
 * - one missing a migration older than the last it applied (drizzle only applies migrations newer than the last
 *   one applied, so it would skip that one silently).
 */
export async function checkMigratable(query: Query, folder: string): Promise<void> {
  const [{ present }] = await query(APPLIED_SQL[0]);
  if (!present) return;
  const applied = new Set((await query(APPLIED_SQL[1])).map((r) => Number(r.created_at)));
  if (applied.size === 0) return;
  const journal = journalOf(folder);
  const last = Math.max(...applied);
  const known = journal.at(-1)!;
  if (last > known.when)
    throw new MigrationError(
      `This database was migrated by a newer release of the portal: its last migration (${last}) is not one of this release's (the last is ${known.tag}, ${known.when}). Nothing was changed. Start the release that upgraded it, or restore the backup taken before the upgrade to run this one.`,
    );
  const skipped = journal.filter((m) => m.when < last && !applied.has(m.when));
  if (skipped.length)
    throw new MigrationError(
      `Migration ${skipped.map((m) => m.tag).join(', ')} was never applied to this database, yet a later one was: it would be skipped. Nothing was changed. Restore the backup taken before the upgrade, or apply the migration by hand and record it in drizzle.__drizzle_migrations.`,
    );
}

/**
 * The error a failed migration run ends with: which migration (file) and what the database said. Errors that are
 * not a migration statement's (the connection dropped) pass through as they are.
 */
export function migrationFailure(e: unknown, folder: string): unknown {
  const query = (e as { query?: unknown }).query;
  if (typeof query !== 'string') return e;
  const failed = journalOf(folder).find((m) =>
    fs
      .readFileSync(path.join(folder, `${m.tag}.sql`), 'utf8')
      .split('--> statement-breakpoint')
      .includes(query),
  );
  if (!failed) return e;
  const cause = ((e as { cause?: unknown }).cause ?? e) as Error;
  return new MigrationError(
    `Migration ${failed.tag} (${failed.tag}.sql) cannot be applied: ${cause.message}. The migrations of this start run in one transaction: none was applied, the database is as it was. Fix what the message names (or restore the backup taken before the upgrade), then start again.`,
  );
}
