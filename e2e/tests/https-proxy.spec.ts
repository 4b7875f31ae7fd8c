import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { freePort } from '@lp/server/harness/free-port';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { accountBox } from './helpers.ts';

/*
 * Issue 22 §3, decision 056: the portal as deployed, behind a real nginx from Debian's packages that ends TLS with
 * a certificate this file makes (its own CA and a server certificate for localhost). nginx runs the site file the
 * operations guide ships (docs/deploy/nginx.conf), with only the names, ports, certificate paths and node address
 * replaced; the server runs in production mode with PUBLIC_URL=https://… and TRUST_PROXY naming the proxy. The
 * browser starts at the plain-http address and signs in with the built-in provider (whose issuer is under
 * PUBLIC_URL) while sending a forged X-Forwarded-For. Checked as a user and an operator see it: the redirect to https, Secure/HttpOnly/Lax
 * cookies, HSTS, the client address in the server's log and the sign-in limit counted per browser address.
 *
 * nginx and the browser share this machine's loopback, so nginx talks to the server from an address of its own
 * (proxy_bind 127.0.0.2, the only line added to the shipped file): TRUST_PROXY=127.0.0.2 then trusts the proxy
 * and not the browser (127.0.0.1), as on a real network where the proxy and its clients have different addresses.
 *
 * The browser accepts the certificate because its chain carries the test CA, whose key this file's browser is
 * told to trust (--ignore-certificate-errors-spki-list: Chromium reads trusted roots from its NSS store, not from a
 * file); any other certificate error still fails the page. The test's own https requests verify the chain against
 * the CA for the name localhost, as a client that trusts the CA does.
 *
 * Explicit signals only: the server's ready line and /readyz, nginx ready when a TLS handshake verified against
 * the test CA answers /readyz through it (with a deadline). Everything started is stopped in afterAll, also when
 * starting failed.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const shippedSite = path.join(root, 'docs/deploy/nginx.conf');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));

const PROXY_ADDRESS = '127.0.0.2';
const BROWSER_ADDRESS = '127.0.0.1';
const FORGED = '203.0.113.9';
/** The demo users' password: production refuses the published default (decision 046). */
const PASSWORD = 'https-proxy-test-password';
/** Posts a minute to the sign-in form per client address; low, so a few requests reach it. */
const SIGN_IN_LIMIT = 4;

interface Stack {
  tlsPort: number;
  httpPort: number;
  /** PUBLIC_URL: the https address of the proxy */
  url: string;
  ca: string;
  /** The server's JSON log lines */
  log: Record<string, unknown>[];
  /** The server's log lines at error level */
  errors: string[];
}

let stack: Stack | undefined;
const cleanups: (() => Promise<void>)[] = [];

interface Certificates {
  /** The CA's certificate (PEM), which clients trust */
  ca: string;
  /** Base64 SHA-256 of the CA's public key (SPKI), as Chromium's trust switch takes it */
  caKeyHash: string;
  /** The server's certificate followed by the CA's (what nginx presents), and its key */
  certificate: string;
  key: string;
}

const test = base.extend<object, { certificates: Certificates }>({
  certificates: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-https-tls-'));
      try {
        await use(makeCertificates(folder));
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
    { scope: 'worker' },
  ],
  // This file's browser trusts the test CA (and only it) on top of the configuration's options.
  launchOptions: [
    async ({ launchOptions, certificates }, use) =>
      use({
        ...launchOptions,
        args: [
          ...(launchOptions.args ?? []),
          `--ignore-certificate-errors-spki-list=${certificates.caKeyHash}`,
        ],
      }),
    { scope: 'worker' },
  ],
  // The pages of this file go to the proxy, not to the single-node server of the other files.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  baseURL: async ({}, use) => use(stack?.url),
});

