import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/free-port.ts';
import { type ServerProcess, waitForLog, waitReady } from '../test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';

/*
 * Issue 22 §1 (decision 054): production runs `node server/dist/main.js`, plain JavaScript compiled by
 * `npm run build`, with no TypeScript loader. The processes here are started as a supervisor would, from a folder
 * outside the repository, with NODE_OPTIONS cleared, and each one lists every module it loaded (module-log.mjs, a
 * resolve hook): no .ts file and nothing from tsx, TypeScript or esbuild may be among them.
 */

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'server', 'dist');
const moduleLog = path.join(import.meta.dirname, '..', 'test', 'module-log.mjs');
const engine = process.env.TEST_ENGINE ?? 'pglite';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-compiled-'));
let database: TestDatabase | undefined;

beforeAll(async () => {
  // The build under test: what `npm run build` runs for the server.
  const build = spawn(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  expect(await new Promise((resolve) => build.on('exit', resolve))).toBe(0);
  if (engine === 'postgres') database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** `node <script> <args>` from outside the repository, with a clean environment plus `env`. */
function runCompiled(
  script: string,
  args: string[],
  env: Record<string, string>,
  logFile: string,
): ServerProcess & { stdout: () => string } {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  delete clean.NODE_OPTIONS;
  delete clean.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', moduleLog, path.join(dist, script), ...args], {
    cwd: work,
    env: {
      ...clean,
      DATA_DIR: path.join(work, 'data'),
      SEED_ON_EMPTY: 'false',
      JOBS_ENABLED: 'false',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      LP_MODULE_LOG: logFile,
      ...(database ? { DATABASE_URL: database.url! } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout.on('data', (d) => {
    output += d;
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output, stdout: () => stdout };
}

/** The modules a finished process loaded, and the ones of them that would need a TypeScript loader. */
function loaded(logFile: string) {
  const urls = fs.readFileSync(logFile, 'utf8').split('\n');
  const typescript = urls.filter(
    (url) => /\.[cm]?tsx?$/.test(url) || /\/node_modules\/(tsx|typescript|esbuild|@esbuild)\//.test(url),
  );
  return { urls, typescript };
}

describe('the compiled server', () => {
  it('starts from server/dist without TypeScript, migrates a new database, serves, traces, and shuts down on SIGTERM', async () => {
    // An OTLP receiver: the bundle must start tracing before node:http and fastify load (decision 054).
    const spans: string[] = [];
    let received = () => {};
    const receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const { resourceSpans = [] } = JSON.parse(body) as {
          resourceSpans?: { scopeSpans: { scope: { name: string }; spans: { name: string }[] }[] }[];
        };
        for (const { scopeSpans } of resourceSpans)
          for (const { scope, spans: batch } of scopeSpans)
            for (const span of batch) spans.push(`${scope.name}: ${span.name}`);
        response.end('{}');
        received();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    const logFile = path.join(work, 'server-modules.txt');
    const proc = runCompiled(
      'main.js',
      [],
      {
        PORT: String(port),
        PUBLIC_URL: `http://localhost:${port}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
      logFile,
    );
    await waitReady(proc);

    // Migrations (server/drizzle) were found: the new database answers.
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: engine });
    // The root package.json was found: the API document carries the product's version.
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    const docs = await fetch(`http://127.0.0.1:${port}/api/docs`);
    expect((await docs.json()).info.version).toBe(version);
    const denied = await fetch(`http://127.0.0.1:${port}/api/getaccounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(denied.status).toBe(401);
    // The HTTP server's own span (instrumentation-http patches node:http) beside the framework's.
    const httpSpan = '@opentelemetry/instrumentation-http: GET /api/docs';
    while (!spans.includes(httpSpan)) await new Promise<void>((resolve) => (received = resolve));
    expect(spans).toContain('@fastify/otel: request');
    receiver.close();

    proc.child.kill('SIGTERM');
    await waitForLog(proc, (line) => line.msg === 'shutting down' && line.signal === 'SIGTERM');
    expect(await proc.exited).toBe(0);

    const { urls, typescript } = loaded(logFile);
    expect(urls).toContain(`file://${path.join(dist, 'main.js')}`);
    expect(urls.some((url) => url.includes('/node_modules/fastify/'))).toBe(true);
    expect(typescript).toEqual([]);
  }, 120_000);

  it('runs the operator CLI compiled beside it, on the same database, without TypeScript', async () => {
    const logFile = path.join(work, 'cli-modules.txt');
    const proc = runCompiled('cli.js', ['users', 'list', '--json'], {}, logFile);
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(proc.stdout())).toEqual([]);
    const { urls, typescript } = loaded(logFile);
    expect(urls).toContain(`file://${path.join(dist, 'cli.js')}`);
    expect(typescript).toEqual([]);
  }, 240_000);

  it('reads files beside its sources from where the sources are (migrations, web app, package.json)', () => {
    // scripts/build-server.mjs gives each source file's import.meta.url back its own location, in main.js and in
    // the chunks beside it that main.js imports once the settings are read.
    const code = fs
      .readdirSync(dist)
      .filter((name) => name.endsWith('.js'))
      .map((name) => fs.readFileSync(path.join(dist, name), 'utf8'))
      .join('\n');
    const rewritten = [...code.matchAll(/new URL\("([^"]+)", import\.meta\.url\)/g)].map((m) => m[1]);
    expect(rewritten).toEqual(
      expect.arrayContaining([
        '../src/db/database.ts',
        '../src/app.ts',
        '../src/features/platform/routes.ts',
      ]),
    );
    for (const file of rewritten) expect(fs.existsSync(path.join(dist, file)), file).toBe(true);
  });

  it('imports only packages that a production install (npm ci --omit=dev) keeps', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(dist, 'meta.json'), 'utf8')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    // Test helpers and the harness (data builders, sign-in without the IdP) stay out of the product.
    const sources = Object.keys(meta.inputs);
    expect(sources).toContain('server/src/app.ts');
    expect(sources.filter((file) => /^(server|tools)\/(test|harness)\//.test(file))).toEqual([]);
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const builtins = new Set(builtinModules);
    const packages = new Set<string>();
    for (const [file, output] of Object.entries(meta.outputs)) {
      if (!file.endsWith('.js')) continue;
      for (const { path: specifier, external } of output.imports) {
        // ./tracing.js: the bundle's own module (scripts/build-server.mjs keeps it first).
        if (!external || /^(node:|\.)/.test(specifier) || builtins.has(specifier)) continue;
        const parts = specifier.split('/');
        packages.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
      }
    }
    expect(packages).toContain('fastify');
    for (const name of packages) {
      const entry = lock.packages[`server/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
      expect(entry, name).toBeDefined();
      expect(entry.dev, `${name} is a development dependency`).not.toBe(true);
    }
    // And no workspace asks a production install for a TypeScript loader or compiler.
    for (const workspace of ['contract', 'domain', 'server', 'tools', 'web', 'e2e', 'bench', '.']) {
      const { dependencies = {} } = JSON.parse(
        fs.readFileSync(path.join(root, workspace, 'package.json'), 'utf8'),
      ) as { dependencies?: Record<string, string> };
      for (const tool of ['tsx', 'typescript', 'esbuild'])
        expect(dependencies[tool], `${workspace}/package.json dependencies`).toBeUndefined();
    }
  });
});
