import { authApi } from '@lp/contract/auth/api';
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { freePort } from '../../../harness/free-port.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import { formAction, TestBrowser } from '../../../test/test-browser.ts';
import type { Db } from '../../db/database.ts';
import { idpAccounts, signInAddressFailures } from '../../db/schema.ts';
import { hashPassword } from './password.ts';

const password = 'correct horse battery';
const lockedText = 'Too many failed sign-in attempts for this email address. Wait 15 minutes and try again.';

const test = apiTest.extend('startNode', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  const passwordHash = await hashPassword(password);
  await database.db
    .insert(idpAccounts)
    .values(
      ['ada@vendor.example', 'cu@customer.example'].map((email) => ({ email, name: email, passwordHash })),
    );
  const apps: FastifyInstance[] = [];
  onCleanup(async () => {
    for (const app of apps) await app.close();
  });
  /** One API node on the file's database, listening on its own port (its limits differ by test). */
  return async (env: Record<string, string> = {}) => {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const app = await createTestApp(database, { PORT: String(port), PUBLIC_URL: base, ...env });
    await app.listen({ host: '127.0.0.1', port });
    apps.push(app);
    return { app, base };
  };
});

/** The login form's URL after the real redirect chain, in a fresh browser. */
async function loginForm(base: string) {
  const browser = new TestBrowser();
  const { response, url } = await browser.navigate(`${base}${authApi.login.path}?returnTo=/home`);
  expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
  return { browser, action: formAction(await response.text(), url) };
}

async function submit(
  form: { browser: TestBrowser; action: URL },
  fields: { email: string; password: string },
  headers: Record<string, string> = {},
) {
  const res = await form.browser.request(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const html = await res.text();
  return { status: res.status, error: /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1], html };
}

