import { authApi } from '@lp/contract/auth/api';
import type { FastifyInstance } from 'fastify';
import { describe, expect } from 'vitest';
import { freePort } from '../../../harness/free-port.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { apiTest } from '../../../test/api-fixture.ts';
import { TestBrowser } from '../../../test/test-browser.ts';
import { idpAccounts } from '../../db/schema.ts';
import { hashPassword } from './password.ts';

/*
 * The page differs by environment, so each test builds an app of its own on the fixture's database, listening
 * where its PUBLIC_URL says (the IdP's redirects name it).
 */
const test = apiTest.extend('loginPageOf', { scope: 'file' }, async ({ database }, { onCleanup }) => {
  await database.db.insert(idpAccounts).values({
    email: 'demo.busops@vendor.example',
    name: 'Demo Busops',
    roles: ['busops'],
    passwordHash: await hashPassword('x'),
  });
  const apps: FastifyInstance[] = [];
  onCleanup(async () => {
    for (const app of apps) await app.close();
  });
  return async (env: Record<string, string>): Promise<string> => {
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const app = await createTestApp(database, { PORT: String(port), PUBLIC_URL: base, ...env });
    apps.push(app);
    await app.listen({ host: '127.0.0.1', port });
    const { response, url } = await new TestBrowser().navigate(`${base}${authApi.login.path}`);
    expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
    return response.text();
  };
});

describe('the built-in login page', () => {
  test('lists the demo users and the default DEMO_PASSWORD outside production', async ({ loginPageOf }) => {
    const html = await loginPageOf({ APP_ENVIRONMENT: 'dev' });
    expect(html).toContain('Demo users');
    expect(html).toContain('demo.busops@vendor.example');
    expect(html).toContain('<code>demo-password</code>');
  });

  test('lists no demo users in production', async ({ loginPageOf }) => {
    const html = await loginPageOf({ APP_ENVIRONMENT: 'prod', ALLOW_INSECURE_URLS: 'true' });
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).not.toContain('Demo users');
    expect(html).not.toContain('demo.busops@vendor.example');
    expect(html).not.toContain('demo-password');
  });
});
