import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything it printed so far, stdout and stderr */
  output: () => string;
}

/** `npm start`'s server (server/src/main.ts) as a real process, on 127.0.0.1, seeding nothing unless asked. */
export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, SEED_ON_EMPTY: 'false', LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Waits for the server's own "ready" line (printed once it listens), or fails when the process exits first. */
export async function waitReady(proc: ServerProcess): Promise<void> {
  const lines = createInterface({ input: proc.child.stdout! });
  const ready = new Promise<void>((resolve) =>
    lines.on('line', (line) => {
      if (line.startsWith('Licensing Portal is ready at')) resolve();
    }),
  );
  await Promise.race([
    ready,
    proc.exited.then((code) => {
      throw new Error(`server exited (${code}) before it was ready:\n${proc.output()}`);
    }),
  ]);
}

/** The JSON log lines the server printed so far (complete lines only: output arrives in chunks). */
export const logLines = (proc: ServerProcess): Record<string, unknown>[] =>
  proc
    .output()
    .split('\n')
    .slice(0, -1)
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

/** Waits until the server has logged a JSON line that `matches` (log lines arrive after the HTTP answer). */
export async function waitForLog(
  proc: ServerProcess,
  matches: (line: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (;;) {
    const found = logLines(proc).find(matches);
    if (found) return found;
    await Promise.race([
      new Promise((resolve) => proc.child.stdout!.once('data', resolve)),
      proc.exited.then((code) => {
        throw new Error(`server exited (${code}) before logging the line:\n${proc.output()}`);
      }),
    ]);
  }
}
