import fs from 'node:fs';
import path from 'node:path';
import { type Database, openPglite } from '@lp/server/db/database';
import { auditEntries, idpAccounts, passwordLinks, users as userRows } from '@lp/server/db/schema';
import { verifyPassword } from '@lp/server/features/auth/service';
import { freePort } from '@lp/server/harness/free-port';
import { createTestApp } from '@lp/server/harness/test-app';
import { loadConfig } from '@lp/server/platform/config';
import { formAction, TestBrowser } from '@lp/server/test/test-browser';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '@lp/server/test/test-db';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../test/run-cli.ts';
import { tokens } from './tokens.ts';
import { users } from './users.ts';

/*
 * Issue 20 §2-3 (decision 046): on a production installation nobody has a known password; the operator creates the
 * first vendor administrator with a set-password link printed once, and disables, removes and re-links users.
 */

const engine = process.env.TEST_ENGINE ?? 'pglite';
const pinKey = 'c0'.repeat(32);

let dataDir: string;
let port: number;
let publicUrl: string;
let pgDatabase: TestDatabase | undefined;

/** The production settings the CLI runs with here (https in front is the proxy's job, hence ALLOW_INSECURE_URLS). */
const prodEnv = () => ({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  APP_ENVIRONMENT: 'prod',
  PUBLIC_URL: publicUrl,
  ALLOW_INSECURE_URLS: 'true',
  PIN_ENCRYPTION_KEY: pinKey,
  AUDIT_CHECKPOINT_KEY: 'cd'.repeat(32),
  ...(pgDatabase?.url ? { DATABASE_URL: pgDatabase.url } : {}),
});
const config = () => loadConfig(prodEnv());

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const full: NodeJS.ProcessEnv = { ...process.env, ...prodEnv(), ...env };
  if (!pgDatabase?.url) delete full.DATABASE_URL;
  delete full.DEMO_PASSWORD;
  return runCli(args, { env: full });
}

/** The database the CLI wrote, opened by the test once the command has ended (a PGlite folder has one user). */
async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
  if (pgDatabase) return work(pgDatabase);
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  dataDir = await migratedDataDir('cli-users');
  port = await freePort();
  publicUrl = `http://localhost:${port}`;
  if (engine === 'postgres') pgDatabase = await createTestDatabase();
});

