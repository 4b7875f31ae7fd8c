import fs from 'node:fs';
import path from 'node:path';
import { routeFeatures } from '@lp/domain/feature-flags';
import { openPglite } from '@lp/server/db/database';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_RUNS_TIMEOUT, type CliRun, runCli, runCliProcess } from '../test/run-cli.ts';

const engine = process.env.TEST_ENGINE ?? 'pglite';

let dataDir: string;
let pgDatabase: TestDatabase | undefined;

/** The operator's settings for the test's own database. */
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DEMO_PASSWORD: 'cli-demo-pw',
  };
  delete env.DATABASE_URL;
  if (pgDatabase?.url) env.DATABASE_URL = pgDatabase.url;
  return env;
}

/** A command run in this process, against the test's own database. */
const cli = (...args: string[]): Promise<CliRun> => runCli(args, { env: cliEnv() });

/**
 * The CLI as an operator runs it, a Node process, for what only a process shows: the real binary's exit codes, an
 * answer alone on stdout (no library writes there), the PGlite folder held by another process.
 */
const cliProcess = (...args: string[]): Promise<CliRun> => runCliProcess(args, { env: cliEnv() });

beforeAll(async () => {
  dataDir = await migratedDataDir('cli');
  if (engine === 'postgres') pgDatabase = await createTestDatabase();
});
afterAll(async () => {
  await pgDatabase?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`operator CLI (${engine})`, () => {
  it(
    'seeds a small demo world and prints a summary',
    async () => {
      const r = await cli('seed', '--sessions', '300', '--seed', '42');
      expect(r.stderr).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/usage_sessions\s+300\n/);
      expect(r.stdout).toMatch(/accounts\s+50\n/);
      // The product's route features (emptied with every table) are back, beside the demo's two experiments.
      expect(r.stdout).toMatch(new RegExp(`features\\s+${routeFeatures.length + 2}\\n`));
      expect(r.stdout).toContain('cli-demo-pw');
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'creates a token printing only the token, and revokes it',
    async () => {
      const created = await cliProcess('token', 'create', '--user', 'admin@acme.example', '--expires', '30');
      expect(created.code).toBe(0);
      // Nothing but the token on the process's stdout: scripts capture it.
      expect(created.stdout).toMatch(/^lp_[A-Za-z0-9_-]{20,}\n$/);
      const id = /Token ([0-9a-f-]{36})/.exec(created.stderr)?.[1];
      expect(id).toBeDefined();

      const revoked = await cli('token', 'revoke', '--id', id!);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toContain(`Revoked token ${id}`);
      const again = await cli('token', 'revoke', '--id', id!);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('No active token');
    },
    CLI_RUNS_TIMEOUT,
  );

  it('rotates the license signing key: a new current key, the old one kept as retired', async () => {
    const first = await cli('license', 'rotate-key');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^[0-9a-f]{8}\n$/);
    const second = await cli('license', 'rotate-key');
    expect(second.code).toBe(0);
    expect(second.stdout).not.toBe(first.stdout);
    const bad = await cli('license', 'rotate-key', '--json');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--json does not apply to "license rotate-key"/);
  });

  it(
    'issues and revokes a license-server credential and reconciles the seeded ledger',
    async () => {
      const issued = await cli('cls-credential', 'issue', '--account', '1000123');
      expect(issued.stderr).not.toMatch(/Error/);
      expect(issued.code).toBe(0);
      expect(issued.stdout).toMatch(/^cls_[A-Za-z0-9_-]{43}\n$/);
      const id = /Credential ([0-9a-f-]{36})/.exec(issued.stderr)?.[1];
      expect((await cli('cls-credential', 'revoke', '--id', id!)).stdout).toContain(
        `Revoked credential ${id}`,
      );
      expect((await cli('cls-credential', 'revoke', '--id', id!)).code).toBe(1);
      const none = await cli('cls-credential', 'issue', '--account', '9999999');
      expect(none.code).toBe(1);
      expect(none.stderr).toContain('has no active elastic license server');

      const reconciled = await cli('reconcile');
      expect(reconciled.code).toBe(0);
      expect(reconciled.stdout).toMatch(/All \d+ accounts balance\.\n$/);
      const json = await cli('reconcile', '--account', '1000123', '--json');
      const [row] = JSON.parse(json.stdout);
      expect(row).toMatchObject({ customerNumber: '1000123', balanced: true });
      expect(row.sessions).toBeGreaterThan(0);
      expect(row.sessions).toBeCloseTo(row.drawn + row.overage, 2);
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'fails clearly for an unknown user and for bad arguments',
    async () => {
      const unknown = await cli('token', 'create', '--user', 'nobody@nowhere.example');
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('No user with e-mail nobody@nowhere.example');

      const badArgs = [
        ['token', 'create'],
        ['seed', '--sessions', 'many'],
        ['users', 'list', '--bogus'],
        ['simulate', '--url', 'x', '--token', 't'],
        ['simulate', '--url', 'http://localhost:1'],
        ['cls-credential', 'revoke', '--id', 'nope'],
      ];
      // Refused before the database is opened, so they may run side by side.
      const answers = await Promise.all(badArgs.map((args) => cli(...args)));
      answers.forEach((bad, i) => {
        expect(bad.code, badArgs[i].join(' ')).toBe(2);
        expect(bad.stderr).toContain('Usage: npm run cli');
        expect(bad.stdout).toBe('');
      });
      // The process exits with that code.
      const exited = await cliProcess('token', 'create');
      expect(exited.code).toBe(2);
      expect(exited.stderr).toContain('Error: token create needs --user EMAIL\n\nUsage: npm run cli');
      expect(exited.stdout).toBe('');
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'lists users with vendor roles and per-account contact roles as JSON',
    async () => {
      const r = await cli('users', 'list', '--json');
      expect(r.code).toBe(0);
      const listing = JSON.parse(r.stdout) as {
        email: string;
        name: string;
        vendorRoles: string[];
        accounts: { customerNumber: string; customerName: string; role: string }[];
      }[];
      const byEmail = new Map(listing.map((u) => [u.email, u]));
      expect(byEmail.get('busops@demo.example')?.vendorRoles).toEqual(['busops']);
      expect(byEmail.get('busops@demo.example')?.accounts).toEqual([]);
      expect(byEmail.get('newhire@acme.example')?.accounts).toEqual([]);
      const acme = byEmail.get('admin@acme.example')!;
      expect(acme.vendorRoles).toEqual([]);
      expect(acme.accounts.length).toBeGreaterThanOrEqual(3);
      expect(acme.accounts[0]).toMatchObject({
        customerName: 'Acme Aerospace Inc.',
        role: 'Licensing Portal Administrator',
      });
      expect(byEmail.get('engineer@acme.example')?.accounts.map((a) => a.role)).toEqual([
        'Licensing Portal Viewer',
      ]);
    },
    CLI_RUNS_TIMEOUT,
  );

  // Only PGlite has a data folder to lock; PostgreSQL serves many clients.
  if (engine === 'pglite')
    it(
      'refuses clearly while another process holds the PGlite data folder',
      async () => {
        const held = await openPglite(path.resolve(dataDir, 'pglite'));
        try {
          const r = await cliProcess('users', 'list');
          expect(r.code).toBe(1);
          expect(r.stdout).toBe('');
          expect(r.stderr).toContain('is in use by another process');
          expect(r.stderr).toContain('stop the running server');
        } finally {
          await held.close();
        }
      },
      CLI_RUNS_TIMEOUT,
    );
});
