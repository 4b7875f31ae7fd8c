import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import type { Database } from '@lp/server/db/database';
import { fsaPrices, products } from '@lp/server/db/schema';
import {
  buildEntitlement,
  buildLease,
  buildLicenseServer,
  dayFromToday as day,
} from '@lp/server/harness/factories';
import { freePort } from '@lp/server/harness/free-port';
import { createTestApp } from '@lp/server/harness/test-app';
import { loadConfig } from '@lp/server/platform/config';
import { buildAccountFixture } from '@lp/server/test/account-fixture';
import { startServer, waitReady } from '@lp/server/test/server-process';
import { tableSnapshot } from '@lp/server/test/table-snapshot';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../test/run-cli.ts';
import { cliEnv, engine, type ScratchDatabase, scratchDatabase } from '../test/scratch-db.ts';
import { audit } from './audit.ts';
import { backup, restore } from './backup.ts';
import { seed } from './seed.ts';

/*
 * Issue 22 §4 (decision 057): a seeded database with activity (usage, an FSA order, a fulfillment and its license
 * file, IP rules, their audit entries, a signed audit checkpoint) is backed up as the operations guide says (PGlite:
 * `npm run cli -- backup`/`restore` with the server stopped; PostgreSQL: pg_dump -Fc and pg_restore into a new
 * database) and restored into a fresh database: every row of every table is there, the audit chain heads match,
 * `reconcile`, `fsa reconcile` and `audit verify` (against the source's checkpoints) pass, and the server runs on it.
 */

const CN = '7700001';
const exec = promisify(execFile);
const scratches: ScratchDatabase[] = [];
// Seeding and the commands report progress on stderr; the test reads only what it checks.
const quiet = { out: () => {}, err: () => {} };
afterAll(async () => {
  for (const s of scratches) await s.drop();
});

