import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { formAction, freePort, TestBrowser } from '../../../test/test-browser.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { apiTokens, appSettings, idpAccounts, loginStates, sessions, users } from '../../db/schema.ts';
import { createApiToken, revokeApiTokens } from '../api-tokens/service.ts';
import { hashPassword } from './password.ts';
import { hashSessionId } from './sessions.ts';

let database: TestDatabase;
let app: FastifyInstance;
let base: string;
let port: number;
const password = 'correct horse battery';
const unauthorised = { status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' };

beforeAll(async () => {
  database = await createTestDatabase();
  port = await freePort();
  base = `http://localhost:${port}`;
  await startApp();
  await database.db.insert(idpAccounts).values([
    {
      email: 'ada@vendor.example',
      name: 'Ada Support',
      roles: ['support', 'not-a-role'],
      passwordHash: await hashPassword(password),
    },
    {
      email: 'cu@customer.example',
      name: 'Cu Stomer',
      roles: [],
      passwordHash: await hashPassword(password),
    },
  ]);
});

async function startApp() {
  app = await createTestApp(database, {
    PORT: String(port),
    PUBLIC_URL: base,
    DEMO_PASSWORD: 'not-the-default-1',
    SESSION_IDLE_MINUTES: '30',
    SESSION_ABSOLUTE_HOURS: '8',
    // Generous enough for the sign-ins of this file (all from 127.0.0.1); limits: sign-in-throttle.api.test.ts.
    LOGIN_RATE_LIMIT_PER_MINUTE: '12',
  });
  await app.listen({ host: '127.0.0.1', port });
}

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Opens the login page through the real redirect chain: /api/auth/login -> /oidc/auth -> interaction. */
async function openLoginPage(browser: TestBrowser, returnTo = '/elastic') {
  const { response, url, hops } = await browser.navigate(
    `${base}/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(response.status).toBe(200);
  expect(hops.some((h) => h.pathname === '/oidc/auth')).toBe(true);
  expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
  return { html: await response.text(), url, response };
}

async function signInThroughPages(email: string, returnTo = '/elastic') {
  const browser = new TestBrowser();
  const page = await openLoginPage(browser, returnTo);
  const done = await browser.postForm(formAction(page.html, page.url), { email, password });
  expect(done.url.pathname).toBe(returnTo.split('?')[0]);
  return { browser, done };
}

const apiGet = (browser: TestBrowser, path: string) => browser.request(`${base}${path}`);

describe('built-in IdP sign-in over real HTTP', () => {
  it('shows a labelled login page listing the demo users without revealing a custom password', async () => {
    const page = await openLoginPage(new TestBrowser());
    expect(page.html).toContain('<title>Licensing Portal</title>');
    expect(page.html).toMatch(/<label for="email">Email<\/label>\s*<input id="email"/);
    expect(page.html).toMatch(
      /<label for="password">Password<\/label>\s*<input id="password"[^>]*type="password"/,
    );
    expect(page.html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(page.html).toContain('ada@vendor.example');
    expect(page.html).toContain('Ada Support');
    expect(page.html).toContain('the configured DEMO_PASSWORD');
    expect(page.html).not.toContain('not-the-default-1');
    expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(page.response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('signs in, sets an HttpOnly SameSite=Lax session cookie and lands on returnTo', async () => {
    const { browser, done } = await signInThroughPages('ADA@vendor.example', '/elastic?x=1');
    expect(done.url.href).toBe(`${base}/elastic?x=1`);
    expect(done.hops.some((h) => h.pathname === '/api/auth/callback')).toBe(true);
    const setCookie = browser.setCookieHeaders.get('lp_session')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    // The browser never sees tokens: nothing but the opaque session id is handed out.
    expect(done.hops.some((h) => /token|code_verifier/.test(h.search) && h.origin !== base)).toBe(false);

    const me = await apiGet(browser, '/api/auth/session');
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      status: 'SUCCESS',
      data: { email: 'ada@vendor.example', name: 'Ada Support', vendorRoles: ['support'], via: 'session' },
    });
    expect((await apiGet(browser, '/api/getUserDetails')).status).not.toBe(401);

    // Only the hash of the cookie value is stored.
    const id = browser.cookie('lp_session')!;
    const rows = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashSessionId(id)));
    expect(rows).toHaveLength(1);
    const [user] = await database.db.select().from(users).where(eq(users.email, 'ada@vendor.example'));
    expect(user.vendorRoles).toEqual(['support']);
  });

  it('sets a script-readable hint with the session and clears both on sign-out (issue 21)', async () => {
    // The web app skips the "who is signed in" call without the hint, so a first visit logs no 401.
    const { browser } = await signInThroughPages('cu@customer.example');
    const hint = browser.setCookieHeaders.get('lp_signed_in')!;
    expect(hint).toMatch(/^lp_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/SameSite=Lax/i);
    await browser.request(`${base}/api/auth/logout`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    expect(browser.cookie('lp_signed_in')).toBeUndefined();
    expect(browser.cookie('lp_session')).toBeUndefined();
  });

  it('sends Back to the used login page into the portal while signed in, not to "Sign-in expired"', async () => {
    const browser = new TestBrowser();
    const page = await openLoginPage(browser, '/ssl?account=1000001');
    await browser.postForm(formAction(page.html, page.url), { email: 'ada@vendor.example', password });
    const back = await browser.request(page.url);
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe('/');
    // Without a session the used page still says it has expired.
    const stranger = await new TestBrowser().request(page.url);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('Sign-in expired');
  });

  it('re-renders the login page with an error on a wrong password', async () => {
    const browser = new TestBrowser();
    const page = await openLoginPage(browser);
    const { response, url } = await browser.postForm(formAction(page.html, page.url), {
      email: 'ada@vendor.example',
      password: 'wrong password',
    });
    expect(url.pathname).toMatch(/^\/oidc\/interaction\/[^/]+\/login$/);
    const html = await response.text();
    expect(html).toContain('Username or password is incorrect');
    expect(html).toContain('value="ada@vendor.example"');
    expect(browser.cookie('lp_session')).toBeUndefined();
  });

  it('refuses an unknown email with the same message', async () => {
    const browser = new TestBrowser();
    const page = await openLoginPage(browser);
    const { response } = await browser.postForm(formAction(page.html, page.url), {
      email: 'nobody@x.example',
      password,
    });
    expect(await response.text()).toContain('Username or password is incorrect');
  });

  it('signs out of the portal and of the IdP', async () => {
    const { browser } = await signInThroughPages('cu@customer.example');
    expect((await apiGet(browser, '/api/auth/session')).status).toBe(200);

    const withoutHeader = await browser.request(`${base}/api/auth/logout`, { method: 'POST' });
    expect(withoutHeader.status).toBe(403);

    const res = await browser.request(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { 'x-lp-csrf': '1' },
    });
    const body = await res.json();
    expect(body.status).toBe('SUCCESS');
    const redirect = new URL(body.data.redirect);
    expect(redirect.origin + redirect.pathname).toBe(`${base}/oidc/session/end`);
    expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/`);
    expect(redirect.searchParams.get('id_token_hint')).toBeTruthy();
    expect(browser.cookie('lp_session')).toBeUndefined();
    expect(await (await apiGet(browser, '/api/auth/session')).json()).toEqual(unauthorised);

    // The IdP's sign-out page submits itself (external script) and returns to the portal.
    const confirm = await browser.navigate(redirect);
    const html = await confirm.response.text();
    expect(html).toContain('<script src="/api/auth/auto-submit.js"></script>');
    const out = await browser.postForm(formAction(html, confirm.url), Object.fromEntries(hiddenFields(html)));
    expect(out.url.href).toBe(`${base}/`);
    // The IdP session is gone too: signing in again asks for the password.
    await openLoginPage(browser);
  });

  it('keeps the IdP session for a silent second sign-in while it lasts', async () => {
    const { browser } = await signInThroughPages('ada@vendor.example');
    await browser.request(`${base}/api/auth/logout`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    const again = await browser.navigate(`${base}/api/auth/login?returnTo=/home`);
    expect(again.url.href).toBe(`${base}/home`);
    expect(browser.cookie('lp_session')).toBeTruthy();
  });

  it('redirects to the public origin first when called on another host name', async () => {
    const res = await fetch(`${base.replace('localhost', '127.0.0.1')}/api/auth/login?returnTo=/x`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${base}/api/auth/login?returnTo=%2Fx`);
  });

  it('ignores returnTo values that leave the site', async () => {
    for (const bad of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/./%2e%2e//evil.example',
    ]) {
      const res = await fetch(`${base}/api/auth/login?returnTo=${encodeURIComponent(bad)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      const state = new URL(res.headers.get('location')!).searchParams.get('state')!;
      const [row] = await database.db.select().from(loginStates).where(eq(loginStates.state, state));
      expect(row.returnTo).toBe('/');
    }
  });

  it('keeps the post-sign-in Location on the portal for dot-segment and backslash return paths', async () => {
    for (const bad of ['/./%2e%2e//evil.example', '/%2e/%2fevil', '/\\evil.example', '/.//evil.example']) {
      const browser = new TestBrowser();
      const page = await openLoginPage(browser, bad);
      // Follow the portal's own redirects by hand up to the callback, whose Location is the verdict
      // (never followed: before the fix it named another host).
      let res = await browser.request(formAction(page.html, page.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'ada@vendor.example', password }).toString(),
      });
      let at = formAction(page.html, page.url);
      while (at.pathname !== '/api/auth/callback') {
        expect(res.status).toBeGreaterThanOrEqual(300);
        at = new URL(res.headers.get('location')!, at);
        expect(at.origin).toBe(base);
        res = await browser.request(at);
      }
      expect(res.status).toBe(302);
      const location = res.headers.get('location')!;
      expect([bad, location, new URL(location, base).origin]).toEqual([bad, '/', base]);
    }
  });

  it('fails a callback with an unknown state back to the app', async () => {
    const res = await fetch(`${base}/api/auth/callback?code=abc&state=forged`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/?signin=failed');
  });
});

