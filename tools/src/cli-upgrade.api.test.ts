import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { migrateDatabase, migrationsFolder, queryRows } from '@lp/server/db/database';
import { MigrationError } from '@lp/server/db/migrations';
import { freePort } from '@lp/server/harness/free-port';
import { signInAs } from '@lp/server/harness/sign-in';
import { createTestApp } from '@lp/server/harness/test-app';
import { startServer, waitReady } from '@lp/server/test/server-process';
import { missingRows, tableRows, tableSnapshot } from '@lp/server/test/table-snapshot';
import { createTestDatabase } from '@lp/server/test/test-db';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../test/run-cli.ts';
import { cliEnv, type ScratchDatabase, scratchDatabase } from '../test/scratch-db.ts';
import { FIXTURE_COMMIT, fixtureFile } from './make-upgrade-fixture.ts';
import { migrated } from './migrate.ts';

/*
 * Issue 22 §4 (decision 057): a database made and used by an earlier release (commit 1a6694b, migrations
 * 0000-0008: the demo world, an FSA order, a license file, IP rules, their audit entries) is upgraded by today's
 * server at its start; every row and value it held is still there, the ledgers balance and the audit chains that
 * release wrote verify. A migration that cannot be applied stops the start, names itself, and changes nothing.
 */

const FIXTURE = gunzipSync(fs.readFileSync(fixtureFile(FIXTURE_COMMIT))).toString('utf8');
const journal: { tag: string }[] = JSON.parse(
  fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'),
).entries;
const OLD_MIGRATIONS = 9;
const CN = '7700001';
const MIGRATIONS = 'drizzle.__drizzle_migrations';
const RECORDED = `select hash, created_at::text from ${MIGRATIONS} order by created_at`;

const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  for (const s of scratches) await s.drop();
});

/** A new database holding the earlier release's data. */
async function earlierRelease(prefix: string) {
  const scratch = await scratchDatabase(prefix);
  scratches.push(scratch);
  await scratch.load(FIXTURE);
  return scratch;
}

describe('upgrading a database of an earlier release', () => {
  it("today's server migrates it at start; every row is kept, ledgers balance, the audit chains verify", async () => {
    const scratch = await earlierRelease('upg');
    const { before, rowsBefore, oldRecorded } = await scratch.use(async (d) => {
      const before = await tableSnapshot(d.run);
      return { before, rowsBefore: await tableRows(d.run, before), oldRecorded: await d.run(RECORDED) };
    });
    expect(Object.values(rowsBefore).flatMap((t) => t.rows).length).toBeGreaterThan(500);
    expect(before[MIGRATIONS].rows).toBe(OLD_MIGRATIONS);
    expect(before['public.audit_entries'].rows).toBe(6);
    expect(before['public.usage_sessions'].rows).toBeGreaterThan(0);

    const port = await freePort();
    const server = startServer({ ...scratch.env, PORT: String(port), JOBS_ENABLED: 'false' });
    try {
      await waitReady(server);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);

    // Every row, value for value, in the tables and columns the earlier release had (the new release may add
    // rows: settings it makes at its first start, its migrations in drizzle's record).
    const [after, recorded] = await scratch.use(async (d) => [
      await tableRows(d.run, before),
      await d.run(RECORDED),
    ]);
    expect(missingRows(rowsBefore, after)).toEqual({});
    expect(recorded).toHaveLength(journal.length);
    expect(recorded.slice(0, OLD_MIGRATIONS)).toEqual(oldRecorded);

    const env = cliEnv(scratch);
    const commands = [['audit', 'verify'], ['reconcile'], ['fsa', 'reconcile']];
    const [audit, ledger, fsa] = scratch.url
      ? await Promise.all(commands.map((args) => runCli(args, { env })))
      : // One command at a time on a PGlite folder.
        await commands.reduce<Promise<CliRun[]>>(
          async (runs, args) => [...(await runs), await runCli(args, { env })],
          Promise.resolve([]),
        );
    expect(audit.stdout, audit.stderr).toMatch(/^All \d+ audit chains verify \(6 entries\)\.\n/);
    expect(audit.code).toBe(0);
    expect(ledger.stdout, ledger.stderr).toMatch(/All \d+ accounts balance\.\n$/);
    expect(ledger.code).toBe(0);
    expect(fsa.stdout, fsa.stderr).toMatch(/All \d+ contracts balance\.\n$/);
    expect(fsa.code).toBe(0);

    // Today's app reads what the earlier release wrote: the account's audit log, as its admin sees it.
    await scratch.use(async (database) => {
      const said: string[] = [];
      expect(await migrated(database, (line) => said.push(line))).toBe(0);
      expect(said).toEqual([
        `The database is migrated: ${journal.length} migrations applied, the last ${journal.at(-1)!.tag}.`,
      ]);
      const app = await createTestApp(database, scratch.env);
      try {
        const { headers } = await signInAs(database.db, 'boss@acme.example');
        const res = await app.inject({
          method: 'POST',
          url: '/api/audit',
          headers,
          payload: { customerNumber: CN, limit: 100 },
        });
        expect(res.statusCode, res.body).toBe(200);
        const actions = (res.json().data as { action: string }[]).map((r) => r.action).sort();
        expect(actions).toEqual([
          'fsa.ordered',
          'fulfillments.created',
          'ip-rules.changed',
          'ip-rules.changed',
          'license-files.generated',
          'license-servers.added',
        ]);
      } finally {
        await app.close();
      }
    });
  }, 600_000);

  it('a migration that cannot be applied stops the start, naming it and why, and changes nothing', async () => {
    const scratch = await earlierRelease('upgfail');
    const before = await scratch.use(async (d) => {
      // Something made by hand where migration 0010 creates a table.
      await d.run('create table audit_checkpoints (id integer primary key)');
      return tableSnapshot(d.run);
    });

    const server = startServer({ ...scratch.env, PORT: String(await freePort()), JOBS_ENABLED: 'false' });
    expect(await server.exited).toBe(1);
    const output = server.output();
    expect(output).toContain(
      'Cannot open the database: Migration 0010_audit_checkpoints (0010_audit_checkpoints.sql) cannot be applied: relation "audit_checkpoints" already exists.',
    );
    expect(output).toContain('none was applied, the database is as it was');
    expect(output).not.toMatch(/\n\s+at /);
    // The owner's `migrate` before the nodes start (docs/operations.md 12.5) stops the same way.
    const migrate = await runCli(['migrate'], { env: cliEnv(scratch) });
    expect(migrate.stderr).toContain(
      'Cannot open the database: Migration 0010_audit_checkpoints (0010_audit_checkpoints.sql) cannot be applied',
    );
    expect(migrate.stdout).toBe('');
    expect(migrate.code).toBe(1);

    // 0009 ran before 0010 failed, in the same transaction: rolled back with it.
    const after = await scratch.use((d) => tableSnapshot(d.run));
    expect(after).toEqual(before);
    expect(after[MIGRATIONS].rows).toBe(OLD_MIGRATIONS);
  }, 600_000);
});

