// `npm start`: install if needed, build the web app and compile the server if stale, then run the compiled server
// (server/dist/main.js, as production does) in this process, so SIGTERM/SIGINT reach its graceful shutdown
// directly: the npm script execs this file, npm forwards the signal to it and waits (decision 054).
// The server migrates the database and seeds the demo world on first run.
import { pathToFileURL } from 'node:url';
import { ensureInstalled, ensureServerBuilt, ensureWebBuilt, serverEntry } from './lib.mjs';
import { ensureRuntime } from './runtime.mjs';

await ensureRuntime();

ensureInstalled();
// WEB_DIST names a web bundle built elsewhere; the server serves that one.
if (!process.env.WEB_DIST) ensureWebBuilt();
ensureServerBuilt();
// What `node --enable-source-maps` does: stack traces name the TypeScript files.
process.setSourceMapsEnabled(true);
await import(pathToFileURL(serverEntry).href);
