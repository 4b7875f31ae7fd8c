import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Reconciliation } from '@lp/server/features/ledger/service';
import { freePort } from '@lp/server/harness/free-port';
import pg from 'pg';
import { type DeliveredMail, startSmtp } from './smtp.ts';

/*
 * The scale-out test's cluster (scale-out.spec.ts): one fresh PostgreSQL database, two real API nodes on it,
 * a round-robin HTTP proxy in front of them (the public URL) and an SMTP server both nodes deliver to.
 * Everything runs in or under the Playwright worker and is stopped by Cluster.stop(), also when starting fails.
 */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The PostgreSQL server of this machine kind, as scripts/test.mjs probes it when TEST_DATABASE_URL is unset. */
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

export type NodeName = 'A' | 'B';

export interface ApiNode {
  name: NodeName;
  /** Direct address of this node, bypassing the proxy. */
  url: string;
  /** The node's own log lines that are errors (pino level ≥ 50), and an unexpected exit. */
  errors: string[];
  /** Log messages of interest ('empty database: seeding the demo world', 'demo world seeded'). */
  messages: { msg: string; fields: Record<string, unknown> }[];
  child: ChildProcess;
}

export interface ProxyEntry {
  node: NodeName;
  method: string;
  path: string;
  /** The node's status, 502 when the proxy could not reach it, 0 while in flight. */
  status: number;
}

export interface Cluster {
  /** The proxy: the public URL both nodes are configured with. */
  url: string;
  databaseUrl: string;
  nodes: Record<NodeName, ApiNode>;
  /** Every request the proxy forwarded, in arrival order, with the node that answered it. */
  proxyLog: ProxyEntry[];
  mail: DeliveredMail[];
  /** Address each node sends from (MAIL_FROM), by node. */
  mailFrom: Record<NodeName, string>;
  /** Runs one query on the cluster's database (the tests' oracle for what the API does not show). */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
}

/** Runs the cleanups in reverse order; every one runs even when an earlier one fails. */
async function unwind(cleanups: (() => Promise<void>)[]) {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.reverse()) await cleanup().catch((e: unknown) => failures.push(e));
  if (failures.length) throw failures[0];
}

async function connectAdmin(): Promise<{ client: pg.Client; url: string }> {
  const url = process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  // A lost connection fails the next query (create or drop) with its own error; no stray event besides.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    throw new Error(
      `The scale-out test needs PostgreSQL (two API nodes on one database cannot run on PGlite) and could not ` +
        `connect to ${url}: ${(e as Error).message}. Set TEST_DATABASE_URL to a PostgreSQL server whose user may ` +
        'create databases (npm test passes the one it finds), or start the local one on 127.0.0.1:5432.',
    );
  }
  return { client, url };
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'];

/**
 * A round-robin reverse proxy: request n goes to node n mod 2, whatever connection it came on. It adds
 * X-Forwarded-For/Proto/Host as a load balancer does, keeps Host (the public host), and names the node that
 * answered in the X-Lp-Node response header and in its log.
 */
