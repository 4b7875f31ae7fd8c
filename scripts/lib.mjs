// Shared steps of `npm start` and `npm test`: plain Node, no dependencies, so they run before any install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0 && !options.allowFailure) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  return result.status ?? 1;
}

const mtime = (p) => {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

function newest(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
}

/** Installs dependencies when node_modules is missing or older than the lock file. */
export function ensureInstalled() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  if (fs.existsSync(marker) && mtime(marker) >= mtime(path.join(root, 'package-lock.json'))) return;
  // `npm install` rather than `npm ci`: npm 11 omits optional platform packages the registry does not serve
  // (e.g. Biome's non-Linux binaries) from the lock file and `npm ci` then refuses that lock file as out of sync.
  console.log('Installing dependencies (npm install)...');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

/** Builds the web app when any of its sources (or the shared packages) changed since the last build. */
export function ensureWebBuilt() {
  const stamp = path.join(root, 'web', 'dist', 'index.html');
  const sources = [
    'web/src',
    'web/index.html',
    'web/vite.config.ts',
    'web/public',
    'contract/src',
    'domain/src',
    'package-lock.json',
  ];
  const latest = Math.max(...sources.map((s) => newest(path.join(root, s))));
  if (fs.existsSync(stamp) && mtime(stamp) >= latest) return;
  console.log('Building the web app...');
  run('npm', ['run', 'build', '-w', '@lp/web']);
}

/** The compiled server's entry points (scripts/build-server.mjs writes them). */
export const serverEntry = path.join(root, 'server', 'dist', 'main.js');
export const cliEntry = path.join(root, 'server', 'dist', 'cli.js');

/**
 * Compiles the server and the CLI (scripts/build-server.mjs) when either is missing or older than any source it
 * bundles, so `npm start` and `npm run cli` run the code in the tree, compiled as production runs it.
 */
export function ensureServerBuilt() {
  const sources = ['server/src', 'tools/src', 'contract/src', 'domain/src', 'scripts/build-server.mjs'];
  const latest = Math.max(...sources.map((s) => newest(path.join(root, s))));
  if (Math.min(mtime(serverEntry), mtime(cliEntry)) >= latest) return;
  if (!fs.existsSync(path.join(root, 'node_modules', 'esbuild'))) {
    // A production install (npm ci --omit=dev) has no compiler: the build output must come with the release.
    console.error(
      'server/dist is missing or older than the sources, and esbuild is not installed: run `npm run build`',
    );
    process.exit(1);
  }
  // On stderr: `npm run cli -- token create` keeps stdout for the token alone.
  console.error('Compiling the server...');
  run(process.execPath, ['scripts/build-server.mjs'], { stdio: ['inherit', 2, 2] });
}
