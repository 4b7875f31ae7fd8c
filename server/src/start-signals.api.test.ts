import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../harness/free-port.ts';
import { type ServerProcess, waitForLog, waitReady } from '../test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';

/*
 * Issue 22 §1 (decision 054): a supervisor (systemd, docker stop, a terminal's Ctrl-C) signals the process it
 * started, here `npm start`. The server must get the signal, finish the request in flight, and leave no process
 * behind. npm forwards SIGTERM to its child; the script execs node, so that child is the server itself.
 */

const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-signals-'));
let database: TestDatabase | undefined;
let npm: ServerProcess | undefined;

beforeAll(async () => {
  if (process.env.TEST_ENGINE === 'postgres') database = await createTestDatabase();
});

afterAll(async () => {
  // Only when an assertion failed half-way: the test ends the group itself.
  if (npm && npm.child.exitCode === null) process.kill(-npm.child.pid!, 'SIGKILL');
  await database?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** True while any process of the group still exists (kill with signal 0 only checks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

it('SIGTERM to `npm start` lets the request in flight finish, shuts the server down, and leaves no process', async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  const child = spawn('npm', ['start'], {
    cwd: root,
    // Its own process group, as under a supervisor: the test can then look for anything left of it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: path.join(work, 'data'),
      // The web bundle is not what this test is about: an empty one spares it a build of web/dist.
      WEB_DIST: path.join(work, 'web'),
      SEED_ON_EMPTY: 'false',
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '30000',
      ...(database ? { DATABASE_URL: database.url! } : {}),
    },
  });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  npm = { child, exited, output: () => output };
  await waitReady(npm);

  // A request in flight: its head is in, its body not yet, so the route has not answered.
  const client = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => client.once('connect', resolve));
  let answer = '';
  client.on('data', (chunk) => {
    answer += chunk.toString();
  });
  const ended = new Promise((resolve) => client.once('close', resolve));
  client.write(
    'POST /api/auth/logout HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{',
  );
  await waitForLog(npm, (line) => line.msg === 'incoming request' && line.req !== undefined);

  process.kill(child.pid!, 'SIGTERM');
  await waitForLog(npm, (line) => line.msg === 'shutting down' && line.signal === 'SIGTERM');
  // The server is closing and still holds the request: it gets its answer, not a cut connection.
  expect(answer).toBe('');
  client.write('}');
  // Answered in full, told to go elsewhere next time, then the server closes the connection.
  await ended;
  const answered = Date.now();
  expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"status":"SUCCESS"/);
  expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');

  // npm waited for the server and passes on its exit status.
  expect(await exited, output).toBe(0);
  // Nothing was left open, so the server did not wait for the cut at SHUTDOWN_GRACE_MS (30 s here).
  expect(Date.now() - answered).toBeLessThan(30_000);
  for (const deadline = Date.now() + 10_000; groupAlive(child.pid!) && Date.now() < deadline; )
    await new Promise((resolve) => setImmediate(resolve));
  expect(groupAlive(child.pid!), 'a process of the `npm start` group is still running').toBe(false);
  // And the server is gone, not only its parent.
  await expect(fetch(`http://127.0.0.1:${port}/readyz`)).rejects.toThrow();
}, 180_000);
