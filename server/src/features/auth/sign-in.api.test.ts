import { accountsApi } from '@lp/contract/accounts/api';
import { authApi } from '@lp/contract/auth/api';
import type { Operation } from '@lp/contract/common/operation';
import { platformApi } from '@lp/contract/platform/api';
import { userApi } from '@lp/contract/user/api';
import { eq } from 'drizzle-orm';
import { describe, expect, onTestFinished } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { anonymous, apiTest, bearer, type Caller, ownPublicUrl } from '../../../test/api-fixture.ts';
import { formAction, TestBrowser } from '../../../test/test-browser.ts';
import { apiTokens, appSettings, idpAccounts, loginStates, sessions, users } from '../../db/schema.ts';
import { createApiToken, revokeApiTokens } from '../api-tokens/service.ts';
import { hashPassword } from './password.ts';
import { hashSessionId } from './sessions.ts';

const password = 'correct horse battery';
const unauthorised = { status: 'FAILURE', err: 'Unauthorised', code: 'UNAUTHENTICATED' };

const test = apiTest
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .override('appEnv', { scope: 'file' }, async ({}) => ({
    ...(await ownPublicUrl()),
    DEMO_PASSWORD: 'not-the-default-1',
    SESSION_IDLE_MINUTES: '30',
    SESSION_ABSOLUTE_HOURS: '8',
    // Generous enough for the sign-ins of this file (all from 127.0.0.1); limits: sign-in-throttle.api.test.ts.
    LOGIN_RATE_LIMIT_PER_MINUTE: '12',
  }))
  /** The app listening at its public URL, with the IdP's accounts; answers that URL. */
  .extend('base', { scope: 'file' }, async ({ publicUrl, database }) => {
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
    return publicUrl;
  })
  .extend('pages', { scope: 'file' }, async ({ base }) => {
    /** Opens the login page through the real redirect chain: /api/auth/login -> /oidc/auth -> interaction. */
    const openLoginPage = async (browser: TestBrowser, returnTo = '/elastic') => {
      const { response, url, hops } = await browser.navigate(
        `${base}${authApi.login.path}?returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect(response.status).toBe(200);
      expect(hops.some((h) => h.pathname === '/oidc/auth')).toBe(true);
      expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
      return { html: await response.text(), url, response };
    };
    return {
      openLoginPage,
      signInThroughPages: async (email: string, returnTo = '/elastic') => {
        const browser = new TestBrowser();
        const page = await openLoginPage(browser, returnTo);
        const done = await browser.postForm(formAction(page.html, page.url), { email, password });
        expect(done.url.pathname).toBe(returnTo.split('?')[0]);
        return { browser, done };
      },
      /** A GET of a declared operation in the browser, with its cookies. */
      apiGet: (browser: TestBrowser, operation: Operation) => browser.request(`${base}${operation.path}`),
    };
  });

describe('built-in IdP sign-in over real HTTP', () => {
  test('shows a labelled login page listing the demo users without revealing a custom password', async ({
    pages: { openLoginPage },
  }) => {
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

  test('signs in, sets an HttpOnly SameSite=Lax session cookie and lands on returnTo', async ({
    database,
    base,
    pages: { signInThroughPages, apiGet },
  }) => {
    const { browser, done } = await signInThroughPages('ADA@vendor.example', '/elastic?x=1');
    expect(done.url.href).toBe(`${base}/elastic?x=1`);
    expect(done.hops.some((h) => h.pathname === authApi.callback.path)).toBe(true);
    const setCookie = browser.setCookieHeaders.get('lp_session')!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    // The browser never sees tokens: nothing but the opaque session id is handed out.
    expect(done.hops.some((h) => /token|code_verifier/.test(h.search) && h.origin !== base)).toBe(false);

    const me = await apiGet(browser, authApi.session);
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({
      status: 'SUCCESS',
      data: { email: 'ada@vendor.example', name: 'Ada Support', vendorRoles: ['support'], via: 'session' },
    });
    expect((await apiGet(browser, userApi.details)).status).not.toBe(401);

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

  test('sets a script-readable hint with the session and clears both on sign-out (issue 21)', async ({
    base,
    pages: { signInThroughPages },
  }) => {
    // The web app skips the "who is signed in" call without the hint, so a first visit logs no 401.
    const { browser } = await signInThroughPages('cu@customer.example');
    const hint = browser.setCookieHeaders.get('lp_signed_in')!;
    expect(hint).toMatch(/^lp_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/SameSite=Lax/i);
    await browser.request(`${base}${authApi.logout.path}`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    expect(browser.cookie('lp_signed_in')).toBeUndefined();
    expect(browser.cookie('lp_session')).toBeUndefined();
  });

  test('sends Back to the used login page into the portal while signed in, not to "Sign-in expired"', async ({
    pages: { openLoginPage },
  }) => {
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

  test('re-renders the login page with an error on a wrong password', async ({
    pages: { openLoginPage },
  }) => {
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

  test('refuses an unknown email with the same message', async ({ pages: { openLoginPage } }) => {
    const browser = new TestBrowser();
    const page = await openLoginPage(browser);
    const { response } = await browser.postForm(formAction(page.html, page.url), {
      email: 'nobody@x.example',
      password,
    });
    expect(await response.text()).toContain('Username or password is incorrect');
  });

  test('signs out of the portal and of the IdP', async ({
    base,
    pages: { openLoginPage, signInThroughPages, apiGet },
  }) => {
    const { browser } = await signInThroughPages('cu@customer.example');
    expect((await apiGet(browser, authApi.session)).status).toBe(200);

    const withoutHeader = await browser.request(`${base}${authApi.logout.path}`, { method: 'POST' });
    expect(withoutHeader.status).toBe(403);

    const res = await browser.request(`${base}${authApi.logout.path}`, {
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
    expect(await (await apiGet(browser, authApi.session)).json()).toEqual(unauthorised);

    // The IdP's sign-out page submits itself (external script) and returns to the portal.
    const confirm = await browser.navigate(redirect);
    const html = await confirm.response.text();
    expect(html).toContain(`<script src="${authApi.autoSubmitScript.path}"></script>`);
    const out = await browser.postForm(formAction(html, confirm.url), Object.fromEntries(hiddenFields(html)));
    expect(out.url.href).toBe(`${base}/`);
    // The IdP session is gone too: signing in again asks for the password.
    await openLoginPage(browser);
  });

  test('keeps the IdP session for a silent second sign-in while it lasts', async ({
    base,
    pages: { signInThroughPages },
  }) => {
    const { browser } = await signInThroughPages('ada@vendor.example');
    await browser.request(`${base}${authApi.logout.path}`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    const again = await browser.navigate(`${base}${authApi.login.path}?returnTo=/home`);
    expect(again.url.href).toBe(`${base}/home`);
    expect(browser.cookie('lp_session')).toBeTruthy();
  });

  test('redirects to the public origin first when called on another host name', async ({ base }) => {
    const res = await fetch(`${base.replace('localhost', '127.0.0.1')}${authApi.login.path}?returnTo=/x`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${base}${authApi.login.path}?returnTo=%2Fx`);
  });

  test('ignores returnTo values that leave the site', async ({ database, base }) => {
    for (const bad of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/./%2e%2e//evil.example',
    ]) {
      const res = await fetch(`${base}${authApi.login.path}?returnTo=${encodeURIComponent(bad)}`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(302);
      const state = new URL(res.headers.get('location')!).searchParams.get('state')!;
      const [row] = await database.db.select().from(loginStates).where(eq(loginStates.state, state));
      expect(row.returnTo).toBe('/');
    }
  });

  test('keeps the post-sign-in Location on the portal for dot-segment and backslash return paths', async ({
    base,
    pages: { openLoginPage },
  }) => {
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
      while (at.pathname !== authApi.callback.path) {
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

  test('fails a callback with an unknown state back to the app', async ({ base }) => {
    const res = await fetch(`${base}${authApi.callback.path}?code=abc&state=forged`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/?signin=failed');
  });
});

function hiddenFields(html: string): [string, string][] {
  return [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]);
}

describe('sessions, tokens and the API guard', () => {
  test('answers 401 to anonymous calls on protected paths and lets public ones through', async ({
    api,
    app,
  }) => {
    expect(await api.refused(anonymous, userApi.details, undefined, 401)).toEqual(unauthorised);
    await api.refused(anonymous, accountsApi.page, {}, 401);
    // An unknown path under /api is not told apart from a protected one.
    expect((await app.inject('/api/no-such-route')).statusCode).toBe(401);
    await api.ok(anonymous, platformApi.config, undefined);
    expect((await api.call(anonymous, platformApi.environment)).statusCode).toBe(200);
  });

  test('ends idle sessions and slides the idle timer', async ({ api, database, signIn }) => {
    const idle = await signIn('idle@x.example');
    const idHash = hashSessionId(idle.headers.cookie.split('=')[1]);
    // 29 minutes of inactivity (limit 30): still valid, and the request refreshes last_seen_at.
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 29 * 60_000) })
      .where(eq(sessions.idHash, idHash));
    await api.ok(idle, authApi.session, undefined);
    const [touched] = await database.db.select().from(sessions).where(eq(sessions.idHash, idHash));
    expect(Date.now() - touched.lastSeenAt.getTime()).toBeLessThan(10_000);
    // 31 minutes: gone, and the cookie is cleared.
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(sessions.idHash, idHash));
    const res = await api.call(idle, userApi.details);
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['set-cookie'])).toMatch(/lp_session=;/);
    expect(await database.db.select().from(sessions).where(eq(sessions.idHash, idHash))).toHaveLength(0);
  });

  test('ends sessions at their absolute expiry even when active', async ({ api, database, signIn }) => {
    const active = await signIn('abs@x.example');
    const idHash = hashSessionId(active.headers.cookie.split('=')[1]);
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, idHash));
    await api.refused(active, userApi.details, undefined, 401);
  });

  test('requires the anti-CSRF header on cookie-authenticated writes only', async ({ api, signIn }) => {
    const staff = await signIn('csrf@x.example', { vendorRoles: ['busops'] });
    const cookieOnly: Caller = { ...staff, headers: { cookie: staff.headers.cookie } };
    const blocked = await api.refused(cookieOnly, accountsApi.page, {}, 403);
    expect(blocked).toMatchObject({ status: 'FAILURE', err: 'Missing anti-CSRF header' });
    const allowed = await api.call(staff, accountsApi.page, {});
    expect(allowed.statusCode).not.toBe(403);
    expect(allowed.statusCode).not.toBe(401);
    await api.ok(cookieOnly, authApi.session, undefined);
  });

  test('accepts personal API tokens, without CSRF header, until revoked or expired', async ({
    api,
    database,
    signIn,
  }) => {
    const { userId } = await signIn('bot@x.example', { vendorRoles: ['sales'] });
    const {
      token,
      row: { id },
    } = await createApiToken(database.db, userId, { expiresInDays: 30 });
    const bot = bearer(token);
    const me = await api.ok(bot, authApi.session, undefined);
    expect(me.data).toEqual({
      email: 'bot@x.example',
      name: 'bot',
      vendorRoles: ['sales'],
      via: 'token',
    });
    const write = await api.call(bot, accountsApi.page, {});
    expect([401, 403]).not.toContain(write.statusCode);

    await revokeApiTokens(database.db, { tokenId: id });
    expect(await api.refused(bot, userApi.details, undefined, 401)).toEqual(unauthorised);

    const expired = await createApiToken(database.db, userId, { expiresInDays: 1 });
    await database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(apiTokens.id, expired.row.id));
    await api.refused(bearer(expired.token), userApi.details, undefined, 401);
    await api.refused(bearer('lp_garbage'), userApi.details, undefined, 401);
  });

  test('works with the signInAs helper for other tests', async ({ api, database }) => {
    const { headers } = await signInAs(database.db, 'Helper@X.example', {
      vendorRoles: ['admin', 'bogus'],
      name: 'Hel Per',
    });
    const helper: Caller = { email: 'Helper@X.example', userId: '', headers };
    expect((await api.ok(helper, authApi.session, undefined)).data).toEqual({
      email: 'helper@x.example',
      name: 'Hel Per',
      vendorRoles: ['admin'],
      via: 'session',
    });
  });
});

