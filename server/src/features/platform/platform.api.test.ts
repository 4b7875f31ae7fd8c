import { accountsApi } from '@lp/contract/accounts/api';
import { authApi } from '@lp/contract/auth/api';
import { platformApi } from '@lp/contract/platform/api';
import { prefsApi } from '@lp/contract/prefs/api';
import { describe, expect } from 'vitest';
import { anonymous, apiTest } from '../../../test/api-fixture.ts';

const test = apiTest.override(
  'appEnv',
  { scope: 'file' },
  { APP_ENVIRONMENT: 'uat', BUILD_INFO: 'build 42', PRODUCT_NAME: 'Flow Suite' },
);

describe('operations endpoints', () => {
  test('reports health and database readiness', async ({ api, database }) => {
    expect(await api.ok(anonymous, platformApi.health, undefined)).toEqual({ status: 'ok' });
    expect(await api.ok(anonymous, platformApi.ready, undefined)).toEqual({
      status: 'ok',
      database: database.engine,
    });
  });

  test('sends security headers and a request id on every answer', async ({ api }) => {
    const res = await api.call(anonymous, platformApi.config);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  test('serves the client configuration and environment without sign-in', async ({ api }) => {
    const config = await api.ok(anonymous, platformApi.config, undefined);
    expect(config).toMatchObject({
      production: false,
      productName: 'Flow Suite',
      loginUrl: authApi.login.path,
    });
    const env = await api.call(anonymous, platformApi.environment);
    expect(env.body).toBe('uat');
  });

  test('serves build info to signed-in users', async ({ api, signIn }) => {
    const someone = await signIn('someone@acme.example');
    expect(await api.ok(someone, platformApi.buildInfo, undefined)).toEqual({
      status: 'SUCCESS',
      err: null,
      data: 'build 42',
    });
  });

  test('publishes an OpenAPI document generated from the contract', async ({ api }) => {
    const doc = (await api.ok(anonymous, platformApi.docs, undefined)) as {
      openapi: string;
      // biome-ignore lint/suspicious/noExplicitAny: the document's paths are read as JSON, as a client reads them.
      paths: Record<string, any>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(
      doc.paths[accountsApi.page.path].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('filter');
    expect(doc.paths[prefsApi.save.path].post).toBeDefined();
  });

  test('answers unknown API paths with a JSON 404', async ({ app, signIn }) => {
    const { headers } = await signIn('someone@acme.example');
    const res = await app.inject({ url: '/api/no-such-thing', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().status).toBe('FAILURE');
  });
});
