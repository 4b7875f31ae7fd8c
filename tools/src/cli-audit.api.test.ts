import fs from 'node:fs';
import path from 'node:path';
import { type Db, migrateDatabase, openPglite } from '@lp/server/db/database';
import { automatedActor, recordAudit } from '@lp/server/features/audit/service';
import { buildElasticServer } from '@lp/server/harness/elastic-factories';
import { buildAccount } from '@lp/server/harness/factories';
import { signInAs } from '@lp/server/harness/sign-in';
import { auditEntriesOf } from '@lp/server/test/audit-entries';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.ts';
import { elastic } from './elastic.ts';
import { tokens } from './tokens.ts';

/*
 * Issue 13 §1: API tokens and license-server credentials created or revoked with `npm run cli` are audited as
 * an automated action of the command line (no portal user runs it).
 */

const CN = '5500001';

let database: TestDatabase;
let clsId: string;
let userId: string;
const lines: string[] = [];
// The commands tell the operator the id on stderr; the test keeps the answers.
const say = { out: (line: string) => lines.push(line), err: () => {} };

beforeAll(async () => {
  database = await createTestDatabase();
  await buildAccount(database.db, { customerNumber: CN, name: 'Acme' });
  clsId = await buildElasticServer(database.db, CN);
  ({ userId } = await signInAs(database.db, 'dev@acme.example'));
});

afterAll(async () => {
  await database?.close();
});

const byCli = {
  actorKind: 'automated',
  actorId: null,
  actorName: expect.stringMatching(/^Automated Action \(command line/),
  requestId: null,
  clientIp: null,
};

describe('CLI audit', () => {
  it('token create and revoke write one vendor-wide entry per token, never the token', async () => {
    await tokens.create(database.db, { email: 'dev@acme.example', expiresInDays: 30 }, say);
    await tokens.create(database.db, { email: 'dev@acme.example', name: 'nightly', expiresInDays: 90 }, say);
    const token = lines.at(-2)!;
    let rows = await auditEntriesOf(database.db, 'auth.api-token.');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: null,
      action: 'auth.api-token.created',
      objectType: 'api-token',
      before: null,
      after: { userId, name: 'command line', expiresAt: expect.stringMatching(/^\d{4}-/) },
    });
    expect(rows[1].after).toEqual({ userId, name: 'nightly', expiresAt: expect.stringMatching(/^\d{4}-/) });
    expect(JSON.stringify(rows)).not.toContain(token);

    // Revoking all of the user's tokens: one entry per token; a second run revokes (and records) nothing.
    await tokens.revoke(database.db, { user: 'dev@acme.example' }, say);
    await tokens.revoke(database.db, { user: 'dev@acme.example' }, say);
    await expect(tokens.revoke(database.db, { id: rows[0].objectId }, say)).rejects.toThrow(
      'No active token',
    );
    rows = (await auditEntriesOf(database.db, 'auth.api-token.')).filter(
      (r) => r.action === 'auth.api-token.revoked',
    );
    expect(rows.map((r) => r.objectId).sort()).toEqual(
      (await auditEntriesOf(database.db, 'auth.api-token.created')).map((r) => r.objectId).sort(),
    );
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: null,
      before: { revokedAt: null },
      after: { revokedAt: expect.stringMatching(/^\d{4}-/) },
    });
  });

  it('cls-credential issue and revoke write one entry of the account each; a failed revoke writes none', async () => {
    await elastic.issue(database.db, CN, undefined, say);
    const rows = await auditEntriesOf(database.db, 'cls-api.credential.');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      ...byCli,
      customerNumber: CN,
      action: 'cls-api.credential.issued',
      objectType: 'cls-credential',
      after: { clsId, createdBy: 'cli' },
    });
    const id = rows[0].objectId;
    await elastic.revoke(database.db, id, say);
    await expect(elastic.revoke(database.db, id, say)).rejects.toThrow('No active credential');
    await expect(elastic.issue(database.db, '5599999', undefined, say)).rejects.toThrow();
    const after = await auditEntriesOf(database.db, 'cls-api.credential.');
    expect(after.map((r) => r.action)).toEqual(['cls-api.credential.issued', 'cls-api.credential.revoked']);
    expect(after[1]).toMatchObject({ ...byCli, customerNumber: CN, objectId: id });
  });
});

/*
 * Issue 20 §5 (decision 044): `audit checkpoint` anchors the chains in a signed file; `audit verify` checks the
 * log against the checkpoints and names the first entry affected, and refuses a checkpoint file that was edited.
 */
