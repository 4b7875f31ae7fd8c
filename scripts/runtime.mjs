// Runs the project's scripts on the Node.js version it needs (decision 019). When the machine's Node is older,
// installs the pinned runtime from the npm registry into runtime/ and re-runs the calling script with it, with
// its folder first on PATH so every child (npm install, vitest, playwright, the e2e server, tsx) uses it too.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const requiredMajor = 24;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runtimeDir = path.join(root, 'runtime');

/** True when a Node version string (process.versions.node, "24.21.0" or "v24.21.0") is too old for the project. */
export function needsPinnedRuntime(version) {
  const major = Number.parseInt(String(version).replace(/^v/, ''), 10);
  return !(major >= requiredMajor);
}

const mtime = (p) => {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};

/** Path of the pinned node binary, installing runtime/ (npm ci, ~130 MB once) when missing or stale. */
function pinnedNode() {
  const link = path.join(runtimeDir, 'node_modules', '.bin', 'node');
  const marker = path.join(runtimeDir, 'node_modules', '.package-lock.json');
  if (!fs.existsSync(link) || mtime(marker) < mtime(path.join(runtimeDir, 'package-lock.json'))) {
    console.log(
      `Node ${process.versions.node} is older than ${requiredMajor}: installing Node ${requiredMajor} into runtime/...`,
    );
    const r = spawnSync(
      'npm',
      ['ci', '--prefix', runtimeDir, '--no-audit', '--no-fund', '--loglevel=error'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (r.status !== 0 || !fs.existsSync(link)) {
      console.error(
        `Could not install Node ${requiredMajor} (npm ci --prefix runtime); install Node ${requiredMajor} and retry.`,
      );
      process.exit(1);
    }
  }
  // The .bin entry is a symlink; its real path is the binary whose folder goes on PATH.
  return fs.realpathSync(link);
}

/**
 * Makes sure this process runs on Node >= 24: returns at once when it does; otherwise re-runs the current script
 * with the pinned binary and exits with its status (never returns).
 */
export async function ensureRuntime() {
  if (!needsPinnedRuntime(process.versions.node)) return;
  if (process.env.LP_PINNED_RUNTIME) {
    console.error(`The pinned runtime reports Node ${process.versions.node}; expected ${requiredMajor}.`);
    process.exit(1);
  }
  const node = pinnedNode();
  const env = {
    ...process.env,
    PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}`,
    LP_PINNED_RUNTIME: '1',
  };
  const child = spawn(node, process.argv.slice(1), { stdio: 'inherit', env });
  // Forward termination so `npm start` under a supervisor still shuts the server down cleanly.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) =>
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0))),
  );
  process.exit(code);
}
