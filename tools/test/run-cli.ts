import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../src/run-command.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A test that runs the CLI as a process several times: each run opens (and for PGlite migrates) the database, about
 * 2 s of CPU; on a 2-core machine shared with other work a run took 20 s of wall time, so the ceiling is wide.
 */
export const CLI_RUNS_TIMEOUT = 300_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs an operator command in this process, with exactly the environment given, and answers what it wrote on each
 * stream and its exit code: what `npm run cli` does without starting Node and loading the server's modules again
 * (issue 23 §5). The command has released its database and PGlite folder when this resolves.
 */
export async function runCli(argv: string[], { env }: { env: NodeJS.ProcessEnv }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCommand(argv, {
    env,
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
  });
  return { code, stdout, stderr };
}

/**
 * Runs the operator CLI as a person would, for what only a process shows (its exit code, nothing but the answer on
 * stdout, the PGlite folder held by another process): Node running tools/src/cli.ts with its own type stripping
 * (no loader: a quarter less CPU per run than tsx), with exactly the environment given.
 */
export function runCliProcess(argv: string[], { env }: { env: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['tools/src/cli.ts', ...argv], { cwd: root, env });
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
