import { authApi } from '@lp/contract/auth/api';
import { type Operation, operationUrl } from '@lp/contract/common/operation';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { freePort } from '../../../harness/free-port.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { auditEntriesOf } from '../../../test/audit-entries.ts';
import {
  type ExternalIdp,
  type ExternalIdpAccount,
  startExternalIdp,
} from '../../../test/external-idp-process.ts';
import { formAction, TestBrowser } from '../../../test/test-browser.ts';
import type { Database } from '../../db/database.ts';
import { sessions, users } from '../../db/schema.ts';
import { automatedActor } from '../audit/service.ts';
import { disableUser, relinkUsers } from './user-admin.ts';
import { upsertUser } from './users.ts';

/*
 * Issue 20 §1 (decision 042): sign-in through an external OpenID provider that the test starts as its own process
 * (oidc-provider, not the portal's built-in one), over real HTTP with the code flow, PKCE and userinfo.
 */

const password = 'ext-secret-pw';
const account = (a: Omit<ExternalIdpAccount, 'password'>): ExternalIdpAccount => ({ password, ...a });
const accounts = {
  support: account({
    sub: 'ext-0001',
    email: 'Ext.Support@IdP.example',
    name: 'Ext Support',
    roles: ['support', 'guest'],
  }),
  // Someone who put another person's address on their provider account, never verified.
  mallory: account({
    login: 'mallory',
    sub: 'ext-0666',
    email: 'admin@acme.example',
    email_verified: false,
    name: 'Mallory',
    roles: ['busops'],
  }),
  quiet: account({
    login: 'quiet',
    sub: 'ext-0100',
    email: 'quiet@acme.example',
    email_verified: null,
    name: 'Quiet',
    roles: [],
  }),
  jo: account({ login: 'jo', sub: 'ext-0200', email: 'jo@acme.example', name: 'Jo', roles: [] }),
  // The same address on a second provider account (a re-created account, or someone else's).
  joNew: account({ login: 'jo-new', sub: 'ext-0201', email: 'jo@acme.example', name: 'Jo New', roles: [] }),
  // An e-mail-shaped preferred_username, and no e-mail claim.
  pu: account({ login: 'pu', sub: 'ext-0300', preferred_username: 'pu@acme.example', name: 'Pu', roles: [] }),
};

/** A portal on the file's database, listening at its PUBLIC_URL, signing in through the external provider. */
async function portal(database: Database, idp: ExternalIdp, port: number, env: Record<string, string> = {}) {
  const base = `http://localhost:${port}`;
  const app = await createTestApp(database, {
    PORT: String(port),
    PUBLIC_URL: base,
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: idp.clientId,
    OIDC_CLIENT_SECRET: idp.clientSecret,
    OIDC_ROLES_CLAIM: idp.rolesClaim,
    ...env,
  });
  await app.listen({ host: '127.0.0.1', port });
  return { app, base };
}

/** A URL of the portal at `base` for a declared operation. */
const at = (base: string, operation: Operation, query?: Record<string, string>) =>
  `${base}${operationUrl(operation, undefined, query)}`;

const test = apiTest.extend('portals', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  /**
   * The provider's process and two portals using it: strict, and lenient (accepts a token without
   * email_verified). Closed after the file's last test.
   */
  const [strictPort, lenientPort] = [await freePort(), await freePort()];
  const closers: (() => Promise<void>)[] = [];
  onCleanup(async () => {
    for (const close of closers.reverse()) await close();
  });
  const idp = await startExternalIdp({
    portals: [`http://localhost:${strictPort}`, `http://localhost:${lenientPort}`],
    accounts: Object.values(accounts),
  });
  closers.push(() => idp.stop());
  const strict = await portal(database, idp, strictPort);
  closers.push(() => strict.app.close());
  const lenient = await portal(database, idp, lenientPort, { OIDC_ACCEPT_MISSING_EMAIL_VERIFIED: 'true' });
  closers.push(() => lenient.app.close());
  await upsertUser(database.db, { email: 'admin@acme.example', name: 'Acme Admin', vendorRoles: [] });
  await upsertUser(database.db, { email: 'quiet@acme.example', name: 'Quiet Person', vendorRoles: [] });
  return {
    idp,
    strict,
    lenient,
    /** Starts a sign-in at the portal and logs in at the provider's form; resolves where the browser ends up. */
    signIn: async (browser: TestBrowser, base: string, who: ExternalIdpAccount, returnTo = '/elastic') => {
      const login = await browser.navigate(at(base, authApi.login, { returnTo }));
      expect(login.url.origin).toBe(idp.issuer);
      const html = await login.response.text();
      expect(html).toContain('External IdP');
      const done = await browser.postForm(formAction(html, login.url), {
        login: who.login ?? who.email!,
        password: who.password,
      });
      return done.url;
    },
    userByEmail: async (email: string) =>
      (await database.db.select().from(users).where(eq(users.email, email)))[0],
    sessionsOf: async (userId: string) =>
      database.db.select().from(sessions).where(eq(sessions.userId, userId)),
  };
});

