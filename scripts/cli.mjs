// `npm run cli -- <command>`: the operator CLI compiled beside the server (server/dist/cli.js, decision 054),
// compiled first when a source changed; in this process so its exit code is the command's.
import { pathToFileURL } from 'node:url';
import { cliEntry, ensureInstalled, ensureServerBuilt } from './lib.mjs';
import { ensureRuntime } from './runtime.mjs';

await ensureRuntime();

ensureInstalled();
ensureServerBuilt();
process.setSourceMapsEnabled(true);
await import(pathToFileURL(cliEntry).href);
