import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/free-port.ts';
import { logLines, startServer, waitReady } from '../test/server-process.ts';
import { createTestDatabase, migratedDataDir, type TestDatabase } from '../test/test-db.ts';

const dataDir = await migratedDataDir('main');
let database: TestDatabase | undefined;

afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = (env: Record<string, string>) => startServer({ DATA_DIR: dataDir, ...env });
const kill = (c: ChildProcess) => c.kill('SIGTERM');

describe('the server process', () => {
  it('serves, logs JSON with request ids and no cookies, and shuts down cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port) };
    if (process.env.TEST_ENGINE === 'postgres') {
      database = await createTestDatabase();
      env.DATABASE_URL = database.url!;
    }
    const proc = start(env);
    await waitReady(proc);
    const res = await fetch(`http://127.0.0.1:${port}/api/getaccounts`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'lp_session=secret-cookie-value',
        'x-request-id': 'req-test-1',
      },
      body: '{}',
    });
    expect(res.status).toBe(401);
    // The server names the request itself (a client's X-Request-Id is only kept beside it, decision 044).
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    kill(proc.child);
    expect(await proc.exited).toBe(0);
    expect(logLines(proc).some((l) => l.reqId === requestId)).toBe(true);
    expect(logLines(proc).some((l) => l.reqId === 'req-test-1')).toBe(false);
    expect(proc.output()).not.toContain('secret-cookie-value');
  }, 360_000);

  // A login without the right to create (the app login of docs/operations.md §5 on a database nobody migrated): the
  // driver's "Failed query: …" alone hid why; the database's own reason is in the message.
  if (process.env.TEST_ENGINE === 'postgres')
    it('names the reason the database gives when it cannot migrate', async () => {
      const base = new URL(process.env.TEST_DATABASE_URL ?? '');
      const name = `lp_main_nocreate_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: base.href });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
        await admin.query(`create role ${name} login`);
        const url = new URL(base.href);
        url.username = name;
        url.pathname = `/${name}`;
        const proc = start({ PORT: String(await freePort()), DATABASE_URL: url.href });
        expect(await proc.exited).toBe(1);
        expect(proc.output()).toMatch(
          /Cannot open the database: Failed query: .*: permission denied for database/s,
        );
      } finally {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query(`drop role if exists ${name}`);
        await admin.end();
      }
    }, 120_000);

  it('refuses to start with a bad variable and names it', async () => {
    const proc = start({ PORT: 'not-a-port' });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toContain('PORT');
  }, 120_000);
});