describe('sign-in with an external IdP (separate oidc-provider process)', () => {
  test('does not mount the built-in provider', async ({ portals: { strict } }) => {
    const res = await fetch(`${strict.base}/oidc/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });

  test('signs in a verified e-mail, binds the subject, takes the roles claim, and sign-out ends the provider session', async ({
    portals: { idp, strict, signIn, userByEmail, sessionsOf },
  }) => {
    const browser = new TestBrowser();
    const landed = await signIn(browser, strict.base, accounts.support);
    expect(landed.href).toBe(`${strict.base}/elastic`);
    expect(browser.setCookieHeaders.get('lp_session')).toMatch(
      /HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i,
    );

    const user = await userByEmail('ext.support@idp.example');
    expect(user).toMatchObject({
      name: 'Ext Support',
      vendorRoles: ['support'],
      idpIssuer: idp.issuer,
      idpSubject: 'ext-0001',
    });
    expect(user.rolesConfirmedAt).toBeInstanceOf(Date);
    expect(await sessionsOf(user.id)).toHaveLength(1);
    const me = await browser.request(at(strict.base, authApi.session));
    expect((await me.json()).data).toEqual({
      email: 'ext.support@idp.example',
      name: 'Ext Support',
      vendorRoles: ['support'],
      via: 'session',
    });

    // While the provider's session lasts, signing in again passes without its form.
    const again = await browser.navigate(at(strict.base, authApi.login, { returnTo: '/ssl' }));
    expect(again.url.href).toBe(`${strict.base}/ssl`);

    // Sign-out: the portal session ends, and the browser is sent to the provider's end-session endpoint.
    const out = await browser.request(at(strict.base, authApi.logout), {
      method: 'POST',
      headers: { 'x-lp-csrf': '1' },
    });
    const redirect = new URL((await out.json()).data.redirect);
    expect(redirect.origin).toBe(idp.issuer);
    expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${strict.base}/`);
    expect(await sessionsOf(user.id)).toHaveLength(0);
    expect((await browser.request(at(strict.base, authApi.session))).status).toBe(401);
    const confirm = await browser.navigate(redirect);
    const confirmHtml = await confirm.response.text();
    expect(confirmHtml).toContain('Sign out of the External IdP?');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmHtml)?.[1];
    const back = await browser.postForm(formAction(confirmHtml, confirm.url), { xsrf: xsrf!, logout: 'yes' });
    expect(back.url.href).toBe(`${strict.base}/`);

    // The provider's session is over too: the next sign-in asks for the password again.
    const next = await browser.navigate(at(strict.base, authApi.login));
    expect(next.url.origin).toBe(idp.issuer);
    expect(await next.response.text()).toContain('<form method="post"');
  });

  test('refuses an unverified e-mail: no session, no binding, the named user untouched, audited', async ({
    database,
    portals: { strict, signIn, userByEmail, sessionsOf },
  }) => {
    const browser = new TestBrowser();
    const landed = await signIn(browser, strict.base, accounts.mallory);
    expect(landed.href).toBe(`${strict.base}/?signin=failed&reason=email-unverified`);
    expect(browser.cookie('lp_session')).toBeUndefined();
    const admin = await userByEmail('admin@acme.example');
    expect(admin).toMatchObject({ name: 'Acme Admin', vendorRoles: [], idpSubject: null });
    expect(await sessionsOf(admin.id)).toHaveLength(0);
    const [entry] = (await auditEntriesOf(database.db, 'auth.sign-in.failed')).filter(
      (e) => e.objectId === 'admin@acme.example',
    );
    expect(entry.after).toMatchObject({
      reason: 'email-unverified',
      subject: 'ext-0666',
      emailVerified: false,
    });
  });

  test('refuses a token without email_verified unless the operator opted in; then keeps the portal name', async ({
    portals: { strict, lenient, signIn, userByEmail },
  }) => {
    const refused = await signIn(new TestBrowser(), strict.base, accounts.quiet);
    expect(refused.href).toBe(`${strict.base}/?signin=failed&reason=email-unverified`);

    const browser = new TestBrowser();
    expect((await signIn(browser, lenient.base, accounts.quiet)).href).toBe(`${lenient.base}/elastic`);
    // Signed in, bound, but the provider's name is not taken for an address it did not say it verified.
    expect(await userByEmail('quiet@acme.example')).toMatchObject({
      name: 'Quiet Person',
      idpSubject: 'ext-0100',
    });
  });

  test('refuses a second subject for a bound e-mail until an operator re-links the user', async ({
    database,
    portals: { strict, signIn, userByEmail },
  }) => {
    expect((await signIn(new TestBrowser(), strict.base, accounts.jo)).href).toBe(`${strict.base}/elastic`);
    expect(await userByEmail('jo@acme.example')).toMatchObject({ idpSubject: 'ext-0200', name: 'Jo' });

    const browser = new TestBrowser();
    expect((await signIn(browser, strict.base, accounts.joNew)).href).toBe(
      `${strict.base}/?signin=failed&reason=identity-mismatch`,
    );
    expect(browser.cookie('lp_session')).toBeUndefined();
    const failures = (await auditEntriesOf(database.db, 'auth.sign-in.failed')).filter(
      (e) => e.objectId === 'jo@acme.example',
    );
    expect(failures.at(-1)?.after).toMatchObject({ reason: 'identity-mismatch', subject: 'ext-0201' });
    expect(await userByEmail('jo@acme.example')).toMatchObject({ idpSubject: 'ext-0200', name: 'Jo' });

    expect(await relinkUsers(database.db, automatedActor, { email: 'jo@acme.example' })).toBe(1);
    expect((await signIn(new TestBrowser(), strict.base, accounts.joNew)).href).toBe(
      `${strict.base}/elastic`,
    );
    expect(await userByEmail('jo@acme.example')).toMatchObject({ idpSubject: 'ext-0201', name: 'Jo New' });
    // Now the first provider account is the stranger.
    expect((await signIn(new TestBrowser(), strict.base, accounts.jo)).href).toBe(
      `${strict.base}/?signin=failed&reason=identity-mismatch`,
    );
  });

  test('never takes preferred_username as the e-mail', async ({
    portals: { strict, signIn, userByEmail },
  }) => {
    const landed = await signIn(new TestBrowser(), strict.base, accounts.pu);
    expect(landed.href).toBe(`${strict.base}/?signin=failed&reason=no-email`);
    expect(await userByEmail('pu@acme.example')).toBeUndefined();
  });

  test('ends a disabled user’s session at once and refuses their next sign-in', async ({
    database,
    portals: { strict, signIn },
  }) => {
    const browser = new TestBrowser();
    await relinkUsers(database.db, automatedActor, { email: 'jo@acme.example' });
    expect((await signIn(browser, strict.base, accounts.jo)).href).toBe(`${strict.base}/elastic`);
    expect((await browser.request(at(strict.base, authApi.session))).status).toBe(200);

    await disableUser(database.db, automatedActor, 'jo@acme.example');
    expect((await browser.request(at(strict.base, authApi.session))).status).toBe(401);
    const other = new TestBrowser();
    expect((await signIn(other, strict.base, accounts.jo)).href).toBe(
      `${strict.base}/?signin=failed&reason=disabled`,
    );
  });

  test('sends the browser back with signin=failed when the IdP denies the user or the callback is forged', async ({
    portals: { idp, strict },
  }) => {
    const browser = new TestBrowser();
    const login = await browser.navigate(at(strict.base, authApi.login));
    const html = await login.response.text();
    const wrong = await browser.postForm(formAction(html, login.url), { login: 'jo', password: 'nope' });
    expect(await wrong.response.text()).toContain('Invalid credentials');
    const forged = await browser.navigate(
      at(strict.base, authApi.callback, { code: 'x', state: 'y', iss: idp.issuer }),
    );
    expect(forged.url.href).toBe(`${strict.base}/?signin=failed`);
    expect(browser.cookie('lp_session')).toBeUndefined();
  });
});
