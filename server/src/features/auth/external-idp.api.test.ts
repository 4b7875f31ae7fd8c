import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.ts';
import { createTestApp } from '../../test/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { formAction, freePort, TestBrowser } from './test-browser.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = path.resolve(here, '../../test/external-idp.ts');
const account = {
  sub: 'ext-0001',
  email: 'Ext.Support@IdP.example',
  name: 'Ext Support',
  password: 'ext-secret-pw',
  roles: ['support', 'guest'],
};

let database: TestDatabase;
let app: FastifyInstance;
let idp: ChildProcess;
let issuer: string;
let base: string;

/** Starts the external IdP as a separate Node process and waits for the issuer it prints. */
async function startExternalIdp(publicUrl: string): Promise<string> {
  idp = spawn(process.execPath, ['--import', 'tsx', fixture], {
    cwd: path.resolve(here, '../../..'),
    env: {
      ...process.env,
      EXT_IDP_CLIENT_ID: 'portal-at-ext',
      EXT_IDP_CLIENT_SECRET: 'ext-client-secret-123',
      EXT_IDP_REDIRECT_URI: `${publicUrl}/api/auth/callback`,
      EXT_IDP_POST_LOGOUT_URI: `${publicUrl}/`,
      EXT_IDP_ROLES_CLAIM: 'app_roles',
      EXT_IDP_ACCOUNT: JSON.stringify(account),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  idp.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: idp.stdout! });
  const first = await Promise.race([
    once(lines, 'line').then(([line]) => String(line)),
    once(idp, 'exit').then(() => {
      throw new Error(`external IdP exited early:\n${stderr}`);
    }),
  ]);
  return (JSON.parse(first) as { issuer: string }).issuer;
}

beforeAll(async () => {
  database = await createTestDatabase();
  const port = await freePort();
  base = `http://localhost:${port}`;
  issuer = await startExternalIdp(base);
  app = await createTestApp(database, {
    PORT: String(port),
    PUBLIC_URL: base,
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'portal-at-ext',
    OIDC_CLIENT_SECRET: 'ext-client-secret-123',
    OIDC_ROLES_CLAIM: 'app_roles',
  });
  await app.listen({ host: '127.0.0.1', port });
});

afterAll(async () => {
  await app?.close();
  if (idp && idp.exitCode === null) {
    idp.kill('SIGTERM');
    await once(idp, 'exit');
  }
  await database?.close();
});

describe('sign-in with an external IdP (separate oidc-provider process)', () => {
  it('does not mount the built-in provider', async () => {
    const res = await fetch(`${base}/oidc/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });

  it('signs in through the external IdP and takes the vendor roles from its roles claim', async () => {
    const browser = new TestBrowser();
    const login = await browser.navigate(`${base}/api/auth/login?returnTo=/elastic`);
    expect(login.url.origin).toBe(issuer);
    expect(login.response.status).toBe(200);
    const html = await login.response.text();
    expect(html).toContain('External IdP');

    const done = await browser.postForm(formAction(html, login.url), {
      login: account.email,
      password: account.password,
    });
    expect(done.url.href).toBe(`${base}/elastic`);
    expect(done.hops.some((h) => h.href.startsWith(`${base}/api/auth/callback?`))).toBe(true);
    const cookie = browser.cookie('lp_session');
    expect(cookie).toBeTruthy();
    expect(browser.setCookieHeaders.get('lp_session')).toMatch(
      /HttpOnly.*SameSite=Lax|SameSite=Lax.*HttpOnly/i,
    );

    const [user] = await database.db.select().from(users).where(eq(users.email, 'ext.support@idp.example'));
    expect(user).toMatchObject({ name: 'Ext Support', vendorRoles: ['support'] });
    const userSessions = await database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(userSessions).toHaveLength(1);

    const me = await browser.request(`${base}/api/auth/session`);
    expect((await me.json()).data).toEqual({
      email: 'ext.support@idp.example',
      name: 'Ext Support',
      vendorRoles: ['support'],
      via: 'session',
    });

    // Sign-out ends the portal session and points the browser at the external IdP's end-session endpoint.
    const out = await browser.request(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { 'x-lp-csrf': '1' },
    });
    const redirect = new URL((await out.json()).data.redirect);
    expect(redirect.origin).toBe(issuer);
    expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/`);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await browser.request(`${base}/api/auth/session`)).status).toBe(401);
  });

  it('sends the browser back with signin=failed when the IdP denies the user', async () => {
    const browser = new TestBrowser();
    const login = await browser.navigate(`${base}/api/auth/login`);
    const html = await login.response.text();
    const wrong = await browser.postForm(formAction(html, login.url), {
      login: account.email,
      password: 'nope',
    });
    expect(await wrong.response.text()).toContain('Invalid credentials');
    // A forged callback (state never issued) fails closed.
    const forged = await browser.navigate(
      `${base}/api/auth/callback?code=x&state=y&iss=${encodeURIComponent(issuer)}`,
    );
    expect(forged.url.href).toBe(`${base}/?signin=failed`);
    expect(browser.cookie('lp_session')).toBeUndefined();
  });
});
