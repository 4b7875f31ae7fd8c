import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test/test-db.ts';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-main-'));
let database: TestDatabase | undefined;

afterAll(async () => {
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      SEED_ON_EMPTY: 'false',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Waits for the server's own "ready" line (printed once it listens), or fails when the process exits first. */
async function waitReady(proc: {
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}) {
  const lines = createInterface({ input: proc.child.stdout! });
  const ready = new Promise<void>((resolve) =>
    lines.on('line', (line) => {
      if (line.startsWith('Licensing Portal is ready at')) resolve();
    }),
  );
  await Promise.race([
    ready,
    proc.exited.then((code) => {
      throw new Error(`server exited (${code}) before it was ready:\n${proc.output()}`);
    }),
  ]);
}

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
    expect(res.headers.get('x-request-id')).toBe('req-test-1');
    kill(proc.child);
    expect(await proc.exited).toBe(0);
    const lines = proc
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.reqId === 'req-test-1')).toBe(true);
    expect(proc.output()).not.toContain('secret-cookie-value');
  }, 360_000);

  it('refuses to start with a bad variable and names it', async () => {
    const proc = start({ PORT: 'not-a-port' });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toContain('PORT');
  }, 120_000);
});