/** A CA and a server certificate for localhost signed by it (what a real CA would hand an operator). */
function makeCertificates(dir: string): Certificates {
  const openssl = (args: string) => execFileSync('openssl', args.split(' '), { cwd: dir, stdio: 'pipe' });
  const ec = '-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';
  openssl(
    `req -x509 ${ec} -keyout ca.key -out ca.pem -days 2 -subj /CN=lp-test-ca ` +
      '-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign',
  );
  openssl(`req ${ec} -keyout privkey.pem -out server.csr -subj /CN=localhost`);
  fs.writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' +
      'keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n',
  );
  openssl(
    'x509 -req -in server.csr -CA ca.pem -CAkey ca.key -set_serial 1 -days 2 -extfile server.ext -out server.pem',
  );
  const ca = fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8');
  fs.writeFileSync(
    path.join(dir, 'fullchain.pem'),
    fs.readFileSync(path.join(dir, 'server.pem'), 'utf8') + ca,
  );
  const caKey = new X509Certificate(ca).publicKey.export({ type: 'spki', format: 'der' });
  return {
    ca,
    caKeyHash: createHash('sha256').update(caKey).digest('base64'),
    certificate: path.join(dir, 'fullchain.pem'),
    key: path.join(dir, 'privkey.pem'),
  };
}

/** Replaces `from` in the shipped file, which must hold it exactly `times` times (so the guide cannot drift). */
function replaceIn(text: string, from: string, to: string, times: number): string {
  const found = text.split(from).length - 1;
  if (found !== times)
    throw new Error(
      `docs/deploy/nginx.conf holds "${from}" ${found} times, the test expects ${times}: update the test with the guide`,
    );
  return text.split(from).join(to);
}

/** The shipped site file with this machine's names, ports, certificate and node address. */
function siteForTest(
  ports: { tls: number; http: number; app: number },
  cert: { certificate: string; key: string },
) {
  let site = fs.readFileSync(shippedSite, 'utf8');
  site = replaceIn(
    site,
    'return 301 https://licensing.example.com$request_uri;',
    `return 301 https://localhost:${ports.tls}$request_uri;`,
    1,
  );
  site = replaceIn(site, 'server_name licensing.example.com;', 'server_name localhost;', 2);
  site = replaceIn(site, 'listen 80', `listen 127.0.0.1:${ports.http}`, 2);
  site = replaceIn(site, 'listen 443 ssl', `listen 127.0.0.1:${ports.tls} ssl`, 2);
  site = replaceIn(site, '/etc/ssl/licensing-portal/fullchain.pem', cert.certificate, 1);
  site = replaceIn(site, '/etc/ssl/licensing-portal/privkey.pem', cert.key, 1);
  // One node here; the second node's line goes (scale-out.spec.ts runs two nodes).
  site = replaceIn(site, 'server 10.0.0.11:8080', `server 127.0.0.1:${ports.app}`, 1);
  site = site.replace(/^\s*server 10\.0\.0\.12:8080[^\n]*\n/m, '');
  site = replaceIn(
    site,
    'proxy_pass http://licensing_portal;',
    `proxy_pass http://licensing_portal;\n        proxy_bind ${PROXY_ADDRESS};`,
    1,
  );
  return site;
}

