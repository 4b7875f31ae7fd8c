import { apiCatalogue } from '@lp/contract/api-catalogue';
import { defineOperation } from '@lp/contract/common/operation';
import { emailsApi } from '@lp/contract/emails/api';
import { platformApi } from '@lp/contract/platform/api';
import Fastify from 'fastify';
import { describe, expect } from 'vitest';
import { z } from 'zod';
import { anonymous, apiTest as test } from '../../test/api-fixture.ts';
import { API_REFERENCE_PATH } from '../features/platform/api-reference.ts';
import { SCIM_PREFIX } from '../features/scim/routes.ts';
import type { AppContext } from './context.ts';
import { installErrorHandler } from './errors.ts';
import { fastifyPath, registeredRoutes, route } from './route.ts';

describe('routes are registered from the operation declarations', () => {
  test('registers exactly the declared operations (besides the OpenID provider, the API reference page, the SCIM endpoint and the web app files)', async ({
    app,
  }) => {
    await app.ready();
    const ours = registeredRoutes(app).filter(
      (r) =>
        !r.url.startsWith('/oidc') && !r.url.startsWith(API_REFERENCE_PATH) && !r.url.startsWith(SCIM_PREFIX),
    );
    const registered = ours.map((r) => `${r.method} ${r.url} ${r.operationId}`).sort();
    const declared = apiCatalogue
      .map((op) => `${op.method.toUpperCase()} ${fastifyPath(op.path)} ${op.operationId}`)
      .sort();
    expect(registered).toEqual(declared);
  });

  test('answers 401 for a declared session call without a principal and serves public ones', async ({
    api,
    app,
  }) => {
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
    await api.ok(anonymous, platformApi.config, undefined);
  });

  test('in tests, an answer that does not match its declared response fails the call', async () => {
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

  test('refuses a path parameter that does not match its declaration with 400 in the envelope', async ({
    api,
    cast: { support },
  }) => {
    const refusal = await api.refused(support, emailsApi.remove, { params: { id: 'not-a-number' } }, 400);
    expect(refusal).toMatchObject({
      status: 'FAILURE',
      err: expect.stringMatching(/^Invalid request: id: /),
    });
  });
});