describe('restarts', () => {
  test('keep signing keys, the client secret and IdP sessions (stored in the database)', async ({
    app,
    appEnv,
    database,
    base,
    pages: { signInThroughPages },
  }) => {
    const { browser } = await signInThroughPages('ada@vendor.example');
    const kids = async () =>
      ((await (await browser.request(`${base}/oidc/jwks`)).json()) as { keys: { kid: string }[] }).keys.map(
        (k) => k.kid,
      );
    const before = await kids();
    const [stored] = await database.db.select().from(appSettings).where(eq(appSettings.key, 'oidc-jwks'));
    expect((stored.value as { keys: { kid: string; d?: string }[] }).keys.map((k) => k.kid)).toEqual(before);

    await app.close();
    const restarted = await createTestApp(database, appEnv);
    onTestFinished(() => restarted.close());
    await restarted.listen({ host: '127.0.0.1', port: Number(appEnv.PORT) });

    expect(await kids()).toEqual(before);
    // The portal session survives (server-side row) ...
    expect((await browser.request(`${base}${authApi.session.path}`)).status).toBe(200);
    // ... and so does the IdP session: after leaving the portal only, signing in again needs no password.
    await browser.request(`${base}${authApi.logout.path}`, { method: 'POST', headers: { 'x-lp-csrf': '1' } });
    expect((await browser.request(`${base}${authApi.session.path}`)).status).toBe(401);
    const again = await browser.navigate(`${base}${authApi.login.path}?returnTo=/home`);
    expect(again.url.href).toBe(`${base}/home`);
    expect((await browser.request(`${base}${authApi.session.path}`)).status).toBe(200);
  });
});