/** Waits for `signal`, failing with the process's output if it exits first or the deadline passes. */
async function until<T>(what: string, signal: Promise<T>, exited: Promise<string>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not ready within ${ms / 1000} s`)), ms);
  });
  const died = exited.then((output) => {
    throw new Error(`${what} exited before it was ready:\n${output}`);
  });
  try {
    return await Promise.race([signal, deadline, died]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts a child process that is stopped (SIGTERM, then SIGKILL) by the cleanups. */
function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, onLine: (line: string) => void) {
  const child: ChildProcess = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const tail: string[] = [];
  const lines = (line: string) => {
    tail.push(line.slice(0, 2000));
    if (tail.length > 40) tail.shift();
    onLine(line);
  };
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', lines);
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', lines);
  const exit = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`exit ${code ?? signal}\n${tail.join('\n')}`)),
  );
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exit;
    clearTimeout(killer);
  });
  return { child, exit };
}

/** GET over TLS, verified against the test CA for the name localhost (as a client that trusts the CA does). */
function httpsGet(port: number, pathname: string, ca: string) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = https.get(
      {
        host: BROWSER_ADDRESS,
        port,
        path: pathname,
        servername: 'localhost',
        ca,
        headers: { host: `localhost:${port}` },
      },
      (answer) => {
        answer.resume();
        resolve(answer);
      },
    );
    request.on('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error('no answer within 10 s')));
  });
}

async function startStack(certs: Certificates): Promise<Stack> {
  if (!NGINX)
    throw new Error(
      'nginx is not installed (apt-get install -y nginx-light; npm test installs it when missing)',
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-https-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  // nginx's workers drop root's rights when run as root: they must reach their temporary folders.
  fs.chmodSync(dir, 0o755);
  const [tlsPort, httpPort, appPort] = [await freePort(), await freePort(), await freePort()];
  const url = `https://localhost:${tlsPort}`;

  const log: Record<string, unknown>[] = [];
  const errors: string[] = [];
  let printedReady: () => void = () => {};
  const readyLine = new Promise<void>((resolve) => {
    printedReady = resolve;
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(appPort),
    PUBLIC_URL: url,
    TRUST_PROXY: PROXY_ADDRESS,
    DATA_DIR: path.join(dir, 'data'),
    SEED_SESSIONS: '2000',
    // As deployed: production settings (https PUBLIC_URL required, no demo users listed on the sign-in page), with
    // the demo world seeded on purpose so there is someone to sign in as.
    APP_ENVIRONMENT: 'prod',
    DEMO_DATA_IN_PROD: 'true',
    DEMO_PASSWORD: PASSWORD,
    JOBS_ENABLED: 'false',
    LOGIN_RATE_LIMIT_PER_MINUTE: String(SIGN_IN_LIMIT),
    // Info: the request lines (with the client address) are what the test reads.
    LOG_LEVEL: 'info',
  };
  // Embedded PGlite in a fresh folder, whatever the caller's shell says.
  delete env.DATABASE_URL;
  const server = startChild(process.execPath, ['server/src/main.ts'], env, (line) => {
    if (line.includes('Licensing Portal is ready at')) printedReady();
    if (!line.startsWith('{')) return;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      log.push(entry);
      if (typeof entry.level === 'number' && entry.level >= 50) errors.push(line.slice(0, 2000));
    } catch {
      // not a log line
    }
  });

  const nginxDir = path.join(dir, 'nginx');
  fs.mkdirSync(nginxDir);
  fs.writeFileSync(
    path.join(nginxDir, 'licensing-portal.conf'),
    siteForTest({ tls: tlsPort, http: httpPort, app: appPort }, certs),
  );
  // The main file is the test's own (Debian's /etc/nginx/nginx.conf has the same shape and includes conf.d/).
  fs.writeFileSync(
    path.join(nginxDir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${nginxDir}/nginx.pid;`,
      'error_log stderr warn;',
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${nginxDir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (t) => `  ${t}_temp_path ${nginxDir}/${t};`,
      ),
      `  include ${nginxDir}/licensing-portal.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const nginx = startChild(
    NGINX,
    ['-e', 'stderr', '-p', `${nginxDir}/`, '-c', `${nginxDir}/nginx.conf`],
    process.env,
    () => {},
  );

  await until('The server', readyLine, server.exit, 240_000);
  const direct = await fetch(`http://127.0.0.1:${appPort}/readyz`);
  expect(direct.status, 'the server answers /readyz').toBe(200);
  // nginx is ready when a TLS handshake verified against the CA reaches the server through it.
  const throughProxy = (async () => {
    for (;;) {
      try {
        const answer = await httpsGet(tlsPort, '/readyz', certs.ca);
        if (answer.statusCode === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  await until('nginx', throughProxy, nginx.exit, 30_000);
  return { tlsPort, httpPort, url, ca: certs.ca, log, errors };
}

test.beforeAll(async ({ certificates }) => {
  test.setTimeout(300_000);
  stack = await startStack(certificates);
});

test.afterAll(async () => {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e: unknown) => failures.push(e));
  if (failures.length) throw failures[0];
});

/** Browser contexts a test opened, closed when it ends (inside the test, while its trace is still recorded). */
const contexts: BrowserContext[] = [];

test.afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  expect(stack?.errors.splice(0) ?? []).toEqual([]);
});

/** A browser context whose pages and requests go to the proxy (the browser trusts the test CA: launchOptions). */
async function proxyContext(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: stack!.url });
  contexts.push(context);
  return { context, page: await context.newPage() };
}

/** Client addresses the server logged for requests to `pathname` (Fastify's request line, req.remoteAddress). */
function loggedAddresses(method: string, pathname: RegExp): string[] {
  return stack!.log
    .filter((e) => e.msg === 'incoming request')
    .map((e) => e.req as { method: string; url: string; remoteAddress: string })
    .filter((r) => r.method === method && pathname.test(r.url))
    .map((r) => r.remoteAddress);
}

test('plain http at the proxy answers a permanent redirect to the https address', async () => {
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http
      .get(
        {
          host: BROWSER_ADDRESS,
          port: stack!.httpPort,
          path: '/elastic?from=2026-01-01',
          headers: { host: `localhost:${stack!.httpPort}` },
        },
        (a) => {
          a.resume();
          resolve(a);
        },
      )
      .on('error', reject),
  );
  expect(answer.statusCode).toBe(301);
  expect(answer.headers.location).toBe(`${stack!.url}/elastic?from=2026-01-01`);
  // Another host name gets nothing over http, and no certificate over https.
  const other = await new Promise<http.IncomingMessage | Error>((resolve) =>
    http
      .get(
        { host: BROWSER_ADDRESS, port: stack!.httpPort, path: '/', headers: { host: 'other.example' } },
        resolve,
      )
      .on('error', resolve),
  );
  expect(other).toBeInstanceOf(Error);
  const handshake = await new Promise<Error | null>((resolve) => {
    const socket = tls.connect({
      host: BROWSER_ADDRESS,
      port: stack!.tlsPort,
      servername: 'other.example',
      ca: stack!.ca,
    });
    socket.once('secureConnect', () => {
      socket.end();
      resolve(null);
    });
    socket.once('error', resolve);
  });
  expect(handshake).toBeInstanceOf(Error);
});

