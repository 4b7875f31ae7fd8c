import { apiCatalogue } from '@lp/contract/api-catalogue';
import { defineOperation } from '@lp/contract/common/operation';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { API_REFERENCE_PATH } from '../features/platform/api-reference.ts';
import type { AppContext } from './context.ts';
import { installErrorHandler } from './errors.ts';
import { fastifyPath, registeredRoutes, route } from './route.ts';

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('routes are registered from the operation declarations', () => {
  it('registers exactly the declared operations (besides the OpenID provider, the API reference page and the web app files)', () => {
    const ours = registeredRoutes(app).filter(
      (r) => !r.url.startsWith('/oidc') && !r.url.startsWith(API_REFERENCE_PATH),
    );
    const registered = ours.map((r) => `${r.method} ${r.url} ${r.operationId}`).sort();
    const declared = apiCatalogue
      .map((op) => `${op.method.toUpperCase()} ${fastifyPath(op.path)} ${op.operationId}`)
      .sort();
    expect(registered).toEqual(declared);
  });

  it('answers 401 for a declared session call without a principal and serves public ones', async () => {
    const session = apiCatalogue.filter((op) => op.auth === 'session');
    for (const op of session) {
      const url = op.path.replace(/\{\w+\}/g, '1');
      const res = await app.inject({
        method: op.method.toUpperCase() as 'GET',
        url,
        payload: op.body ? {} : undefined,
      });
      expect(res.statusCode, `${op.operationId} ${url}`).toBe(401);
      expect(res.json(), op.operationId).toEqual({
        status: 'FAILURE',
        err: 'Unauthorised',
        code: 'UNAUTHENTICATED',
      });
    }
    expect((await app.inject('/api/config')).statusCode).toBe(200);
  });

  it('in tests, an answer that does not match its declared response fails the call', async () => {
    const bare = Fastify({ logger: false });
    installErrorHandler(bare);
    const ctx = { config: { NODE_ENV: 'test' } } as AppContext;
    const op = defineOperation({
      operationId: 'probe',
      method: 'get',
      path: '/probe/{n}',
      summary: 'probe',
      description: 'A call made up for this test',
      auth: 'public',
      effect: 'read',
      params: z.object({ n: z.coerce.number() }),
      response: z.object({ status: z.literal('SUCCESS'), data: z.number() }),
    });
    route(
      bare,
      ctx,
      op,
    )(async ({ params }) =>
      // Deliberately off-contract for odd numbers: the check must catch it.
      params.n % 2
        ? ({ status: 'SUCCESS', data: 'odd' } as unknown as { status: 'SUCCESS'; data: number })
        : { status: 'SUCCESS', data: params.n },
    );
    expect((await bare.inject('/probe/2')).json()).toEqual({ status: 'SUCCESS', data: 2 });
    const bad = await bare.inject('/probe/3');
    expect(bad.statusCode).toBe(500);
    expect(bad.json()).toMatchObject({ status: 'FAILURE', code: 'INTERNAL' });
    // A reference to quote to support, never the cause.
    expect(bad.json().err).toMatch(/^Internal server error \(reference [0-9a-f]{32}\)$/);
    await bare.close();
  });

  it('refuses a path parameter that does not match its declaration with 400 in the envelope', async () => {
    const { headers } = await signInAs(database.db, 'staff@vendor.example', { vendorRoles: ['support'] });
    const res = await app.inject({ method: 'DELETE', url: '/api/emails/not-a-number', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'FAILURE',
      err: expect.stringMatching(/^Invalid request: id: /),
    });
  });
});
