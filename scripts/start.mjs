// `npm start`: install if needed, build the web app if stale, then run the server in this process
// (the server migrates the database and seeds the demo world on first run).
import { ensureInstalled, ensureWebBuilt } from './lib.mjs';
import { ensureRuntime } from './runtime.mjs';

await ensureRuntime();

ensureInstalled();
ensureWebBuilt();
const { register } = await import('tsx/esm/api');
register();
await import('../server/src/main.ts');
