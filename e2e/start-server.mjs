// Starts the real API + SPA server for the browser tests on a fresh database.
// Needs the built web app (npm run build -w @lp/web); the server serves web/dist.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '18777';
// E2E_SAVE_DATA_DIR: the folder to keep the database in (global-setup.mjs makes the seeded template so);
// otherwise a fresh folder, removed on exit.
const keep = process.env.E2E_SAVE_DATA_DIR;
const dataDir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'lp-e2e-'));
// Migrating and seeding an empty database takes seconds per server: a server of the browser tests starts from a
// copy of the run's seeded template (E2E_DATA_TEMPLATE, global-setup.mjs) when there is one. The copy is the
// database a fresh server would seed (the seed is fixed), key file included.
const template = process.env.E2E_DATA_TEMPLATE;
if (template && !keep)
  fs.cpSync(template, dataDir, { recursive: true, filter: (from) => !from.endsWith('.lock') });

if (!fs.existsSync(path.join(process.env.WEB_DIST ?? path.join(root, 'web/dist'), 'index.html'))) {
  console.error('web/dist is missing: run `npm run build -w @lp/web` first');
  process.exit(1);
}

// The browser tests always use embedded PGlite in a fresh folder, whatever the caller's shell says.
const env = { ...process.env };
delete env.DATABASE_URL;

// The server runs in a direct child (no npx/tsx wrappers in between), so a SIGTERM here reaches it.
const child = spawn(process.execPath, ['server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...env,
    PORT: port,
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    SEED_SESSIONS: '2000',
    // The daily jobs (notices) would add e-mails to the demo accounts at a moment no test chooses; a test that
    // needs them turns them on.
    JOBS_ENABLED: process.env.JOBS_ENABLED ?? 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});

const cleanup = () => keep || fs.rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code) => {
  cleanup();
  process.exit(code ?? 0);
});
