import { describe, expect } from 'vitest';
import { apiTest } from '../../test/api-fixture.ts';
import { writeWebDist } from '../../test/web-dist.ts';

/*
 * Issue 22 §2: with the web app served, unknown paths of the server (/api, /cls, /metrics, each as a whole path
 * segment) answer 404 in the envelope, never the web app's page with 200; client-side routes still get it.
 * (/oidc/* belongs to the OpenID provider, which answers its own 404.)
 */
const indexHtml = '<!doctype html><html><body>web app</body></html>';
const metricsToken = 'unknown-paths-metrics-token';

const test = apiTest
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('webDist', { scope: 'file' }, async ({}, { onCleanup }) =>
    writeWebDist({ 'index.html': indexHtml }, onCleanup),
  )
  .override('appEnv', { scope: 'file' }, async ({ webDist }) => ({
    WEB_DIST: webDist,
    METRICS_TOKEN: metricsToken,
  }));

const notFound = { status: 'FAILURE', err: 'Not found', code: 'NOT_FOUND' };

describe('unknown paths', () => {
  test('under /api, /cls and /metrics answer the 404 envelope for every method', async ({ app, signIn }) => {
    const { headers } = await signIn('someone@example.com');
    const paths = [
      '/api',
      '/api/',
      '/api/nope?x=1',
      '//api/nope',
      '/cls',
      '/cls/',
      '/cls/x',
      '/cls/v2/policy',
      // '/metrics' itself is served here (METRICS_TOKEN): metrics.api.test.ts has it unset.
      '/metrics/',
      '/metrics/x',
    ];
    for (const url of paths)
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
        const res = await app.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
        if (method !== 'HEAD') expect(res.json(), `${method} ${url}`).toEqual(notFound);
      }
  });

  test('elsewhere, a client-side route gets the web app (/clscredentials and /metricsx are not server paths)', async ({
    app,
  }) => {
    for (const url of ['/', '/elastic', '/clscredentials', '/metricsx', '/apis', '/cls-help?x=1']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(indexHtml);
    }
    // HEAD answers as GET does (a load balancer's health check, `curl -I`), without the body.
    for (const url of ['/', '/elastic']) {
      const head = await app.inject({ method: 'HEAD', url });
      expect(head.statusCode, `HEAD ${url}`).toBe(200);
      expect(head.headers['content-type'], `HEAD ${url}`).toMatch(/^text\/html/);
      expect(head.body, `HEAD ${url}`).toBe('');
    }
    // Not a GET or HEAD, or a file name: no page.
    expect((await app.inject({ method: 'POST', url: '/elastic' })).json()).toEqual(notFound);
    expect((await app.inject('/missing.js')).statusCode).toBe(404);
  });

  test('are counted under bounded names, never their paths (decision 055)', async ({ app }) => {
    expect((await app.inject('/index.html')).statusCode).toBe(200);
    const scrape = await app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${metricsToken}` },
    });
    const requests = scrape.body.split('\n').filter((l) => l.startsWith('lp_http_requests_total{'));
    const operations = new Set(requests.map((l) => /operation="([^"]*)"/.exec(l)?.[1]));
    expect([...operations].sort()).toEqual(['notFound', 'static', 'webApp']);
    expect(requests).toContainEqual(expect.stringMatching(/operation="webApp",method="GET",status="200"/));
    expect(requests).toContainEqual(expect.stringMatching(/operation="notFound",method="HEAD",status="404"/));
  });
});
