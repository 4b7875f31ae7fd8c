import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Database, openDatabase } from '@lp/server/db/database';
import { freePort } from '@lp/server/harness/free-port';
import { openBenchDatabase } from './bench-database.ts';

/** The real server as its own process, for the benches that measure over HTTP (activations, FSA). */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The real server (main.ts) on the seeded database; resolves once it prints its ready line. `settings` adds
 * or overrides environment for the port chosen (the Lighthouse bench serves the built app on the demo world).
 */
export async function startServer(
  dataDir: string,
  databaseUrl: string | undefined,
  settings: (port: number) => NodeJS.ProcessEnv = () => ({}),
) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED_ON_EMPTY: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: '/nonexistent',
  };
  Object.assign(env, settings(port));
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Licensing Portal is ready at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
  return { child, base: env.PUBLIC_URL ?? `http://127.0.0.1:${port}` };
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * One engine's run of an HTTP bench: `seed` fills a fresh database (a PGlite folder, closed again before the
 * server opens it, since one process holds it; or a throw-away PostgreSQL database), then `run` gets the real
 * server on it; the server, the database and the folder are removed afterwards.
 */
export async function withSeededServer<S>(
  engine: 'pglite' | 'postgres',
  seed: (database: Database) => Promise<S>,
  run: (server: { base: string }, seeded: S) => Promise<void>,
) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-'));
  const bench = engine === 'postgres' ? await openBenchDatabase('postgres', 4) : undefined;
  let child: ChildProcess | undefined;
  try {
    const database =
      bench?.database ??
      (await openDatabase({ pgliteDir: path.join(dataDir, 'pglite'), DATABASE_POOL_MAX: 1 }));
    const seeded = await seed(database);
    if (!bench) await database.close();
    const server = await startServer(dataDir, bench?.url);
    child = server.child;
    await run(server, seeded);
  } finally {
    if (child) await stopServer(child);
    await bench?.cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The machine's load averages (1, 5, 15 min) as the benches print them. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---- the calls ---------------------------------------------------------------------------------------------

export type Json = Record<string, unknown>;

export function caller(base: string, headers: Record<string, string>) {
  return async (url: string, body: object): Promise<Json> => {
    const res = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200 || json.status !== 'SUCCESS')
      throw new Error(`${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}
