import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../harness/test-app.ts';
import { freePort, TestBrowser } from '../../../test/test-browser.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';
import { idpAccounts } from '../../db/schema.ts';
import { hashPassword } from './password.ts';

let database: TestDatabase;
const apps: FastifyInstance[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(idpAccounts).values({
    email: 'demo.busops@vendor.example',
    name: 'Demo Busops',
    roles: ['busops'],
    passwordHash: await hashPassword('x'),
  });
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

async function loginPageOf(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const app = await createTestApp(database, { PORT: String(port), PUBLIC_URL: base, ...env });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port });
  const { response, url } = await new TestBrowser().navigate(`${base}/api/auth/login`);
  expect(url.pathname).toMatch(/^\/oidc\/interaction\//);
  return response.text();
}

describe('the built-in login page', () => {
  it('lists the demo users and the default DEMO_PASSWORD outside production', async () => {
    const html = await loginPageOf({ APP_ENVIRONMENT: 'dev' });
    expect(html).toContain('Demo users');
    expect(html).toContain('demo.busops@vendor.example');
    expect(html).toContain('<code>demo-password</code>');
  });

  it('lists no demo users in production', async () => {
    const html = await loginPageOf({ APP_ENVIRONMENT: 'prod', ALLOW_INSECURE_URLS: 'true' });
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).not.toContain('Demo users');
    expect(html).not.toContain('demo.busops@vendor.example');
    expect(html).not.toContain('demo-password');
  });
});
