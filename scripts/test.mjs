// `npm test`: every layer — lint, typecheck, unit, web components, API integration on PGlite and PostgreSQL,
// browser tests.
// Installs what is missing first (npm packages, Debian chromium). Ends with one "N passed, N failed" line.
// Two lanes run side by side after lint (issue 23 §5): the browser layer, which leaves about a third of two cores
// idle while it waits on pages and servers, and the other layers one after another; the lane that finishes its
// work first takes the next layer. Each line of a lane's output starts with its layer's name.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureInstalled, ensureWebBuilt, root, run } from './lib.mjs';
import { ensureRuntime } from './runtime.mjs';

await ensureRuntime();
const started = Date.now();
ensureInstalled();

/** Wall-clock seconds of each layer, printed at the end. */
const durations = [];
async function timed(layer, fn) {
  const t0 = Date.now();
  const result = await fn();
  durations.push([layer, (Date.now() - t0) / 1000]);
  return result;
}

/**
 * The layers beside the browser run at a lower CPU priority (nice 10, where `nice` exists): the browser tests
 * wait on pages and servers that must answer in time, the vitest layers only need the cycles left over.
 */
const NICE = fs.existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '10'] : [];

/**
 * Runs a command beside the other lane; answers its exit code. Each output line is prefixed with `label`.
 * `yielding` runs it at the lower priority.
 */
function runInLane(label, cmd, args, env = process.env, yielding = false) {
  return new Promise((resolve) => {
    const [bin, ...rest] = yielding && NICE.length ? [...NICE, cmd, ...args] : [cmd, ...args];
    const child = spawn(bin, rest, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) out.write(`[${label}] ${line}\n`);
      });
      stream.on('end', () => rest && out.write(`[${label}] ${rest}\n`));
    }
    child.on('error', () => resolve(1));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** Installs a Debian package when `binary` is missing; `apt-get update` once per run. */
let aptUpdated = false;
function ensureDebianPackage(binary, pkg, purpose) {
  if (fs.existsSync(binary)) return;
  console.log(`Installing Debian ${pkg} for ${purpose}...`);
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const apt = (args) =>
    spawnSync(sudo[0] ?? 'apt-get', [...(sudo.length ? ['apt-get'] : []), ...args], { stdio: 'inherit' });
  if (!aptUpdated) apt(['update', '-qq']);
  aptUpdated = true;
  const r = apt(['install', '-y', '-qq', pkg]);
  if (r.status !== 0 || !fs.existsSync(binary)) {
    console.error(`Could not install ${pkg} (apt-get install -y ${pkg}); ${purpose} cannot run.`);
    process.exit(1);
  }
}

function ensureChromium() {
  ensureDebianPackage('/usr/bin/chromium', 'chromium', 'the browser tests');
}

/** The https test (e2e/tests/https-proxy.spec.ts) runs the server behind a real nginx of its own (own config and ports). */
function ensureNginx() {
  ensureDebianPackage('/usr/sbin/nginx', 'nginx-light', 'the https proxy test');
}

