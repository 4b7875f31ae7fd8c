import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';

/*
 * Layout shift while a signed-in page loads (issue 21 §3: CLS 0.18 on /elastic, 0.31 on /ssl): nothing the user
 * already sees moves. This file's server runs the notices job, so the account pages show their notices panel.
 */
// Runs on a server with the jobs (playwright.config.ts, project 'jobs').

interface Shift {
  value: number;
  inMenu: boolean;
}

/** Records the layout shifts the browser reports (the Lighthouse CLS), and whether they moved the left menu. */
async function recordShifts(page: Page) {
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
}

const shiftsOf = (page: Page) => page.evaluate(() => (window as unknown as { shifts: Shift[] }).shifts);
const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0);

test('signed-in pages do not move while they load: the menu stays put, the notices panel comes with the page', async ({
  page,
}) => {
  await recordShifts(page);
  await signIn(page, 'admin@acme.example');
  await expect(page.getByTestId('selected-customer')).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Usage Transactions', exact: true })).toBeVisible();
  expect((await shiftsOf(page)).filter((s) => s.inMenu)).toEqual([]);

  // The notices job runs once the server is up: the top bar counts the account's notices when they are there.
  await expect
    .poll(
      async () => {
        await page.reload();
        return Number(await page.getByTestId('notices-count').textContent());
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(0);

  for (const [path, heading] of [
    ['/elastic', 'Elastic Licensing'],
    ['/ssl', 'Leases/Perpetuals'],
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    await expect(page.getByTestId('notices-panel')).toBeVisible();
    await expect(page.getByRole('grid').first()).toBeVisible();
    const shifts = await shiftsOf(page);
    expect([path, shifts.filter((s) => s.inMenu)]).toEqual([path, []]);
    expect(total(shifts), path).toBeLessThanOrEqual(0.1);
  }
});