describe('migrations this release cannot apply faithfully are refused before any change', () => {
  /** A copy of today's migrations folder, with `change` applied to its journal and files. */
  function folderWith(change: (dir: string, entries: { when: number; tag: string }[]) => void) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-migrations-'));
    fs.cpSync(migrationsFolder, dir, { recursive: true });
    const file = path.join(dir, 'meta/_journal.json');
    const meta = JSON.parse(fs.readFileSync(file, 'utf8'));
    change(dir, meta.entries);
    fs.writeFileSync(file, JSON.stringify(meta));
    return dir;
  }

  it('a failing migration is named with the database error; the ones before it in the run are undone', async () => {
    const database = await createTestDatabase();
    const dir = folderWith((d, entries) => {
      const last = entries.at(-1)!.when;
      for (const [n, text] of [
        ['9998_adds_a_column', 'ALTER TABLE "accounts" ADD COLUMN "upgrade_probe" integer;'],
        ['9999_broken', 'CREATE INDEX "x" ON "accounts" ("name");\n--> statement-breakpoint\nSELECT 1 / 0;'],
      ] as const) {
        fs.writeFileSync(path.join(d, `${n}.sql`), text);
        entries.push({ ...entries[0], idx: entries.length, when: last + entries.length, tag: n } as never);
      }
    });
    try {
      const failure = await migrateDatabase(database, database.url, undefined, dir).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(MigrationError);
      expect((failure as Error).message).toMatch(
        /^Migration 9999_broken \(9999_broken\.sql\) cannot be applied: division by zero\. /,
      );
      const [{ n }] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from information_schema.columns where column_name = 'upgrade_probe'`,
      );
      expect(n).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await database.close();
    }
  });

  it('a database migrated by a newer release, or missing an older migration, is refused', async () => {
    const database = await createTestDatabase();
    const older = folderWith((d, entries) => {
      const dropped = entries.pop()!;
      fs.rmSync(path.join(d, `${dropped.tag}.sql`));
    });
    const gap = folderWith((d, entries) => {
      fs.writeFileSync(path.join(d, '0005b_forgotten.sql'), 'SELECT 1;');
      entries.splice(6, 0, { ...entries[5], when: entries[5].when + 1, tag: '0005b_forgotten' });
    });
    try {
      await expect(migrateDatabase(database, database.url, undefined, older)).rejects.toThrow(
        /^This database was migrated by a newer release of the portal: .* Nothing was changed\./,
      );
      await expect(migrateDatabase(database, database.url, undefined, gap)).rejects.toThrow(
        /^Migration 0005b_forgotten was never applied to this database, yet a later one was: it would be skipped\. Nothing was changed\./,
      );
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
      fs.rmSync(gap, { recursive: true, force: true });
      await database.close();
    }
  });
});
