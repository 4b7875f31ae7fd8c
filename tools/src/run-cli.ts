import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A test that runs the CLI several times: each run is a process that opens (and for PGlite migrates) the database,
 * about 2 s of CPU; on a 2-core machine shared with other work a run took 20 s of wall time, so the ceiling is wide.
 */
export const CLI_RUNS_TIMEOUT = 300_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the operator CLI as a person would (tests): Node running tools/src/cli.ts with its own type stripping (no
 * loader: a quarter less CPU per run than tsx), with exactly the environment given.
 */
export function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['tools/src/cli.ts', ...args], {
      cwd: root,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