test('signs in through the proxy: Secure cookies, HSTS, and the browser address in the log whatever X-Forwarded-For it sends', async ({
  browser,
}) => {
  const { context, page } = await proxyContext(browser);
  // The browser claims another address on every request; nginx replaces the header with the address it saw.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': FORGED });

  // From the plain-http address: nginx sends the browser to https, the portal to its sign-in page.
  const landing = await page.goto(`http://localhost:${stack!.httpPort}/elastic`);
  let first = landing?.request();
  while (first?.redirectedFrom()) first = first.redirectedFrom() ?? undefined;
  expect(first?.url()).toBe(`http://localhost:${stack!.httpPort}/elastic`);
  expect((await first?.response())?.status()).toBe(301);
  await expect(page).toHaveURL(new RegExp(`^${stack!.url}/oidc/interaction/`));

  await page.getByLabel('Email').fill('busops@demo.example');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(accountBox(page)).toBeVisible();
  expect(new URL(page.url()).origin).toBe(stack!.url);

  // Every cookie the portal and its provider set is Secure; the session cookie is also HttpOnly and Lax.
  const cookies = await context.cookies(stack!.url);
  const session = cookies.find((c) => c.name === 'lp_session');
  expect(session, 'the session cookie').toBeDefined();
  expect(session).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
  expect(cookies.filter((c) => !c.secure).map((c) => c.name)).toEqual([]);

  // HSTS on the pages the browser loads through the proxy (one year, sub-domains included).
  const page2 = await page.goto('/elastic');
  const hsts = /^max-age=(\d+); includeSubDomains$/.exec(page2?.headers()['strict-transport-security'] ?? '');
  expect(Number(hsts?.[1])).toBeGreaterThanOrEqual(365 * 86_400);

  // The server logged the browser's address for the sign-in post, never the forged one.
  const signInPosts = loggedAddresses('POST', /^\/oidc\/interaction\/[^/]+\/login$/);
  expect(signInPosts).toEqual([BROWSER_ADDRESS]);
  const everything = stack!.log
    .filter((e) => e.msg === 'incoming request')
    .map((e) => (e.req as { remoteAddress: string }).remoteAddress);
  expect(new Set(everything)).toEqual(new Set([BROWSER_ADDRESS]));
  // The audit log shows the same address for the sign-in (Settings › Audit Log, the API behind it).
  const audit = await page.evaluate(async () => {
    const answer = await fetch('/api/audit', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-lp-csrf': '1' },
      body: JSON.stringify({ limit: 100 }),
    });
    return { status: answer.status, body: await answer.json() };
  });
  expect(audit.status).toBe(200);
  const rows = (audit.body as { data: { actor: string; action: string; clientIp: string | null }[] }).data;
  const signIns = rows.filter((r) => r.actor === 'busops@demo.example' && /sign/i.test(r.action));
  expect(signIns.length, JSON.stringify(rows.slice(0, 5))).toBeGreaterThan(0);
  expect(signIns.map((r) => r.clientIp)).toEqual(signIns.map(() => BROWSER_ADDRESS));
});