afterAll(async () => {
  await pgDatabase?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`users on a production installation (${engine})`, () => {
  it('refuses to seed demo users in prod', async () => {
    const r = await cli(['seed', '--sessions', '10']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('APP_ENVIRONMENT=prod: seed would erase the data');
  });

  it('creates the first vendor administrator with a set-password link, printed once and stored only as a hash', async () => {
    const bad = await cli(['users', 'add', '--user', 'root@vendor.example', '--role', 'superuser']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown vendor role superuser');

    const added = await cli([
      'users',
      'add',
      '--user',
      'Root@Vendor.example',
      '--name',
      'Root',
      '--role',
      'admin',
    ]);
    expect(added.stderr).toContain('usable once until');
    expect(added.code).toBe(0);
    const link = added.stdout.trim();
    expect(link).toMatch(new RegExp(`^${publicUrl}/oidc/set-password/[\\w-]{43}$`));
    const secret = link.split('/').at(-1)!;

    await withDatabase(async ({ db }) => {
      const [account] = await db
        .select()
        .from(idpAccounts)
        .where(eq(idpAccounts.email, 'root@vendor.example'));
      expect(account).toMatchObject({ name: 'Root', roles: ['admin'] });
      // Nobody knows a password yet: not the published demo one, not an empty one.
      expect(await verifyPassword('demo-password', account.passwordHash)).toBe(false);
      expect(await verifyPassword('', account.passwordHash)).toBe(false);
      const stored = JSON.stringify(await db.select().from(passwordLinks));
      expect(stored).not.toContain(secret);
      const [entry] = await db.select().from(auditEntries).where(eq(auditEntries.action, 'auth.user.added'));
      expect(entry).toMatchObject({ objectId: 'root@vendor.example', after: { vendorRoles: ['admin'] } });
      expect(JSON.stringify(entry)).not.toContain(secret);
    });

    // The person opens the link, sets a password, and signs in with it: an administrator with nothing seeded.
    await withDatabase(async (database) => {
      const app = await createTestApp(database, {
        PORT: String(port),
        PUBLIC_URL: publicUrl,
        APP_ENVIRONMENT: 'prod',
        ALLOW_INSECURE_URLS: 'true',
      });
      try {
        await app.listen({ host: '127.0.0.1', port });
        const browser = new TestBrowser();
        const page = await browser.navigate(link);
        const html = await page.response.text();
        expect(html).toContain('Set your password');
        expect(html).toContain('root@vendor.example');
        const short = await browser.postForm(formAction(html, page.url), {
          password: 'short',
          confirm: 'short',
        });
        expect(await short.response.text()).toContain('at least 12 characters');
        const differ = await browser.postForm(formAction(html, page.url), {
          password: 'a-long-password-1',
          confirm: 'a-long-password-2',
        });
        expect(await differ.response.text()).toContain('The two passwords differ.');
        const set = await browser.postForm(formAction(html, page.url), {
          password: 'correct horse battery',
          confirm: 'correct horse battery',
        });
        expect(await set.response.text()).toContain('Your password is set.');
        // Used up.
        expect((await browser.navigate(link)).response.status).toBe(404);

        const login = await browser.navigate(`${publicUrl}/api/auth/login`);
        const form = await login.response.text();
        expect(form).not.toContain('Demo users');
        const done = await browser.postForm(formAction(form, login.url), {
          email: 'root@vendor.example',
          password: 'correct horse battery',
        });
        expect(done.url.href).toBe(`${publicUrl}/`);
        const me = await browser.request(`${publicUrl}/api/auth/session`);
        expect((await me.json()).data).toMatchObject({
          email: 'root@vendor.example',
          vendorRoles: ['admin'],
        });
      } finally {
        await app.close();
      }
    });

    // A forgotten password: a new link (the command's function, in this process: the CLI run above proved the wiring).
    const printed: string[] = [];
    await withDatabase(({ db }) =>
      users['password-link'](db, config(), 'root@vendor.example', {
        out: (l) => printed.push(l),
        err: () => {},
      }),
    );
    expect(printed).toEqual([
      expect.stringMatching(new RegExp(`^${publicUrl}/oidc/set-password/[\\w-]{43}$`)),
    ]);
    expect(printed[0]).not.toBe(link);
  }, 180_000);

  it('disables, enables, re-links and removes users, each audited; unknown users are a message', async () => {
    // Refused before the database opens, so they run side by side.
    const usage = await Promise.all([
      cli(['users', 'relink']),
      cli(['users', 'disable']),
      cli(['users', 'add']),
    ]);
    for (const r of usage) expect([r.code, r.stdout]).toEqual([2, '']);
    const unknown = await cli(['users', 'disable', '--user', 'nobody@nowhere.example']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user with e-mail nobody@nowhere.example');

    const disabled = await cli(['users', 'disable', '--user', 'root@vendor.example']);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toMatch(
      /Disabled root@vendor\.example: 1 session\(s\) ended, 0 token\(s\) revoked\./,
    );
    const token = await cli(['token', 'create', '--user', 'root@vendor.example']);
    expect(token.code).toBe(1);
    expect(token.stderr).toContain('is disabled');

    // The rest through the commands' functions (each run of the command line opens the database again).
    const lines: string[] = [];
    const say = { out: (line: string) => lines.push(line), err: () => {} };
    await withDatabase(async ({ db }) => {
      await users.list(db, false, say);
      expect(lines.join('\n')).toMatch(/root@vendor\.example \(Root\) \[admin\] - DISABLED/);
      await users.enable(db, config(), 'root@vendor.example', say);
      expect(lines.at(-1)).toBe('Enabled root@vendor.example.');
      await tokens.create(db, { email: 'root@vendor.example', name: 'ops', expiresInDays: 90 }, say);
      expect(lines.at(-1)).toMatch(/^lp_/);
      await users.relink(db, { email: 'root@vendor.example', all: false }, say);
      expect(lines.at(-1)).toContain('1 user(s) unbound');
      await users.remove(db, config(), 'root@vendor.example', say);
      expect(lines.at(-1)).toContain('Removed root@vendor.example: 1 token(s) revoked');
    });
    await withDatabase(async ({ db }) => {
      expect(await db.select().from(userRows).where(eq(userRows.email, 'root@vendor.example'))).toEqual([]);
      expect(await db.select().from(idpAccounts).where(eq(idpAccounts.email, 'root@vendor.example'))).toEqual(
        [],
      );
      const actions = (
        await db.select().from(auditEntries).where(like(auditEntries.action, 'auth.user.%'))
      ).map((e) => e.action);
      expect(actions).toEqual([
        'auth.user.added',
        'auth.user.password-set',
        'auth.user.password-link-issued',
        'auth.user.disabled',
        'auth.user.enabled',
        'auth.user.relinked',
        'auth.user.removed',
      ]);
    });
  }, 180_000);

  it('leaves users add to the external provider when one is configured', async () => {
    const r = await cli(['users', 'add', '--user', 'x@vendor.example'], {
      OIDC_ISSUER: 'https://idp.example.com',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 'secret',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('OIDC_ISSUER is set');
  });
});
