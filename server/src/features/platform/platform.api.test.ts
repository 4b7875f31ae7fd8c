import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../../harness/sign-in.ts';
import { createTestApp } from '../../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-db.ts';

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database, {
    APP_ENVIRONMENT: 'uat',
    BUILD_INFO: 'build 42',
    PRODUCT_NAME: 'Flow Suite',
  });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('operations endpoints', () => {
  it('reports health and database readiness', async () => {
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: database.engine });
  });

  it('sends security headers and a request id on every answer', async () => {
    const res = await app.inject('/api/config');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('serves the client configuration and environment without sign-in', async () => {
    const config = (await app.inject('/api/config')).json();
    expect(config).toMatchObject({
      production: false,
      productName: 'Flow Suite',
      loginUrl: '/api/auth/login',
    });
    const env = await app.inject('/api/environment');
    expect(env.body).toBe('uat');
  });

  it('serves build info to signed-in users', async () => {
    const { headers } = await signInAs(database.db, 'someone@acme.example');
    expect((await app.inject({ url: '/api/getBuildInfo', headers })).json()).toEqual({
      status: 'SUCCESS',
      err: null,
      data: 'build 42',
    });
  });

  it('publishes an OpenAPI document generated from the contract', async () => {
    const doc = (await app.inject('/api/docs')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(
      doc.paths['/api/getaccounts'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('filter');
    expect(doc.paths['/api/featureflag/pref'].post).toBeDefined();
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const { headers } = await signInAs(database.db, 'someone@acme.example');
    const res = await app.inject({ url: '/api/no-such-thing', headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().status).toBe('FAILURE');
  });
});
