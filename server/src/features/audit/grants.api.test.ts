import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditApi } from '@lp/contract/audit/api';
import { type SQL, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiOf, apiTest } from '../../../test/api-fixture.ts';
import { type Database, type Db, migrateDatabase, openPostgres } from '../../db/database.ts';
import { loadConfig } from '../../platform/config.ts';
import { makeCheckpoint } from './checkpoint-service.ts';
import { automatedActor, recordAudit } from './service.ts';
import { verifyAudit } from './verify-service.ts';

/*
 * The database logins docs/database-grants.sql sets up (decision 044), run as written: the app's login migrates
 * at start, serves requests, appends to the audit log and makes checkpoints, but cannot change, remove or
 * truncate audit entries, delete or move back a chain head, or switch the audit triggers off. On PostgreSQL the
 * app connects as its own login; PGlite has one connection, which takes the app's role (SET ROLE).
 */

const script = fs.readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/database-grants.sql'),
  'utf8',
);
const role = `lp_app_${randomBytes(4).toString('hex')}`;
/** The script's statements for this test's role: each ends its line with a semicolon. */
const statements = script
  .split('\n')
  .filter((line) => !line.startsWith('--'))
  .join('\n')
  .split(/;\s*$/m)
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => s.replace(/\blp_app\b/g, role));

const it = apiTest
  /** The database as the app's login sees it, with the URL it connects with (PostgreSQL only). */
  .extend('asApp', { scope: 'file' }, async ({ database }, { onCleanup }) => {
    await database.db.execute(sql.raw(`create role ${role} login`));
    for (const statement of statements) await database.db.execute(sql.raw(statement));
    if (!database.url) {
      await database.db.execute(sql.raw(`set role ${role}`));
      return { database: database as Database, url: undefined as string | undefined };
    }
    const url = new URL(database.url);
    url.username = role;
    const asApp = await openPostgres(url.toString(), 3);
    onCleanup(async () => {
      await asApp.close();
      // The role holds grants in the test database; they go first, then the role of the whole cluster.
      await database.db.execute(sql.raw(`drop owned by ${role}`));
      await database.db.execute(sql.raw(`drop role ${role}`));
    });
    return { database: asApp, url: url.toString() };
  });

async function refused(db: Db, statement: SQL, message: RegExp) {
  const error = await db.execute(statement).then(
    () => null,
    (e: Error) => e,
  );
  expect(String((error?.cause as Error | undefined)?.message ?? error?.message)).toMatch(message);
}

describe('docs/database-grants.sql', () => {
  it('lets the app login migrate at start, serve, append to the log and make checkpoints', async ({
    asApp: { database: asApp, url: appUrl },
    tempDir: dataDir,
    onTestFinished,
  }) => {
    await migrateDatabase(asApp, appUrl);
    const app = await createTestApp(asApp, { DATA_DIR: dataDir });
    onTestFinished(() => app.close());
    for (let n = 1; n <= 3; n++)
      await asApp.db.transaction((tx) =>
        recordAudit(tx as unknown as Db, automatedActor, [
          {
            customerNumber: '5890001',
            action: 'ip-rules.changed',
            object: { type: 'ip-rules', id: '5890001' },
            after: { n },
          },
        ]),
      );
    const config = loadConfig({ DATA_DIR: dataDir });
    const outcome = await makeCheckpoint(
      { db: asApp.db, config, log: app.log },
      { at: new Date(), period: null, node: 'test' },
    );
    expect(outcome).toMatchObject({ chains: 1, entries: 3, verification: { ok: true } });
    expect(await verifyAudit(asApp.db)).toEqual([{ chain: '5890001', entries: 3, ok: true }]);

    // Signed in through the app's login too: it writes the session.
    const busops = await signInAs(asApp.db, 'busops@vendor.example', { vendorRoles: ['busops'] });
    const status = await apiOf(app).ok(
      { email: 'busops@vendor.example', ...busops },
      auditApi.checkpointStatus,
      {},
    );
    expect(status.data).toMatchObject({ ok: true, problems: [] });
  });

  it('leaves the app login no way to change, remove or truncate the log, nor to switch its triggers off', async ({
    asApp: { database: asApp },
  }) => {
    const db = asApp.db;
    await refused(db, sql`update audit_entries set actor_name = 'x'`, /permission denied/);
    await refused(db, sql`delete from audit_entries`, /permission denied/);
    await refused(db, sql`truncate audit_entries`, /permission denied/);
    await refused(db, sql`delete from audit_chain_heads`, /permission denied/);
    await refused(db, sql`truncate audit_chain_heads`, /permission denied/);
    await refused(db, sql`update audit_chain_heads set seq = 1`, /audit chain heads only move forward/);
    await refused(db, sql`alter table audit_entries disable trigger user`, /must be owner/);
    await refused(db, sql`drop trigger audit_entries_no_truncate on audit_entries`, /must be owner/);
    await refused(db, sql`alter table audit_chain_heads disable trigger user`, /must be owner/);
    expect(await verifyAudit(db)).toEqual([{ chain: '5890001', entries: 3, ok: true }]);
  });
});