test('the sign-in limit counts per browser address: forging X-Forwarded-For gets no fresh allowance', async ({
  browser,
}) => {
  const { page } = await proxyContext(browser);
  await page.goto('/api/auth/login');
  await expect(page).toHaveURL(new RegExp(`^${stack!.url}/oidc/interaction/`));
  // The limit applies to the form's address before anything else: a post for a sign-in that does not exist
  // (answered "Sign-in expired", counting no failed password) uses the allowance as a real one does.
  const action = '/oidc/interaction/no-such-sign-in/login';

  // Posts to the sign-in form from the browser, each claiming another address. They share one allowance (the
  // address nginx saw), so one is refused after at most `limit` (twice that if the minute's window happens to end
  // during the posts); were each claimed address counted on its own, every post would find a fresh allowance.
  const answers: { status: number; remaining: string | null; text: string }[] = [];
  for (let i = 1; i <= 2 * SIGN_IN_LIMIT + 2 && answers.at(-1)?.status !== 429; i++) {
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `198.51.100.${i}` });
    answers.push(
      await page.evaluate(async (url) => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'email=nobody%40example.com&password=wrong',
        });
        return {
          status: answer.status,
          remaining: answer.headers.get('x-ratelimit-remaining'),
          text: await answer.text(),
        };
      }, action),
    );
  }
  const seen = answers.map(({ status, remaining }) => ({ status, remaining }));
  expect(answers.at(-1)?.status, JSON.stringify(seen)).toBe(429);
  expect(answers.length, JSON.stringify(seen)).toBeGreaterThan(1);
  // The refused post gets the sign-in page's words.
  expect(answers.at(-1)?.text).toContain('Too many sign-in attempts. Wait a minute and try again.');
  // Each allowed post left one less for the next, whatever address it claimed (or opened a new minute).
  for (let i = 1; i < answers.length - 1; i++)
    expect([Number(answers[i - 1].remaining) - 1, SIGN_IN_LIMIT - 1], JSON.stringify(seen)).toContain(
      Number(answers[i].remaining),
    );
  expect(
    loggedAddresses('POST', /^\/oidc\/interaction\/[^/]+\/login$/).every((a) => a === BROWSER_ADDRESS),
  ).toBe(true);
});
