import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/free-port.ts';
import { startServer, waitReady } from '../test/server-process.ts';
import { TestBrowser } from '../test/test-browser.ts';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../test/test-db.ts';
import { openPglite } from './db/database.ts';
import { accounts, idpAccounts, users } from './db/schema.ts';

/*
 * Issue 20 §2 (decision 046): APP_ENVIRONMENT=prod is safe by default. The real server process refuses unsafe
 * settings with a message naming them (never a stack trace), and a first start seeds nothing: no demo world, no
 * user with a known password, no demo users on the sign-in page.
 */

const engine = process.env.TEST_ENGINE ?? 'pglite';
const dirs: string[] = [];
let database: TestDatabase | undefined;

afterAll(async () => {
  await database?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-prod-'));
  dirs.push(dir);
  return dir;
};

/** Starts the server with `env` and expects it to stop at once with exit code 2 and a message, no stack trace. */
async function refusedStart(env: Record<string, string>): Promise<string> {
  const proc = startServer({ DATA_DIR: dataDir(), PORT: String(await freePort()), ...env });
  expect(await proc.exited).toBe(2);
  const output = proc.output();
  expect(output).not.toMatch(/\n\s+at /);
  return output;
}

describe('starting in production', () => {
  it('refuses a PUBLIC_URL without a scheme, in any environment, saying so', async () => {
    const output = await refusedStart({ PUBLIC_URL: 'localhost:8080' });
    expect(output).toContain('PUBLIC_URL: expected the URL users reach, starting with https:// or http://');
  });

  it('refuses unsafe prod settings, naming each one and why', async () => {
    const output = await refusedStart({
      APP_ENVIRONMENT: 'prod',
      PUBLIC_URL: 'http://licensing.example.com',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      DEMO_DATA_IN_PROD: 'true',
    });
    expect(output).toContain('Refusing to start with APP_ENVIRONMENT=prod:');
    expect(output).toContain('PUBLIC_URL: must start with https://');
    expect(output).toContain('PIN_ENCRYPTION_KEY: required with DATABASE_URL');
    expect(output).toContain('DEMO_PASSWORD: DEMO_DATA_IN_PROD=true seeds demo users');
  });

  it('seeds nothing on an empty database and shows no demo users, even with SEED_ON_EMPTY', async () => {
    const port = await freePort();
    const publicUrl = `http://localhost:${port}`;
    // Migrated, with no row in it: what a first start finds once the migrations ran.
    const dir = await migratedDataDir('prod');
    dirs.push(dir);
    const env: Record<string, string> = {
      APP_ENVIRONMENT: 'prod',
      PUBLIC_URL: publicUrl,
      // A TLS proxy in front is the real setup; the test talks plain http to the node.
      ALLOW_INSECURE_URLS: 'true',
      SEED_ON_EMPTY: 'true',
      DATA_DIR: dir,
      PORT: String(port),
    };
    if (engine === 'postgres') {
      database = await createTestDatabase();
      env.DATABASE_URL = database.url!;
      env.PIN_ENCRYPTION_KEY = 'ab'.repeat(32);
      env.AUDIT_CHECKPOINT_KEY = 'cd'.repeat(32);
    }
    const proc = startServer(env);
    try {
      await waitReady(proc);
      const login = await new TestBrowser().navigate(`${publicUrl}/api/auth/login`);
      expect(login.url.pathname).toMatch(/^\/oidc\/interaction\//);
      const html = await login.response.text();
      expect(html).toContain('<label for="email">Email</label>');
      expect(html).not.toContain('Demo users');
      expect(proc.output()).not.toContain('Demo users');
      expect(proc.output()).not.toContain('seeding the demo world');
    } finally {
      proc.child.kill('SIGTERM');
      await proc.exited;
    }
    const opened = database ?? (await openPglite(path.join(dir, 'pglite')));
    try {
      for (const table of [accounts, idpAccounts, users]) {
        const [{ n }] = await opened.db.select({ n: count() }).from(table);
        expect(n).toBe(0);
      }
    } finally {
      if (!database) await opened.close();
    }
  }, 120_000);
});
