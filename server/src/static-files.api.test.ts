import zlib from 'node:zlib';
import { platformApi } from '@lp/contract/platform/api';
import { describe, expect } from 'vitest';
import { anonymous, apiTest } from '../test/api-fixture.ts';
import { writeWebDist } from '../test/web-dist.ts';

const asset = '/assets/index-B7xq9Lk2.js';
const script = `export const rows = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `row ${i}` })))};\n`;
const indexHtml = `<!doctype html><html><head><script type="module" src="${asset}"></script></head><body></body></html>`;
const immutable = 'public, max-age=31536000, immutable';

/** What `npm run build -w @lp/web` writes: each text file with its .br and .gz copies beside it. */
const built = (file: string, content: string) => ({
  [file]: content,
  [`${file}.br`]: zlib.brotliCompressSync(content),
  [`${file}.gz`]: zlib.gzipSync(content),
});

const test = apiTest
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (none).
  .extend('webDist', { scope: 'file' }, async ({}, { onCleanup }) =>
    writeWebDist(
      {
        ...built('index.html', indexHtml),
        ...built(asset, script),
        'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      },
      onCleanup,
    ),
  )
  .override('appEnv', { scope: 'file' }, async ({ webDist }) => ({ WEB_DIST: webDist }))
  /** A static file, as a browser that accepts these encodings asks for it. */
  .extend(
    'get',
    { scope: 'file' },
    async ({ app }) =>
      (url: string, acceptEncoding?: string) =>
        app.inject({ url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }),
  );

describe('static files of the web app', () => {
  test('sends hashed assets compressed, as the browser accepts, and cached for a year', async ({ get }) => {
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

  test('makes the browser revalidate index.html, the client-route fallback and unhashed files', async ({
    get,
  }) => {
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

  test('still answers JSON API calls and 404s for missing assets', async ({ api, get }) => {
    const config = await api.ok(anonymous, platformApi.config, undefined, {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(config).toMatchObject({ productName: expect.any(String) });
    expect((await get('/assets/missing-Zz9.js', 'br, gzip')).statusCode).toBe(404);
  });
});