describe('the per-address sign-in limit', () => {
  test('counts the socket address: a new X-Forwarded-For per attempt does not reset it', async ({
    startNode,
  }) => {
    const { base } = await startNode({ LOGIN_RATE_LIMIT_PER_MINUTE: '3' });
    const form = await loginForm(base);
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 5; i++) {
      const res = await submit(
        form,
        { email: `guess${i}@x.example`, password: 'nope' },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
      statuses.push(res.status);
      last = res.html;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last).toContain('Too many sign-in attempts. Wait a minute and try again.');
  });

  test('follows X-Forwarded-For only from the proxies named in TRUST_PROXY', async ({ startNode }) => {
    const { base } = await startNode({ LOGIN_RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' });
    const form = await loginForm(base);
    const attempt = (i: number, client: string) =>
      submit(form, { email: `other${i}@x.example`, password: 'nope' }, { 'x-forwarded-for': client });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt(i, '198.51.100.7')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Another client behind the same trusted proxy has its own count.
    expect((await attempt(9, '198.51.100.8')).status).toBe(200);
  });
});

describe('the discovery document', () => {
  test('always names PUBLIC_URL, whatever Host or X-Forwarded-* say', async ({ startNode }) => {
    for (const env of [{}, { TRUST_PROXY: '127.0.0.1' }] as Record<string, string>[]) {
      const { app, base } = await startNode(env);
      const res = await app.inject({
        url: '/oidc/.well-known/openid-configuration',
        remoteAddress: '127.0.0.1',
        headers: {
          host: 'evil.example',
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
          forwarded: 'host=evil.example;proto=https',
        },
      });
      expect(res.statusCode).toBe(200);
      const doc = res.json() as Record<string, unknown>;
      const urls = Object.entries(doc).filter(([, v]) => typeof v === 'string' && /^\w+:\/\//.test(v));
      expect(urls.length).toBeGreaterThan(4);
      for (const [name, value] of urls) {
        expect([name, value]).toEqual([name, expect.stringMatching(`^${base}/oidc`)]);
      }
    }
  });
});

describe('sign-in lockout (decision 017, revised)', () => {
  // Behind a trusted proxy (the test's own connection) each attempt names its client address.
  const limits = {
    LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    TRUST_PROXY: '127.0.0.1',
    LOGIN_ACCOUNT_MAX_FAILURES: '4',
    LOGIN_ADDRESS_MAX_FAILURES: '2',
  };
  const from = (address: string) => ({ 'x-forwarded-for': address });

  /** Signs in from an address through the form; answers the page's status and error, or 'signed in'. */
  async function signInFrom(base: string, email: string, address: string, pw = password) {
    const form = await loginForm(base);
    const { response, url } = await form.browser.navigate(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
      body: new URLSearchParams({ email, password: pw }).toString(),
    });
    if (url.pathname === '/home') return 'signed in';
    const html = await response.text();
    return { status: response.status, error: /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1] };
  }

  /** Moves every lock of the pairs and e-mails to the past, as if the wait were over (no sleeping in tests). */
  const waitOutLocks = async (db: Db) => {
    const past = new Date(Date.now() - 1000);
    await db.update(signInAddressFailures).set({ lockedUntil: past });
  };

  test("a stranger's failures from many addresses do not stop the user signing in from an address of theirs", async ({
    startNode,
  }) => {
    const nodeA = await startNode(limits);
    const nodeB = await startNode(limits);
    // Ada has signed in from home before.
    expect(await signInFrom(nodeA.base, 'ada@vendor.example', '198.51.100.20')).toBe('signed in');
    // A stranger guesses from five addresses, two failures each (each address's free ones), on both nodes.
    const guess = async (email: string) => {
      const answers = [];
      for (let i = 1; i <= 5; i++) {
        for (const node of [nodeA, nodeB])
          answers.push(await signInFrom(node.base, email, `203.0.113.${i}`, 'guess'));
      }
      // Then with the right password from yet another address.
      answers.push(await signInFrom(nodeB.base, email, '203.0.113.99'));
      return answers;
    };
    const answers = await guess('ada@vendor.example');
    const incorrect = { status: 200, error: 'Username or password is incorrect' };
    const refused = { status: 429, error: lockedText };
    // The fourth failure reaches the e-mail's ceiling: from then on addresses Ada never signed in from are
    // refused, even with her password, whichever node they ask.
    expect(answers).toEqual([incorrect, incorrect, incorrect, ...Array(8).fill(refused)]);
    // She signs in from home, on either node.
    expect(await signInFrom(nodeB.base, 'ada@vendor.example', '198.51.100.20')).toBe('signed in');
    expect(await signInFrom(nodeA.base, 'ada@vendor.example', '198.51.100.20')).toBe('signed in');
    // An address no account has gets the same answers: the lockout tells nothing about accounts.
    expect(await guess('ghost@vendor.example')).toEqual(answers);
  });

  test('one address that keeps failing waits longer each time; another address is not affected', async ({
    database,
    startNode,
  }) => {
    const { base } = await startNode({ ...limits, LOGIN_ACCOUNT_MAX_FAILURES: '100' });
    const email = 'cu@customer.example';
    const attacker = '192.0.2.66';
    const wrong = () => signInFrom(base, email, attacker, 'wrong');
    const right = () => signInFrom(base, email, attacker);
    const seen = [await wrong(), await wrong(), await wrong(), await right()];
    await waitOutLocks(database.db);
    seen.push(await wrong(), await right());
    await waitOutLocks(database.db);
    seen.push(await wrong());
    const incorrect = { status: 200, error: 'Username or password is incorrect' };
    const locked = (wait: string) => ({
      status: 429,
      error: `Too many failed sign-in attempts for this email address from your network. Wait ${wait} and try again.`,
    });
    // Two free failures, then locks of 1, 2 and 4 minutes; while locked even the right password is refused.
    expect(seen).toEqual([
      incorrect,
      incorrect,
      locked('a minute'),
      locked('a minute'),
      locked('2 minutes'),
      locked('2 minutes'),
      locked('4 minutes'),
    ]);
    // The user, from another address, is not held up.
    expect(await signInFrom(base, email, '198.51.100.77')).toBe('signed in');
    // Every failure and every refusal is in the audit log, with the lock that applied.
    const failures = (await auditEntriesOf(database.db, 'auth.sign-in.failed'))
      .filter((e) => e.objectId === email && e.clientIp === attacker)
      .map((e) => e.after);
    expect(failures).toEqual([
      { reason: 'wrong-credentials' },
      { reason: 'wrong-credentials' },
      { reason: 'wrong-credentials', locked: true, lock: 'address' },
      { reason: 'locked', lock: 'address' },
      { reason: 'wrong-credentials', locked: true, lock: 'address' },
      { reason: 'locked', lock: 'address' },
      { reason: 'wrong-credentials', locked: true, lock: 'address' },
    ]);
  });
});
