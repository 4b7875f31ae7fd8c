import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idpAccounts, signInFailures } from '../../db/schema.ts';
import { loadOrCreateSecret } from '../../platform/secrets.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { signInKey } from './built-in-idp/sign-in-throttle.ts';
import { hashPassword } from './password.ts';
import { formAction, freePort, TestBrowser } from './test-browser.ts';

let database: TestDatabase;
const apps: FastifyInstance[] = [];
const password = 'correct horse battery';
const lockedText = 'Too many failed sign-in attempts for this email address. Wait 15 minutes and try again.';

beforeAll(async () => {
  database = await createTestDatabase();
  const passwordHash = await hashPassword(password);
  await database.db
    .insert(idpAccounts)
    .values(
      ['ada@vendor.example', 'cu@customer.example'].map((email) => ({ email, name: email, passwordHash })),
    );
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

/** One API node on the shared test database, listening on its own port. */
async function startNode(env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const app = await createTestApp(database, { PORT: String(port), PUBLIC_URL: base, ...env });
  await app.listen({ host: '127.0.0.1', port });
  apps.push(app);
  return { app, base };
}

/** The login form's URL after the real redirect chain, in a fresh browser. */
async function loginForm(base: string) {
  const browser = new TestBrowser();
  const { response, url } = await browser.navigate(`${base}/api/auth/login?returnTo=/home`);
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

/** Signs in through the form and follows the redirects back to the portal. */
async function signIn(base: string, email: string) {
  const form = await loginForm(base);
  return form.browser.navigate(form.action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

describe('the per-address sign-in limit', () => {
  it('counts the socket address: a new X-Forwarded-For per attempt does not reset it', async () => {
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

  it('follows X-Forwarded-For only from the proxies named in TRUST_PROXY', async () => {
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
  it('always names PUBLIC_URL, whatever Host or X-Forwarded-* say', async () => {
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

describe('the per-account sign-in limit', () => {
  const limits = { LOGIN_RATE_LIMIT_PER_MINUTE: '100', LOGIN_ACCOUNT_MAX_FAILURES: '3' };

  it('locks known and unknown addresses alike after the failures, on every node, until it expires', async () => {
    const nodeA = await startNode(limits);
    const nodeB = await startNode(limits);
    const answers = new Map<string, { status: number; error?: string }[]>();
    for (const email of ['ada@vendor.example', 'ghost@vendor.example']) {
      const form = await loginForm(nodeA.base);
      const seen = [];
      for (let i = 0; i < 3; i++) {
        const { status, error } = await submit(form, { email, password: `wrong-${i}` });
        seen.push({ status, error });
      }
      // Now even the right password is refused, and on the other node too (the count is in the database).
      const other = await loginForm(nodeB.base);
      const { status, error } = await submit(other, { email, password });
      seen.push({ status, error });
      expect(other.browser.cookie('lp_session')).toBeUndefined();
      answers.set(email, seen);
    }
    const wrong = { status: 200, error: 'Username or password is incorrect' };
    const locked = { status: 429, error: lockedText };
    expect(answers.get('ada@vendor.example')).toEqual([wrong, wrong, locked, locked]);
    // Same words and status for an address no account has: the lockout reveals nothing.
    expect(answers.get('ghost@vendor.example')).toEqual(answers.get('ada@vendor.example'));

    // Other addresses are not affected.
    expect((await signIn(nodeA.base, 'cu@customer.example')).url.href).toBe(`${nodeA.base}/home`);

    // Once the lock has run out, the right password signs in and clears the count.
    const past = new Date(Date.now() - 16 * 60_000);
    await database.db.update(signInFailures).set({ windowStartedAt: past, lockedUntil: past });
    expect((await signIn(nodeB.base, 'ADA@vendor.example')).url.href).toBe(`${nodeB.base}/home`);
    const key = signInKey(await loadOrCreateSecret(database.db, 'app-secret'), 'ada@vendor.example');
    expect(await database.db.select().from(signInFailures).where(eq(signInFailures.emailKey, key))).toEqual(
      [],
    );
  });
});
