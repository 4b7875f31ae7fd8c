import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElasticServer } from '../../harness/elastic-factories.ts';
import { buildAccount } from '../../harness/factories.ts';
import { signInAs } from '../../harness/sign-in.ts';
import { createTestApp } from '../../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/test-db.ts';
import { issueServerCredential } from '../features/cls-api/server-credentials.ts';

/* Issue 20 §7: JSON answers carry Cache-Control: no-store (error envelopes too); hashed assets stay cached. */

let database: TestDatabase;
let app: FastifyInstance;
let signedIn: Record<string, string>;
let serverToken: string;
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-web-dist-'));
const asset = '/assets/index-C0ffee12.js';

beforeAll(async () => {
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>x</title>');
  fs.writeFileSync(path.join(webDist, asset), 'export {};\n');
  database = await createTestDatabase();
  app = await createTestApp(database, { WEB_DIST: webDist });
  await buildAccount(database.db, { customerNumber: '4700001', name: 'Cache' });
  const clsId = await buildElasticServer(database.db, '4700001');
  serverToken = (
    await issueServerCredential(database.db, { customerNumber: '4700001', clsId, createdBy: 't' })
  ).token;
  signedIn = (await signInAs(database.db, 'ops@vendor.example', { vendorRoles: ['busops'] })).headers;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('Cache-Control', () => {
  it('is no-store on JSON answers and error envelopes', async () => {
    const answers = await Promise.all([
      app.inject({ url: '/api/license-keys' }),
      app.inject({ method: 'POST', url: '/api/accounts', headers: signedIn, payload: {} }),
      app.inject({ method: 'POST', url: '/api/accounts', payload: {} }),
      app.inject({ method: 'POST', url: '/api/accounts', headers: signedIn, payload: '{' }),
      app.inject({ url: '/api/no-such-call' }),
      app.inject({ url: '/api/license-keys?x=%00' }),
      app.inject({ url: '/cls/v1/policy', headers: { authorization: `Bearer ${serverToken}` } }),
      app.inject({ url: '/healthz' }),
    ]);
    expect(answers.map((r) => [r.statusCode >= 400, r.headers['content-type']])).toEqual(
      answers.map((r) => [r.statusCode >= 400, expect.stringMatching(/^application\/json/)]),
    );
    expect(answers.map((r) => r.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
  });

  it('is no-store on an envelope the HTTP parser sends itself', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as net.AddressInfo;
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

  it('leaves the static files their own: hashed assets a year, the page revalidated', async () => {
    expect((await app.inject({ url: asset })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await app.inject({ url: '/elastic' })).headers['cache-control']).toBe('no-cache');
  });
});
