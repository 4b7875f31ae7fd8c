import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';

/*
 * Issue 22 §2: with the web app served, unknown paths of the server (/api, /cls, /metrics, each as a whole path
 * segment) answer 404 in the envelope, never the web app's page with 200; client-side routes still get it.
 * (/oidc/* belongs to the OpenID provider, which answers its own 404.)
 */
let database: TestDatabase;
let app: FastifyInstance;
let signedIn: Record<string, string>;
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-web-dist-'));
const indexHtml = '<!doctype html><html><body>web app</body></html>';
const metricsToken = 'unknown-paths-metrics-token';

beforeAll(async () => {
  fs.writeFileSync(path.join(webDist, 'index.html'), indexHtml);
  database = await createTestDatabase();
  app = await createTestApp(database, { WEB_DIST: webDist, METRICS_TOKEN: metricsToken });
  signedIn = (await signInAs(database.db, 'someone@example.com')).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const notFound = { status: 'FAILURE', err: 'Not found', code: 'NOT_FOUND' };

describe('unknown paths', () => {
  it('under /api, /cls and /metrics answer the 404 envelope for every method', async () => {
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
        const res = await app.inject({ method, url, headers: signedIn });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/);
        if (method !== 'HEAD') expect(res.json(), `${method} ${url}`).toEqual(notFound);
      }
  });

  it('elsewhere, a client-side route gets the web app (/clscredentials and /metricsx are not server paths)', async () => {
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

  it('are counted under bounded names, never their paths (decision 055)', async () => {
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