/** Uses TEST_DATABASE_URL, or the local PostgreSQL of this machine kind when it answers. */
function postgresUrl() {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  const probe = 'postgres://postgres@127.0.0.1:5432/test';
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const pg=require('pg');const c=new pg.Client(${JSON.stringify(probe)});c.connect().then(()=>c.end()).then(()=>process.exit(0),()=>process.exit(1))`,
    ],
    { cwd: path.join(root, 'server'), timeout: 10_000 },
  );
  return r.status === 0 ? probe : undefined;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-test-'));
// Every Node.js process of the run (vitest workers, the servers and CLIs the tests start, Playwright's) keeps V8's
// compiled code of the modules it loads here, so the next process loading them skips compiling: about a second of
// each of some sixty server and CLI starts.
process.env.NODE_COMPILE_CACHE ??= path.join(tmp, 'node-compile-cache');
const totals = { passed: 0, failed: 0, skipped: 0 };
/** "layer: file > test" of each failed test, printed last: a CI log often keeps only its tail. */
const failures = [];

console.log('\n== lint (biome) ==');
await timed('lint', () => run('npx', ['biome', 'check', '.']));

const pgUrl = postgresUrl();
const statuses = [];
/** One vitest project per run, so each layer gets its own duration. */
async function vitestLayer(project, env = {}) {
  const json = path.join(tmp, `vitest-${project}.json`);
  const status = await timed(project, () =>
    runInLane(
      project,
      'npx',
      [
        'vitest',
        'run',
        '--project',
        project,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${json}`,
      ],
      { ...process.env, ...env },
      true,
    ),
  );
  statuses.push(status);
  const named = failures.length;
  if (fs.existsSync(json)) {
    const r = JSON.parse(fs.readFileSync(json, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    for (const file of r.testResults) {
      const rel = path.relative(root, file.name);
      const failed = file.assertionResults.filter((a) => a.status === 'failed');
      for (const a of failed) failures.push(`${project}: ${rel} > ${a.fullName}`);
      // A file that failed outside its tests (an import, a hook) names its message instead.
      if (file.status === 'failed' && failed.length === 0)
        failures.push(`${project}: ${rel}: ${String(file.message).split('\n')[0]}`);
    }
  } else if (status !== 0) {
    totals.failed += 1;
    failures.push(`${project}: exit code ${status}, no report`);
  }
  // A run that failed outside any test (an unhandled error, a global setup) still says so here.
  if (status !== 0 && failures.length === named)
    failures.push(`${project}: exit code ${status} (an error outside the tests: see its output above)`);
}
/**
 * Typecheck, unit, web components and both API engines: the layers beside the browser. The short ones first: with
 * the PGlite layer first (longest first), the browser layer had it beside it from its start, took 1 017 s instead
 * of 750 and two of its tests failed on timing (decision 069).
 */
const layers = [
  async () => {
    const typecheck = await timed('typecheck', () =>
      // TypeScript 7 (the native compiler) checks the tree in about half of 5.9's time; 5.9 stays the package
      // `typescript` for the outside generator the API tests run (openapi-typescript needs its API). Decision 072.
      runInLane(
        'typecheck',
        process.execPath,
        ['node_modules/typescript7/bin/tsc', '-p', '.'],
        process.env,
        true,
      ),
    );
    statuses.push(typecheck);
    if (typecheck !== 0) {
      totals.failed += 1;
      failures.push('typecheck: tsc -p . (TypeScript 7) reported errors (above)');
    }
  },
  () => vitestLayer('unit'),
  // A screen's variants as React components in jsdom (web/src/**/*.test.tsx), instead of one browser test each.
  () => vitestLayer('web-components'),
  () => vitestLayer('api-pglite'),
  ...(pgUrl ? [() => vitestLayer('api-postgres', { TEST_DATABASE_URL: pgUrl })] : []),
];
/** Runs the layers not yet started, one at a time; a lane that is done with its own work takes the next. */
async function layersLane() {
  for (let next = layers.shift(); next; next = layers.shift()) await next();
}

/** The web build, then the browser tests. */
async function browserLane() {
  await timed('build', () => ensureWebBuilt());
  const pwJson = path.join(tmp, 'playwright.json');
  const pwStatus = await timed('browser', () =>
    runInLane(
      'browser',
      'npx',
      ['playwright', 'test', '--config', 'e2e/playwright.config.ts', '--reporter=list,json'],
      {
        ...process.env,
        PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
        // The scale-out test (e2e/tests/scale-out.spec.ts) runs two API nodes on this PostgreSQL server.
        ...(pgUrl ? { TEST_DATABASE_URL: pgUrl } : {}),
      },
    ),
  );
  statuses.push(pwStatus);
  const named = failures.length;
  if (fs.existsSync(pwJson)) {
    const report = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
    const s = report.stats;
    totals.passed += s.expected + s.flaky;
    totals.failed += s.unexpected;
    totals.skipped += s.skipped;
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        if (!spec.ok) failures.push(`browser: ${spec.file} > ${[...titles, spec.title].join(' > ')}`);
      for (const child of suite.suites ?? [])
        walk(child, child.title === child.file ? titles : [...titles, child.title]);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    // Errors outside the tests (a file that does not load, the global setup, a worker's server that did not start).
    for (const error of report.errors ?? [])
      failures.push(`browser: ${String(error.message ?? error.value ?? '').split('\n')[0]}`);
  } else if (pwStatus !== 0) {
    totals.failed += 1;
    failures.push(`browser: exit code ${pwStatus}, no report`);
  }
  if (pwStatus !== 0 && failures.length === named)
    failures.push(`browser: exit code ${pwStatus} (an error outside the tests: see its output above)`);
}

ensureChromium();
ensureNginx();
// The two lanes run side by side (decision 069: 15.4 min instead of 24.5 on a quiet machine); LP_TEST_LANES=0
// runs them one after the other, for a layer's own time.
const lanes = process.env.LP_TEST_LANES !== '0';
console.log(
  `\n== typecheck, unit, web components, API (PGlite, PostgreSQL) ${lanes ? '|' : 'then'} build, browser ==`,
);
// The browser lane, once done, takes the next layer not yet started: the vitest layers are bound by CPU, and the
// last of them would otherwise run alone (api-postgres took its last 205 s so, decision 069).
if (lanes) await Promise.all([layersLane(), browserLane().then(layersLane)]);
else {
  await layersLane();
  await browserLane();
}

durations.push(['total', (Date.now() - started) / 1000]);
console.log(lanes ? '\nDurations (the build and browser layers ran beside the others):' : '\nDurations:');
for (const [layer, seconds] of durations)
  console.log(`  ${layer.padEnd(14)}${seconds.toFixed(1).padStart(8)} s`);
if (!pgUrl) {
  console.log(`\n${'!'.repeat(78)}`);
  console.log(
    '!! PostgreSQL integration suite NOT RUN: no TEST_DATABASE_URL and no server on 127.0.0.1:5432.',
  );
  console.log('!! Only the PGlite engine was tested. Set TEST_DATABASE_URL to run the PostgreSQL suite.');
  console.log('!'.repeat(78));
}
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(totals.failed > 0 || statuses.some((s) => s !== 0) ? 1 : 0);