function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]);
}

describe('sessions, tokens and the API guard', () => {
  it('answers 401 to anonymous calls on protected paths and lets public ones through', async () => {
    const res = await app.inject('/api/getUserDetails');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(unauthorised);
    expect((await app.inject({ method: 'POST', url: '/api/getaccounts', payload: {} })).statusCode).toBe(401);
    expect((await app.inject('/api/no-such-route')).statusCode).toBe(401);
    expect((await app.inject('/api/config')).statusCode).toBe(200);
    expect((await app.inject('/api/environment')).statusCode).toBe(200);
  });

  it('ends idle sessions and slides the idle timer', async () => {
    const { headers } = await signInAs(database.db, 'idle@x.example');
    const idHash = hashSessionId(headers.cookie.split('=')[1]);
    // 29 minutes of inactivity (limit 30): still valid, and the request refreshes last_seen_at.
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 29 * 60_000) })
      .where(eq(sessions.idHash, idHash));
    expect((await app.inject({ url: '/api/auth/session', headers })).statusCode).toBe(200);
    const [touched] = await database.db.select().from(sessions).where(eq(sessions.idHash, idHash));
    expect(Date.now() - touched.lastSeenAt.getTime()).toBeLessThan(10_000);
    // 31 minutes: gone, and the cookie is cleared.
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(sessions.idHash, idHash));
    const res = await app.inject({ url: '/api/getUserDetails', headers });
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['set-cookie'])).toMatch(/lp_session=;/);
    expect(await database.db.select().from(sessions).where(eq(sessions.idHash, idHash))).toHaveLength(0);
  });

  it('ends sessions at their absolute expiry even when active', async () => {
    const { headers } = await signInAs(database.db, 'abs@x.example');
    const idHash = hashSessionId(headers.cookie.split('=')[1]);
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, idHash));
    expect((await app.inject({ url: '/api/getUserDetails', headers })).statusCode).toBe(401);
  });

  it('requires the anti-CSRF header on cookie-authenticated writes only', async () => {
    const { headers } = await signInAs(database.db, 'csrf@x.example', { vendorRoles: ['busops'] });
    const cookieOnly = { cookie: headers.cookie };
    const blocked = await app.inject({
      method: 'POST',
      url: '/api/getaccounts',
      headers: cookieOnly,
      payload: {},
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toMatchObject({ status: 'FAILURE', err: 'Missing anti-CSRF header' });
    const allowed = await app.inject({ method: 'POST', url: '/api/getaccounts', headers, payload: {} });
    expect(allowed.statusCode).not.toBe(403);
    expect(allowed.statusCode).not.toBe(401);
    expect((await app.inject({ url: '/api/auth/session', headers: cookieOnly })).statusCode).toBe(200);
  });

  it('accepts personal API tokens, without CSRF header, until revoked or expired', async () => {
    const { userId } = await signInAs(database.db, 'bot@x.example', { vendorRoles: ['sales'] });
    const {
      token,
      row: { id },
    } = await createApiToken(database.db, userId, { expiresInDays: 30 });
    const auth = { authorization: `Bearer ${token}` };
    const me = await app.inject({ url: '/api/auth/session', headers: auth });
    expect(me.json().data).toEqual({
      email: 'bot@x.example',
      name: 'bot',
      vendorRoles: ['sales'],
      via: 'token',
    });
    const write = await app.inject({ method: 'POST', url: '/api/getaccounts', headers: auth, payload: {} });
    expect([401, 403]).not.toContain(write.statusCode);

    await revokeApiTokens(database.db, { tokenId: id });
    expect((await app.inject({ url: '/api/getUserDetails', headers: auth })).json()).toEqual(unauthorised);

    const expired = await createApiToken(database.db, userId, { expiresInDays: 1 });
    await database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(apiTokens.id, expired.row.id));
    const res = await app.inject({
      url: '/api/getUserDetails',
      headers: { authorization: `Bearer ${expired.token}` },
    });
    expect(res.statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/api/getUserDetails', headers: { authorization: 'Bearer lp_garbage' } }))
        .statusCode,
    ).toBe(401);
  });

  it('works with the signInAs helper for other tests', async () => {
    const { headers } = await signInAs(database.db, 'Helper@X.example', {
      vendorRoles: ['admin', 'bogus'],
      name: 'Hel Per',
    });
    expect((await app.inject({ url: '/api/auth/session', headers })).json().data).toEqual({
      email: 'helper@x.example',
      name: 'Hel Per',
      vendorRoles: ['admin'],
      via: 'session',
    });
  });
});

describe('restarts', () => {
  it('keep signing keys, the client secret and IdP sessions (stored in the database)', async () => {
    const { browser } = await signInThroughPages('ada@vendor.example');
    const kids = async () =>
      ((await (await browser.request(`${base}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map(
        (k) => k.kid,
      );
    const before = await kids();
    const [stored] = await database.db.select().from(appSettings).where(eq(appSettings.key, 'oidc-jwks'));
    expect((stored.value as { keys: { kid: string; d?: string }[] }).keys.map((k) => k.kid)).toEqual(before);

    await app.close();
    await startApp();

    expect(await kids()).toEqual(before);
    // The portal session survives (server-side row) ...
    expect((await browser.request(`${base}/api/auth/session`)).status).toBe(200);
    // ... and so does the IdP session: after leaving the portal only, signing in again needs no password.
    await browser.request(`${base}/api/auth/logout`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    expect((await browser.request(`${base}/api/auth/session`)).status).toBe(401);
    const again = await browser.navigate(`${base}/api/auth/login?returnTo=/home`);
    expect(again.url.href).toBe(`${base}/home`);
    expect((await browser.request(`${base}/api/auth/session`)).status).toBe(200);
  });
});
