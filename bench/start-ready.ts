/**
 * Start-to-ready benchmark (issue 22 §1, decision 054): from spawning the server process to its first
 * `/readyz` 200, for the compiled server (`node --enable-source-maps server/dist/main.js`, what production and
 * `npm start` run) against today's way (`node --import tsx server/src/main.ts`: TypeScript compiled at start),
 * plus the compiled server without source maps. Every start opens its own copy of one migrated PGlite folder
 * (no demo data), so each variant finds the same database state; the variants take turns, the one going first
 * rotating every round, and a first round of each (tsx's transform cache, the page cache) is not counted.
 * Also the CPU time the process used until then (what compiling at start costs, hardly moved by other load on
 * the machine) and its resident memory. With --engine postgres every start opens one migrated
 * database on BENCH_DATABASE_URL's server instead (the production setup; PGlite's own start then drops out).
 *
 *   npm run bench:start -w @lp/bench -- [--rounds 7] [--engine pglite|postgres]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from '@lp/server/harness/free-port';
import { openBenchDatabase } from './bench-database.ts';

const { values: opt } = parseArgs({
  options: { rounds: { type: 'string', default: '7' }, engine: { type: 'string', default: 'pglite' } },
});
const ROUNDS = Number(opt.rounds);
const postgres = opt.engine === 'postgres' ? await openBenchDatabase('postgres', 1) : undefined;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-bench-start-'));

const variants = [
  {
    name: 'compiled (node --enable-source-maps server/dist/main.js)',
    args: ['--enable-source-maps', 'server/dist/main.js'],
  },
  { name: 'tsx (node --import tsx server/src/main.ts)', args: ['--import', 'tsx', 'server/src/main.ts'] },
  { name: 'compiled, no source maps (node server/dist/main.js)', args: ['server/dist/main.js'] },
];

/** CPU time (user + system) the process used so far, in ms: unlike wall time, hardly moved by other load. */
const cpuMs = (pid: number) => {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number);
  // Linux counts in clock ticks of 10 ms (CLK_TCK 100).
  return (utime + stime) * 10;
};

const rssMb = (pid: number) => {
  const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return kb ? Number(kb[1]) / 1024 : Number.NaN;
};

/** Starts the server with `args` on a copy of `template`; returns ms from spawn to /readyz 200 and its RSS. */
async function startToReady(args: string[], template: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
  if (template) fs.cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    SEED_ON_EMPTY: 'false',
    JOBS_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  if (postgres) {
    env.DATABASE_URL = postgres.url;
    // One key for every start: the first seals the database's key check value with it.
    env.PIN_ENCRYPTION_KEY = 'ab'.repeat(32);
  }
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let failed: number | null | undefined;
  void exited.then((code) => {
    failed = code;
  });
  // Polled, as a load balancer's health check does: the time is the first 200.
  for (;;) {
    if (failed !== undefined) throw new Error(`${args.join(' ')} exited (${failed}) before it was ready`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const ms = performance.now() - started;
  const cpu = cpuMs(child.pid!);
  const rss = rssMb(child.pid!);
  child.kill('SIGTERM');
  await exited;
  return { ms, cpu, rss, dataDir };
}

const median = (xs: number[]) => {
  const s = xs.toSorted((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const built = fs.existsSync(path.join(root, 'server/dist/main.js'));
if (!built) throw new Error('server/dist/main.js is missing: run `npm run build:server` first');
const loadBefore = os.loadavg();
console.log(`${os.availableParallelism()} cores (${os.cpus()[0]?.model}), Node ${process.version}`);

// The state every start finds: a PGlite folder (or the database) migrated by one start of the compiled server.
const template = (await startToReady(variants[0].args, undefined)).dataDir;
const times = variants.map(() => [] as number[]);
const cpu = variants.map(() => [] as number[]);
const rss = variants.map(() => [] as number[]);
for (let round = 0; round <= ROUNDS; round++) {
  for (let k = 0; k < variants.length; k++) {
    const v = (round + k) % variants.length;
    const result = await startToReady(variants[v].args, template);
    fs.rmSync(result.dataDir, { recursive: true, force: true });
    if (round === 0) continue;
    times[v].push(result.ms);
    cpu[v].push(result.cpu);
    rss[v].push(result.rss);
    console.log(
      `  round ${round} ${variants[v].name}: ${Math.round(result.ms)} ms, CPU ${Math.round(result.cpu)} ms, ${Math.round(result.rss)} MB`,
    );
  }
}
const loadAfter = os.loadavg();
fs.rmSync(work, { recursive: true, force: true });
await postgres?.cleanup();

const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
console.log(
  `\n${opt.engine}; load average before ${fmt(loadBefore)}, after ${fmt(loadAfter)}; ${ROUNDS} counted rounds\n`,
);
console.log(
  '| start | median ms to /readyz 200 | min–max ms | vs tsx | median CPU ms to ready | vs tsx | median RSS at ready MB |',
);
console.log('|---|---|---|---|---|---|---|');
const tsx = { ms: median(times[1]), cpu: median(cpu[1]) };
variants.forEach((v, i) => {
  const m = median(times[i]);
  const c = median(cpu[i]);
  console.log(
    `| ${v.name} | ${Math.round(m)} | ${Math.round(Math.min(...times[i]))}–${Math.round(Math.max(...times[i]))} | ${(m / tsx.ms).toFixed(2)} | ${Math.round(c)} | ${(c / tsx.cpu).toFixed(2)} | ${Math.round(median(rss[i]))} |`,
  );
});