async function startProxy() {
  const log: ProxyEntry[] = [];
  let targets: { name: NodeName; port: number }[] = [];
  let turn = 0;
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    if (targets.length === 0) {
      res.writeHead(503).end();
      return;
    }
    const target = targets[turn++ % targets.length];
    const entry: ProxyEntry = { node: target.name, method: req.method ?? '', path: req.url ?? '', status: 0 };
    log.push(entry);
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        entry.status = answer.statusCode ?? 502;
        const out: http.OutgoingHttpHeaders = { ...answer.headers, 'x-lp-node': target.name };
        for (const h of HOP_BY_HOP) delete out[h];
        res.writeHead(entry.status, out);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      entry.status = 502;
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    log,
    url: `http://localhost:${port}`,
    setTargets: (t: typeof targets) => {
      targets = t;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}

/**
 * Spawns one API node (the real server/src/main.ts, no wrapper in between so SIGTERM reaches it) and reads its
 * JSON log. `ready` resolves once it printed its ready line and answers /readyz; it rejects when the node exits
 * first, with the node's last output.
 */
function spawnNode(name: NodeName, port: number, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: ApiNode = { name, url: `http://localhost:${port}`, errors: [], messages: [], child };
  const tail: string[] = [];
  let printedReady: () => void = () => {};
  const readyLine = new Promise<void>((resolve) => {
    printedReady = resolve;
  });
  let stopping = false;
  let exited: number | null | undefined;
  const onLine = (line: string) => {
    tail.push(line.slice(0, 2000));
    if (tail.length > 60) tail.shift();
    if (line.includes('Licensing Portal is ready at')) printedReady();
    if (!line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (typeof entry.level === 'number' && entry.level >= 50) node.errors.push(line.slice(0, 2000));
      if (entry.msg === 'empty database: seeding the demo world' || entry.msg === 'demo world seeded')
        node.messages.push({ msg: entry.msg, fields: entry });
    } catch {
      // not a log line
    }
  };
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', onLine);
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', onLine);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  const ready = (async () => {
    // Explicit signals only: the ready line (printed once it listens, after migrating and seeding) or the
    // node's exit; then /readyz must answer 200 (database reachable).
    await Promise.race([readyLine, exit]);
    if (exited !== undefined)
      throw new Error(`API node ${name} exited (${exited}) before it was ready:\n${tail.join('\n')}`);
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`);
    if (answer.status !== 200)
      throw new Error(`API node ${name} printed its ready line but /readyz answered ${answer.status}`);
    child.once('exit', (code) => {
      if (!stopping) node.errors.push(`API node ${name} exited unexpectedly (${code})`);
    });
  })();
  const stop = async () => {
    stopping = true;
    if (exited !== undefined) return;
    child.kill('SIGTERM');
    // The server force-exits 10 s after SIGTERM; SIGKILL only if even that did not happen.
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exit;
    clearTimeout(killer);
  };
  return { node, ready, stop };
}

/**
 * Creates a fresh database, starts the SMTP server and the proxy, then both nodes at the same moment on the
 * empty database (migrations and the demo seeding race; the nodes must settle it themselves), and waits for
 * both to be ready. On any failure everything already started is stopped again.
 */
export async function startCluster(): Promise<Cluster> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const admin = await connectAdmin();
    cleanups.push(() => admin.client.end());
    const name = `lp_scaleout_${process.pid}_${Date.now()}`;
    await admin.client.query(`create database ${name}`);
    cleanups.push(async () => {
      await admin.client.query(`drop database if exists ${name} with (force)`);
    });
    const databaseUrl = withDatabase(admin.url, name);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    // pool.end() resolves before its connections have closed, so dropping the database may still cut one: that
    // error reaches the pool with no query waiting for it (a failed query rejects its own promise anyway).
    pool.on('error', () => {});
    cleanups.push(() => pool.end());

    const smtp = await startSmtp(150);
    cleanups.push(smtp.close);
    const proxy = await startProxy();
    cleanups.push(proxy.close);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-scaleout-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const mailFrom: Record<NodeName, string> = { A: 'node-a@portal.example', B: 'node-b@portal.example' };
    // Settings every node of one deployment shares; each node differs only in port, data folder and sender.
    const shared: NodeJS.ProcessEnv = {
      ...process.env,
      HOST: '127.0.0.1',
      PUBLIC_URL: proxy.url,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_MAX: '5',
      TRUST_PROXY: 'loopback',
      SMTP_URL: smtp.url,
      PIN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      SEED_ON_EMPTY: 'true',
      SEED_SESSIONS: '2000',
      // The daily notices would add e-mails the outbox and seeding tests count; their once-per-run across nodes
      // is proven by the API tests (platform/jobs, notices).
      JOBS_ENABLED: 'false',
      // The outbox test asks for up to 52 statement e-mails as one user; the hourly limit is the API tests' subject.
      MAIL_USER_LIMIT_PER_HOUR: '100',
      // Info: the seeding messages are part of what the test checks.
      LOG_LEVEL: 'info',
    };
    const started = await Promise.all(
      (['A', 'B'] as const).map(async (n) => {
        const port = await freePort();
        const folder = path.join(dataDir, n);
        fs.mkdirSync(folder);
        return spawnNode(n, port, {
          ...shared,
          PORT: String(port),
          DATA_DIR: folder,
          MAIL_FROM: `Portal node ${n} <${mailFrom[n]}>`,
        });
      }),
    );
    for (const s of started) cleanups.push(s.stop);
    await Promise.all(started.map((s) => s.ready));
    const nodes = { A: started[0].node, B: started[1].node };
    proxy.setTargets([
      { name: 'A', port: Number(new URL(nodes.A.url).port) },
      { name: 'B', port: Number(new URL(nodes.B.url).port) },
    ]);
    return {
      url: proxy.url,
      databaseUrl,
      nodes,
      proxyLog: proxy.log,
      mail: smtp.mail,
      mailFrom,
      query: async <T extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
        (await pool.query<T>(text, values)).rows,
      stop: () => unwind(cleanups),
    };
  } catch (e) {
    await unwind(cleanups).catch(() => {});
    throw e;
  }
}

/** Runs `npm run cli -- reconcile --json` against the cluster's database; answers the exit code and rows. */
export async function reconcileCli(databaseUrl: string) {
  const child = spawn(process.execPath, ['tools/src/cli.ts', 'reconcile', '--json'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!stdout.trim().startsWith('['))
    throw new Error(`reconcile printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
  return { code, rows: JSON.parse(stdout) as Reconciliation[] };
}
