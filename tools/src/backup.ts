import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DataDirLockedError, openPglite, queryRows } from '@lp/server/db/database';
import type { Config } from '@lp/server/platform/config';
import { KEY_FILE } from '@lp/server/platform/secret-box';
import { sql } from 'drizzle-orm';
import { CommandError } from './errors.ts';
import type { Output } from './output.ts';

interface PgliteDump {
  query(text: string): Promise<unknown>;
  dumpDataDir(compression: 'gzip'): Promise<Blob>;
}

/*
 * `backup` and `restore` of the embedded database (decision 057): a stop-and-copy. PGlite runs inside the server's
 * process and only that process can read its folder consistently, so the CLI takes the folder's lock (the server
 * must be stopped) and writes PGlite's own tarball of it. PostgreSQL has pg_dump and pg_restore for this.
 */

const POSTGRES_HINT = `DATABASE_URL is set: back up PostgreSQL with its own tools (docs/operations.md, section 12):
  pg_dump -Fc -f licensing.dump "<the owner's URL>"
  pg_restore --no-owner --no-acl --exit-on-error -d "<the owner's URL of a new, empty database>" licensing.dump`;

const stopTheServer = (what: string) =>
  `The server is running on this data folder, so ${what} now would not be consistent. Stop the server (every process using DATA_DIR), run the command again, then start the server.`;

/**
 * Rows per table of the public and drizzle schemas: printed by both commands, so a restore can be compared. A
 * partitioned table counts its months' rows; its partitions are not listed one by one.
 */
export async function rowCounts(query: (text: string) => Promise<Record<string, unknown>[]>) {
  const tables = await query(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'
        and (quote_ident(table_schema) || '.' || quote_ident(table_name))::regclass
            not in (select inhrelid from pg_inherits)
      order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [{ n }] = await query(`select count(*)::bigint as n from ${name}`);
    counts[String(name)] = Number(n);
  }
  return counts;
}

function printCounts(counts: Record<string, number>, out: (line: string) => void) {
  for (const [table, n] of Object.entries(counts)) out(`  ${table.padEnd(40)} ${n}`);
}

/** `backup --to FILE`: the stopped server's PGlite folder as a gzip tarball; never overwrites FILE. */
export async function backup(config: Config, file: string, say: Output): Promise<number> {
  if (config.DATABASE_URL) throw new CommandError(POSTGRES_HINT);
  if (!fs.existsSync(path.join(config.pgliteDir, 'PG_VERSION')))
    throw new CommandError(`There is no database in ${config.pgliteDir} (DATA_DIR) to back up.`);
  if (fs.existsSync(file)) throw new CommandError(`${file} exists already; name a new file.`);
  const database = await openPglite(config.pgliteDir).catch((e: unknown) => {
    throw e instanceof DataDirLockedError ? new CommandError(`${e.message}\n${stopTheServer('a copy')}`) : e;
  });
  try {
    const client = (database as unknown as { pglite: PgliteDump }).pglite;
    // Everything written so far goes into the data files, so the copy needs no WAL replay when it is restored.
    await client.query('checkpoint');
    const counts = await rowCounts((text) => queryRows(database.db, sql.raw(text)));
    const tarball = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    // Written beside FILE and renamed: a half-written file never carries the backup's name.
    const partial = `${file}.partial`;
    fs.writeFileSync(partial, tarball);
    fs.renameSync(partial, file);
    say.err(
      `Not in the backup, on purpose: the sealing key (PIN_ENCRYPTION_KEY or ${path.join(path.resolve(config.DATA_DIR), KEY_FILE)}), the checkpoint key and the checkpoint folder. Keep them apart; a restore needs the same sealing key (docs/operations.md, section 12).`,
    );
    say.out(
      `Backed up ${config.pgliteDir} to ${file} (${(tarball.length / 1e6).toFixed(1)} MB). Rows per table:`,
    );
    printCounts(counts, say.out);
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * Refuses a FILE that is not a whole gzip tarball before PGlite reads it: PGlite's own unpacking of one leaves a
 * rejection nobody handles, which ends the process with a stack trace (and fails a test running the command).
 */
async function checkTarball(file: string): Promise<void> {
  const notABackup = (why: string) =>
    new CommandError(`${file} is not a PGlite backup this release can read: ${why}`);
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of fs.createReadStream(file).pipe(zlib.createGunzip()))
      if (head.length < 512) head = Buffer.concat([head, chunk]);
  } catch (e) {
    throw notABackup((e as Error).message);
  }
  // A tar archive's first header names its format at offset 257.
  if (head.subarray(257, 262).toString('latin1') !== 'ustar') throw notABackup('not a tar archive');
}

/**
 * `restore --from FILE`: a backup into DATA_DIR's PGlite folder, which must hold no database (a restore never
 * mixes with or replaces data: move the old folder aside first). The server migrates it at its next start.
 */
export async function restore(config: Config, file: string, say: Output): Promise<number> {
  if (config.DATABASE_URL) throw new CommandError(POSTGRES_HINT);
  if (!fs.existsSync(file)) throw new CommandError(`${file} does not exist.`);
  const dir = config.pgliteDir;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new CommandError(
      `${dir} is not empty: a restore goes into an empty folder, never over a database. Stop the server if it runs, move the folder aside (e.g. mv ${dir} ${dir}.old), then run the command again.`,
    );
  await checkTarball(file);
  const tarball = new Blob([fs.readFileSync(file)], { type: 'application/x-gzip' });
  const database = await openPglite(dir, { loadDataDir: tarball }).catch((e: unknown) => {
    if (e instanceof DataDirLockedError)
      throw new CommandError(`${e.message}\n${stopTheServer('a restore')}`);
    // PGlite may have unpacked part of a file it then refused: leave the folder empty, as it was.
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
    throw new CommandError(`${file} is not a PGlite backup this release can read: ${(e as Error).message}`);
  });
  try {
    const counts = await rowCounts((text) => queryRows(database.db, sql.raw(text)));
    say.out(`Restored ${file} into ${dir}; the server migrates it at its next start. Rows per table:`);
    printCounts(counts, say.out);
    return 0;
  } finally {
    await database.close();
  }
}
