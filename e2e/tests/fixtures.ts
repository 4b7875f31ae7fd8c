import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@lp/server/harness/free-port';
import { type ExternalIdpAccount, startExternalIdp } from '@lp/server/test/external-idp-process';
import { type BrowserContext, test as base } from '@playwright/test';
import { type Mailbox, startSmtp } from './smtp.ts';

export { expect } from '@playwright/test';

/**
 * Console errors tolerated: each entry matches one exact message, with
 * the reason it is still there.
 */
const TOLERATED: readonly RegExp[] = [
  // The e-mail body frame is sandboxed without scripts on purpose (emails.spec.ts asserts it); the test tools'
  // own scripts (locators and axe inside that frame) are what Chrome refuses and reports here.
  /^Blocked script execution in 'about:srcdoc' because the document's frame is sandboxed and the 'allow-scripts' permission is not set\.$/,
];

/**
 * Chrome logs every answer with an error status, and every request that got no answer, as a console error
 * ("Failed to load resource: …"). That is the browser reporting the network, not the app: tests that make the
 * server refuse a call, or cut the connection, see it on purpose.
 */
const NETWORK_LOG =
  /^Failed to load resource: (the server responded with a status of \d{3}|net::ERR_[A-Z_]+$)/;

const startServerScript = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'start-server.mjs',
);

/** Starts e2e/start-server.mjs (its own fresh database) and resolves once the server prints its ready line. */
async function startServer(port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [startServerScript], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Licensing Portal is ready at')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`The test server exited (${code}) before it was ready:\n${output}`)),
    );
  });
  // From here its output is read and dropped, so a full pipe never blocks the server.
  child.stdout?.removeAllListeners('data').resume();
  child.stderr?.removeAllListeners('data').resume();
  return child;
}

/**
 * The developer guide: a console error or an uncaught page error during a browser test fails the test. Every
 * page of the test's own context is watched, and so is every context the test opens with browser.newContext().
 *
 * Each Playwright worker gets its own server on a free port with its own database, so test files running in
 * parallel never see each other's saved views, IP rules or e-mails. E2E_URL runs against a server already up.
 */
/**
 * What a worker's server is made with. A file that needs other than the default is listed under its kind of server
 * in playwright.config.ts (`serverKinds`), which sets these for its project.
 */
export interface ServerOptions {
  /** The daily jobs (notices) run at the server's start; off by default, so no e-mails appear at moments no test chose. */
  jobs: boolean;
  /** The server delivers to a real SMTP server in the worker; by default it only records its outbox. */
  smtp: boolean;
  /**
   * The server signs in through the test OpenID provider (server/test/external-idp.ts) with these accounts, set
   * by the file's `test.use({ externalIdp: { accounts } })`. An object: Playwright reads an array given to
   * test.use as a fixture definition.
   */
  externalIdp: { accounts: ExternalIdpAccount[] } | null;
}

export const test = base.extend<
  { failOnConsoleErrors: undefined },
  ServerOptions & {
    serverUrl: string;
    mailbox: Mailbox | null;
  }
>({
  externalIdp: [null, { option: true, scope: 'worker' }],
  jobs: [false, { option: true, scope: 'worker' }],
  smtp: [false, { option: true, scope: 'worker' }],
  mailbox: [
    async ({ smtp }, use) => {
      if (!smtp) return use(null);
      const server = await startSmtp();
      try {
        await use(server);
      } finally {
        await server.close();
      }
    },
    { scope: 'worker' },
  ],
  serverUrl: [
    async ({ mailbox, jobs, externalIdp }, use) => {
      if (process.env.E2E_URL) return use(process.env.E2E_URL);
      const port = await freePort();
      const url = `http://localhost:${port}`;
      const idp = externalIdp
        ? await startExternalIdp({ portals: [url], accounts: externalIdp.accounts })
        : null;
      try {
        const child = await startServer(port, {
          ...(mailbox ? { SMTP_URL: mailbox.url } : {}),
          ...(jobs ? { JOBS_ENABLED: 'true' } : {}),
          ...(idp
            ? {
                OIDC_ISSUER: idp.issuer,
                OIDC_CLIENT_ID: idp.clientId,
                OIDC_CLIENT_SECRET: idp.clientSecret,
                OIDC_ROLES_CLAIM: idp.rolesClaim,
              }
            : {}),
        });
        try {
          await use(url);
        } finally {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await exited;
        }
      } finally {
        await idp?.stop();
      }
    },
    { scope: 'worker', timeout: 600_000 },
  ],
  baseURL: async ({ serverUrl }, use) => use(serverUrl),
  failOnConsoleErrors: [
    async ({ browser, context }, use, testInfo) => {
      const errors: string[] = [];
      const watch = (ctx: BrowserContext) => {
        ctx.on('console', (message) => {
          const text = message.text();
          if (message.type() !== 'error' || NETWORK_LOG.test(text) || TOLERATED.some((t) => t.test(text)))
            return;
          errors.push(`console.error on ${message.page()?.url() ?? '?'}: ${text}`);
        });
        ctx.on('weberror', (error) => errors.push(`uncaught error: ${error.error().message}`));
      };
      watch(context);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const created = await newContext(options);
        watch(created);
        return created;
      };
      try {
        await use(undefined);
      } finally {
        browser.newContext = newContext;
      }
      // Only a test that passed otherwise is failed here; a failed one already reports its own error.
      if (errors.length > 0 && testInfo.status === 'passed') {
        throw new Error(`The browser reported errors:\n${errors.join('\n')}`);
      }
    },
    { auto: true },
  ],
});
