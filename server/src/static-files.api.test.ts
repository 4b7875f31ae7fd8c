import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../harness/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';

let database: TestDatabase;
let app: FastifyInstance;
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'lp-web-dist-'));
const asset = '/assets/index-B7xq9Lk2.js';
const script = `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
const indexHtml = `<!doctype html><html><head><script type="module" src="${asset}"></script></head><body></body></html>`;
const immutable = 'public, max-age=31536000, immutable';

/** What `npm run build -w @lp/web` writes: each text file with its .br and .gz copies beside it. */
function writeBuilt(file: string, content: string) {
  const target = path.join(webDist, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, content);
  fs.writeFileSync(`${target}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${target}.gz`, zlib.gzipSync(content));
}

beforeAll(async () => {
  writeBuilt('index.html', indexHtml);
  writeBuilt(asset, script);
  fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  database = await createTestDatabase();
  app = await createTestApp(database, { WEB_DIST: webDist });
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('static files of the web app', () => {
  it('sends hashed assets compressed, as the browser accepts, and cached for a year', async () => {
    const br = await get(asset, 'br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(immutable);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);

    const gzip = await get(asset, 'gzip, deflate');
    expect([gzip.headers['content-encoding'], gzip.headers['cache-control']]).toEqual(['gzip', immutable]);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await get(asset);
    expect([plain.headers['content-encoding'], plain.headers['cache-control']]).toEqual([
      undefined,
      immutable,
    ]);
    expect(plain.body).toBe(script);
  });

  it('makes the browser revalidate index.html, the client-route fallback and unhashed files', async () => {
    for (const url of ['/index.html', '/', '/elastic', '/favicon.svg']) {
      const res = await get(url, 'br, gzip');
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-cache']);
    }
    const index = await get('/index.html', 'br');
    expect(zlib.brotliDecompressSync(index.rawPayload).toString()).toBe(indexHtml);
    expect((await get('/elastic')).body).toBe(indexHtml);
    // A file the build left uncompressed stays so: the API's compression does not touch static files.
    const favicon = await get('/favicon.svg', 'br, gzip');
    expect([favicon.headers['content-encoding'], favicon.body]).toEqual([
      undefined,
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    ]);
  });

  it('still answers JSON API calls and 404s for missing assets', async () => {
    const config = await get('/api/config', 'br, gzip');
    expect(config.statusCode).toBe(200);
    expect(config.json()).toMatchObject({ productName: expect.any(String) });
    expect((await get('/assets/missing-Zz9.js', 'br, gzip')).statusCode).toBe(404);
  });
});
