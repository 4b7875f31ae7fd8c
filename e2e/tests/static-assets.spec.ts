import type { Response } from '@playwright/test';
import { expect, test } from './fixtures.ts';

test('the built scripts arrive compressed and cached for a year, the page itself is revalidated', async ({
  page,
}) => {
  const scripts: Response[] = [];
  page.on('response', (response) => {
    if (/^\/assets\/.+\.js$/.test(new URL(response.url()).pathname)) scripts.push(response);
  });
  const document = await page.goto('/');
  expect(document?.headers()['cache-control']).toBe('no-cache');
  await expect(page.getByLabel('Email')).toBeVisible();

  expect(scripts.length).toBeGreaterThan(0);
  let compressed = 0;
  for (const script of scripts) {
    const sent = await script.request().allHeaders();
    const headers = await script.allHeaders();
    // The best encoding the browser offered: brotli when it says br (Chromium does on localhost), else gzip. A chunk
    // of a few bytes (a shared no-op) has no compressed copy, since compressing would not make it smaller.
    const expected = /\bbr\b/.test(sent['accept-encoding'] ?? '') ? 'br' : 'gzip';
    const plain = headers['content-encoding'] === undefined && Number(headers['content-length']) < 100;
    expect([script.url(), headers['content-encoding'], headers['cache-control']]).toEqual([
      script.url(),
      plain ? undefined : expected,
      'public, max-age=31536000, immutable',
    ]);
    if (!plain) compressed++;
  }
  expect(compressed).toBeGreaterThan(0);
});