describe('npm run cli -- audit checkpoint / audit verify', () => {
  it('exit 0 while the log matches its checkpoints; 1 naming a rolled-back chain and an edited checkpoint', async () => {
    const account = '5500010';
    // The CLI opens the database itself: the test's PostgreSQL database, or a PGlite folder of its own.
    const dataDir = await migratedDataDir('audit-cli');
    const dir = path.join(dataDir, 'audit-checkpoints');
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    delete env.AUDIT_CHECKPOINT_DIR;
    delete env.AUDIT_CHECKPOINT_KEY;
    if (database.url) env.DATABASE_URL = database.url;
    /** The database as the test (the owner) uses it between CLI runs; PGlite's folder is the CLI's while it runs. */
    const withDb = async (use: (db: Db) => Promise<unknown>) => {
      if (database.url) return use(database.db);
      const own = await openPglite(path.join(dataDir, 'pglite'));
      try {
        await migrateDatabase(own);
        await use(own.db);
      } finally {
        await own.close();
      }
    };
    try {
      await withDb(async (db) => {
        for (let n = 1; n <= 3; n++)
          await db.transaction((tx) =>
            recordAudit(tx as unknown as Db, automatedActor, [
              {
                customerNumber: account,
                action: 'ip-rules.changed',
                object: { type: 'ip-rules', id: account },
                after: { n },
              },
            ]),
          );
      });
      const made = await runCli(['audit', 'checkpoint'], { env });
      expect(made.stdout, made.stderr).toMatch(
        new RegExp(
          `^Checkpoint ${dir}/(audit-checkpoint-\\d{8}T\\d{9}Z\\.json): \\d+ chains, \\d+ entries\\.\\nThe chains match the previous checkpoint\\.\\n$`,
        ),
      );
      expect(made.code).toBe(0);
      const [file] = fs.readdirSync(dir);

      const ok = await runCli(['audit', 'verify', '--account', account], { env });
      expect(ok.stdout, ok.stderr).toMatch(
        new RegExp(
          `^All 1 audit chains verify \\(3 entries\\)\\.\\nChecked against 1 checkpoints in ${dir} \\(the latest of \\d{4}-.+\\)\\.\\n$`,
        ),
      );
      expect(ok.code).toBe(0);

      // The database owner deletes the last entry and moves the head back: the chain alone still verifies.
      await withDb((db) =>
        db.transaction(async (tx) => {
          await tx.execute(sql.raw('ALTER TABLE audit_entries DISABLE TRIGGER USER'));
          await tx.execute(sql.raw('ALTER TABLE audit_chain_heads DISABLE TRIGGER USER'));
          await tx.execute(sql.raw(`delete from audit_entries where chain = '${account}' and seq = 3`));
          await tx.execute(
            sql.raw(
              `update audit_chain_heads h set seq = 2, hash = e.hash from audit_entries e where h.chain = '${account}' and e.chain = h.chain and e.seq = 2`,
            ),
          );
          await tx.execute(sql.raw('ALTER TABLE audit_entries ENABLE TRIGGER USER'));
          await tx.execute(sql.raw('ALTER TABLE audit_chain_heads ENABLE TRIGGER USER'));
        }),
      );
      const bad = await runCli(['audit', 'verify', '--account', account], { env });
      expect(bad.stdout.split('\n')[0]).toMatch(
        new RegExp(
          `^chain ${account}: entries missing: the chain ends at entry 2, the checkpoint of .+ has entry 3 at entry 3 \\(2 entries verified before it\\)$`,
        ),
      );
      expect(bad.stdout).toContain('1 of 1 audit chains are broken.');
      expect(bad.code).toBe(1);

      // An auditor's copy of the folder, one file edited; checked with the public key the file names.
      const copy = path.join(dataDir, 'auditor');
      fs.mkdirSync(copy);
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const signed = JSON.parse(text);
      fs.writeFileSync(path.join(dataDir, 'checkpoint.pub'), signed.publicKey);
      signed.checkpoint.chains = [];
      signed.checkpoint.chainCount = 0;
      fs.writeFileSync(path.join(copy, file), JSON.stringify(signed));
      const forged = await runCli(
        [
          'audit',
          'verify',
          '--account',
          account,
          '--checkpoints',
          copy,
          '--public-key',
          path.join(dataDir, 'checkpoint.pub'),
        ],
        { env },
      );
      expect(forged.stdout).toContain(`checkpoint ${file}: bad signature\n`);
      expect(forged.stdout).toContain('1 checkpoint files cannot be trusted.');
      expect(forged.code).toBe(1);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
