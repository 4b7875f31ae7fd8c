/**
 * Operator CLI: `npm run cli -- <command>` (the commands: tools/src/run-command.ts). Runs one command on this
 * process's arguments, environment and streams, and exits with its code once everything it opened is released.
 */
import '@lp/server/platform/node-version';

// Loaded after the version check: in the compiled bundle, a static import's chunks would load before it.
const { runCommand } = await import('./run-command.ts');

// Libraries (migrations, drivers) may log; keep stdout for the command's own output.
console.log = console.error;
console.info = console.error;

process.exitCode = await runCommand(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
