import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real server as its own process, for the benches that measure over HTTP (activations, FSA). */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The real server (main.ts) on the seeded database; resolves once it prints its ready line. */
export async function startServer(dataDir: string, databaseUrl: string | undefined) {
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
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
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
  return { child, base: `http://127.0.0.1:${port}` };
}

export async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

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