/** The activity of a working day, through the API: an FSA order, a fulfillment and its license file, IP rules. */
async function workOn(database: Database, env: Record<string, string>) {
  const app = await createTestApp(database, env);
  try {
    const { boss } = await buildAccountFixture(database.db, CN, '7700002');
    const ok = async (url: string, payload: object) => {
      const res = await app.inject({ method: 'POST', url, headers: boss, payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    };
    await database.db.insert(products).values({
      partNumber: 'BK-SOLVER',
      name: 'Solver',
      family: 'Fluids',
      daemon: 'cfdlmd',
      featureName: 'cfd',
    });
    const fsa = await buildEntitlement(database.db, CN, {
      activationId: 'BK-FSA',
      kind: 'FSA',
      licenseModel: 'FSA',
      startDate: day(-30),
      endDate: day(400),
      currency: 'USD',
      poNumber: 'PO-BK',
      priceCents: 1_000_000,
      busopsEmails: null,
    });
    await database.db
      .insert(fsaPrices)
      .values({ contractId: fsa.id, partNumber: 'BK-SOLVER', price7DaysCents: 1_000 });
    await ok('/api/entitlements', {
      customerNumber: CN,
      fsaID: 'BK-FSA',
      products: [{ ansysbpn: 'BK-SOLVER', ansyscount: 2, startdate: day(0), duration: '7' }],
    });
    await buildLease(database.db, CN, 'BK-LEASE', { partNumber: 'BK-SOLVER' });
    await ok('/api/fulfillments/create', {
      customerNumber: CN,
      serverName: 'bk',
      serverIdType: 'ETHERNET',
      serverId: '0A1B2C3D4E5F',
      activations: [{ id: 'BK-LEASE', count: 1 }],
    });
    await ok('/api/fulfillments/license', {
      customerNumber: CN,
      serverId: '0A1B2C3D4E5F',
      serverIdType: 'ETHERNET',
    });
    await buildLicenseServer(database.db, CN, { hostIdentity: 'BK-CLS', kind: 'elastic', state: 'Active' });
    await ok('/api/setips', {
      customerNumber: CN,
      clsId: 'BK-CLS',
      whitelist: [{ rulename: 'Office', ipaddress: '192.168.10.7' }],
    });
  } finally {
    await app.close();
  }
}

/** The per-table lines `backup` and `restore` print. */
const countLines = (stdout: string) => stdout.split('\n').filter((l) => /^ {2}\S+\.\S+ +\d+$/.test(l));

describe(`backup and restore (${engine})`, () => {
  it('a restored copy holds every row, balances, verifies against the checkpoints and serves', async () => {
    const source = await scratchDatabase('bksrc', true);
    const target = await scratchDatabase('bkdst');
    scratches.push(source, target);
    const config = loadConfig({ ...source.env, LOG_LEVEL: 'silent' });
    const HEADS = 'select chain, seq, hash from audit_chain_heads order by chain';
    const [before, heads] = await source.use(async (database) => {
      expect(await seed(database, config, { sessions: 2_000 }, quiet)).toBe(0);
      await workOn(database, source.env);
      expect(await audit.checkpoint(database.db, config, false, quiet)).toBe(0);
      return [await tableSnapshot(database.run), await database.run(HEADS)] as const;
    });
    expect(before['public.usage_sessions'].rows).toBe(2_000);
    expect(before['public.audit_entries'].rows).toBeGreaterThanOrEqual(5);
    expect(before['public.audit_checkpoints'].rows).toBe(1);
    expect(heads.length).toBeGreaterThan(0);

    const file = path.join(source.dataDir, 'licensing.backup');
    if (engine === 'pglite') {
      // While the server (here: this process) holds the folder, the copy is refused and nothing is written.
      await source.use(() =>
        expect(backup(config, file, quiet)).rejects.toThrow(
          'The server is running on this data folder, so a copy now would not be consistent. Stop the server',
        ),
      );
      expect(fs.existsSync(file)).toBe(false);
      const saved = await runCli(['backup', '--to', file], { env: cliEnv(source) });
      expect(saved.code, saved.stderr).toBe(0);
      // The sealing key is not in the backup (decision 057): it is carried on its own, as the guide says.
      fs.copyFileSync(
        path.join(source.dataDir, 'pin-encryption.key'),
        path.join(target.dataDir, 'pin-encryption.key'),
      );
      // `restore` through its function (the command line is `backup`'s, tested above): it prints the same table.
      const restored: string[] = [];
      expect(
        await restore(loadConfig(target.env), file, { ...quiet, out: (line) => restored.push(line) }),
      ).toBe(0);
      expect(countLines(restored.join('\n'))).toEqual(countLines(saved.stdout));
      expect(countLines(saved.stdout)).toHaveLength(Object.keys(before).length);
      // A restore never goes over a database.
      await expect(restore(loadConfig(target.env), file, quiet)).rejects.toThrow(
        'is not empty: a restore goes into an empty folder, never over a database.',
      );
    } else {
      await exec('pg_dump', ['-Fc', '--no-owner', '-f', file, source.url!]);
      await exec('pg_restore', ['--no-owner', '--no-acl', '--exit-on-error', '-d', target.url!, file]);
    }

    const [restored, restoredHeads] = await target.use(
      async (d) => [await tableSnapshot(d.run), await d.run(HEADS)] as const,
    );
    expect(restored).toEqual(before);
    expect(restoredHeads).toEqual(heads);

    const env = cliEnv(target);
    const checkpoints = path.join(source.dataDir, 'audit-checkpoints');
    const commands = [['audit', 'verify', '--checkpoints', checkpoints], ['reconcile'], ['fsa', 'reconcile']];
    const [verified, ledger, fsa] = target.url
      ? await Promise.all(commands.map((args) => runCli(args, { env })))
      : // One command at a time on a PGlite folder.
        await commands.reduce<Promise<CliRun[]>>(
          async (runs, args) => [...(await runs), await runCli(args, { env })],
          Promise.resolve([]),
        );
    expect(verified.stdout, verified.stderr).toMatch(
      new RegExp(
        `^All \\d+ audit chains verify \\(\\d+ entries\\)\\.\\nChecked against 1 checkpoints in ${checkpoints} `,
      ),
    );
    expect(verified.code).toBe(0);
    expect(ledger.stdout, ledger.stderr).toMatch(/All \d+ accounts balance\.\n$/);
    expect(ledger.code).toBe(0);
    expect(fsa.stdout, fsa.stderr).toMatch(/All \d+ contracts balance\.\n$/);
    expect(fsa.code).toBe(0);

    const port = await freePort();
    const server = startServer({ ...target.env, PORT: String(port), JOBS_ENABLED: 'false' });
    try {
      await waitReady(server);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      // The sealed license signing key opened with the carried key: nothing logged it as unreadable.
      expect(server.output()).not.toContain('sealed secrets cannot be opened');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
  }, 600_000);

  // Only PGlite has a `restore` command; PostgreSQL has pg_restore.
  if (engine === 'pglite')
    it('refuses a file that is not a whole backup before PGlite reads it, and leaves DATA_DIR empty', async () => {
      const target = await scratchDatabase('bkjunk');
      scratches.push(target);
      const files: [string, Buffer, string][] = [
        ['plain.backup', Buffer.from('not a backup'), 'incorrect header check'],
        ['not-tar.backup', gzipSync('a gzip file, not a tar archive'), 'not a tar archive'],
        ['cut.backup', gzipSync(randomBytes(100_000)).subarray(0, 50_000), 'unexpected end of file'],
      ];
      for (const [name, bytes, reason] of files) {
        const file = path.join(target.dataDir, name);
        fs.writeFileSync(file, bytes);
        const r = await runCli(['restore', '--from', file], { env: cliEnv(target) });
        expect([r.code, r.stdout, r.stderr]).toEqual([
          1,
          '',
          `${file} is not a PGlite backup this release can read: ${reason}\n`,
        ]);
      }
      expect(fs.existsSync(path.join(target.dataDir, 'pglite'))).toBe(false);
    });
});
