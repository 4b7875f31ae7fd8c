import type { Response } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';

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

test('a signed-in page does not move under the pointer while it loads: the menu stays put (issue 21)', async ({
  page,
}) => {
  // Layout shifts as the browser reports them (the Lighthouse CLS), with the elements that moved.
  await page.addInitScript(() => {
    const shifts: { value: number; inMenu: boolean }[] = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        const inMenu = entry.sources.some(
          (s) => s.node instanceof Element && !!s.node.closest('nav[aria-label="Main menu"]'),
        );
        shifts.push({ value: entry.value, inMenu });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await signIn(page, 'admin@acme.example');
  await expect(page.getByTestId('selected-customer')).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Usage Transactions', exact: true })).toBeVisible();
  await expect(page.getByRole('grid').first()).toBeVisible();
  const shifts = await page.evaluate(
    () => (window as unknown as { shifts: { value: number; inMenu: boolean }[] }).shifts,
  );
  expect(shifts.filter((s) => s.inMenu)).toEqual([]);
  expect(shifts.reduce((sum, s) => sum + s.value, 0)).toBeLessThanOrEqual(0.1);
});
