// `node scripts/with-runtime.mjs <command> [args...]`: runs a command on Node >= 24 (the pinned runtime when the
// machine's Node is older) after installing dependencies if needed. Used by `npm run dev`, `npm run cli` etc.
import { spawnSync } from 'node:child_process';
import { ensureInstalled } from './lib.mjs';
import { ensureRuntime } from './runtime.mjs';

await ensureRuntime();
ensureInstalled();
const [command, ...args] = process.argv.slice(2);
const r = spawnSync(command, args, { stdio: 'inherit' });
process.exit(r.status ?? 1);
