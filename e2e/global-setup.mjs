// Playwright global setup: one server migrates and seeds a database, then stops; every server of the run starts
// from a copy of its folder (start-server.mjs, E2E_DATA_TEMPLATE) instead of migrating and seeding its own.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const startServer = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start-server.mjs');

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export default async function globalSetup() {
  // A server already up (E2E_URL) needs no database of ours. A run of named spec files mostly starts one server,
  // which the template would not save but cost a start more: only whole runs (npm test) make it.
  if (process.env.E2E_URL || process.argv.some((a) => /\.spec\.ts(:\d+)*$/.test(a))) return;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-template-'));
  const template = path.join(root, 'data');
  const child = spawn(process.execPath, [startServer], {
    env: { ...process.env, PORT: String(await freePort()), E2E_SAVE_DATA_DIR: template },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.includes('Licensing Portal is ready at')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`The template server exited (${code}):\n${output}`)));
  });
  // A clean stop closes the database, so the folder can be copied.
  child.kill('SIGTERM');
  await exited;
  // Read by the workers' servers (Playwright starts its workers after this, with this environment).
  process.env.E2E_DATA_TEMPLATE = template;
  return () => fs.rmSync(root, { recursive: true, force: true });
}
