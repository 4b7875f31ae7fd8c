import net from 'node:net';
import { accountsApi } from '@lp/contract/accounts/api';
import { clsApi } from '@lp/contract/cls/api';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import { platformApi } from '@lp/contract/platform/api';
import { describe, expect } from 'vitest';
import { buildElasticServer } from '../../harness/elastic-factories.ts';
import { buildAccount } from '../../harness/factories.ts';
import { anonymous, apiTest, bearer } from '../../test/api-fixture.ts';
import { writeWebDist } from '../../test/web-dist.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/* Issue 20 §7: JSON answers carry Cache-Control: no-store (error envelopes too); hashed assets stay cached. */

const asset = '/assets/index-C0ffee12.js';

const test = apiTest
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('webDist', { scope: 'file' }, async ({}, { onCleanup }) =>
    writeWebDist({ 'index.html': '<!doctype html><title>x</title>', [asset]: 'export {};\n' }, onCleanup),
  )
  .override('appEnv', { scope: 'file' }, async ({ webDist }) => ({ WEB_DIST: webDist }))
  /** An elastic license server, calling with its credential. */
  .extend('server', { scope: 'file' }, async ({ database }) => {
    await buildAccount(database.db, { customerNumber: '4700001', name: 'Cache' });
    const clsId = await buildElasticServer(database.db, '4700001');
    const { token } = await issueServerCredential(database.db, {
      customerNumber: '4700001',
      elasticServerId: clsId,
      createdBy: 't',
    });
    return bearer(token);
  });

describe('Cache-Control', () => {
  test('is no-store on JSON answers and error envelopes', async ({ api, app, server, cast: { busops } }) => {
    const answers = await Promise.all([
      api.call(anonymous, licenseFilesApi.keys),
      api.call(busops, accountsApi.check, {}),
      api.call(anonymous, accountsApi.check, {}),
      api.call(busops, accountsApi.check, '{'),
      app.inject({ url: '/api/no-such-call' }),
      app.inject({ url: `${licenseFilesApi.keys.path}?x=%00` }),
      api.call(server, clsApi.policy),
      api.call(anonymous, platformApi.health),
    ]);
    expect(answers.map((r) => [r.statusCode >= 400, r.headers['content-type']])).toEqual(
      answers.map((r) => [r.statusCode >= 400, expect.stringMatching(/^application\/json/)]),
    );
    expect(answers.map((r) => r.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
  });

  test('is no-store on an envelope the HTTP parser sends itself', async ({ baseUrl }) => {
    const port = Number(new URL(baseUrl).port);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = net.connect(port, '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      socket.on('data', (d) => {
        text += d;
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/i);
  });

  test('leaves the static files their own: hashed assets a year, the page revalidated', async ({ app }) => {
    expect((await app.inject({ url: asset })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await app.inject({ url: '/elastic' })).headers['cache-control']).toBe('no-cache');
  });
});
