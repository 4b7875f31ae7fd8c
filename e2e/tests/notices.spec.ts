import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, signIn } from './helpers.ts';

/*
 * Proactive notices (issue 13 §2, decision 041): this file's server runs the daily notices job at start over the
 * demo world; the panel on the account pages and the top bar's count show the account's notices the user chose,
 * and "Choose notices" changes that (administrators also switch types off for the account).
 */
// Runs on a server with the jobs (playwright.config.ts, project 'jobs').

interface Notice {
  type: string;
  threshold: number;
  text: string;
}
interface NoticesData {
  notices: Notice[];
  disabledTypes: string[];
}

const ACME = '1000123';
const csrf = { 'x-lp-csrf': '1' };

async function notices(page: Page): Promise<NoticesData> {
  const res = await page.request.post('/api/notices', { headers: csrf, data: { customerNumber: ACME } });
  expect(res.status()).toBe(200);
  return (await res.json()).data as NoticesData;
}

/** The job runs once the server is up: wait for its findings through the API. */
async function waitForNotices(page: Page) {
  await expect.poll(async () => (await notices(page)).notices.length, { timeout: 60_000 }).toBeGreaterThan(0);
  return notices(page);
}

const panel = (page: Page) => page.getByRole('region', { name: 'Notices' });

test('the panel and the top bar show the notices the user chose; choosing fewer thresholds hides the rest', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, 'admin@acme.example', '/ssl');
  const all = await waitForNotices(page);
  await page.reload();
  // Issue 21: the panel shows the newest few, so the page's title and its first table stay in the first screen.
  const shown = Math.min(all.notices.length, 3);
  await expect(panel(page).getByRole('listitem')).toHaveCount(shown);
  await expect(panel(page).getByRole('listitem').first()).toContainText(all.notices[0]?.text ?? 'missing');
  await expect(page.getByTestId('notices-count')).toHaveText(String(all.notices.length));
  await expect(page.getByRole('heading', { level: 1, name: 'Leases/Perpetuals' })).toBeInViewport({
    ratio: 1,
  });
  await expect(page.getByRole('region', { name: 'Active Entitlements table', exact: true })).toBeInViewport();
  if (all.notices.length > shown) {
    const toggle = panel(page).getByRole('button', { name: `Show all ${all.notices.length} notices` });
    await toggle.click();
    await expect(panel(page).getByRole('listitem')).toHaveCount(all.notices.length);
    await panel(page).getByRole('button', { name: 'Show fewer notices' }).click();
    await expect(panel(page).getByRole('listitem')).toHaveCount(shown);
  }
  await expectNoSeriousViolations(page);
  await page.getByRole('link', { name: 'Flexible Spending Account' }).click();
  await expect(panel(page).getByRole('listitem')).toHaveCount(shown);
  await expect(page.getByRole('heading', { level: 1, name: 'Flexible Spending Account' })).toBeInViewport({
    ratio: 1,
  });
  await expect(page.getByRole('tab', { name: 'Entitlements' })).toBeInViewport();
  await page.getByRole('link', { name: 'Leases/Perpetuals' }).click();

  // Only the last week before an end, no usage or run-out notices.
  await panel(page).getByRole('button', { name: 'Choose notices' }).click();
  const dialog = page.getByRole('dialog', { name: `Notices for ${ACME}` });
  await dialog.getByRole('checkbox', { name: '90 days' }).uncheck();
  await dialog.getByRole('checkbox', { name: '30 days' }).uncheck();
  await dialog.getByRole('checkbox', { name: '80%' }).uncheck();
  await dialog.getByRole('checkbox', { name: '95%' }).uncheck();
  await dialog.getByRole('checkbox', { name: 'Budget forecast to run out before the term ends' }).uncheck();
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const wanted = all.notices.filter((n) => n.type.endsWith('-ending') && n.threshold === 7);
  await expect(page.getByTestId('notices-count')).toHaveText(String(wanted.length));
  expect((await notices(page)).notices.map((n) => n.text)).toEqual(wanted.map((n) => n.text));
  if (wanted.length) await expect(panel(page).getByRole('listitem')).toHaveCount(Math.min(wanted.length, 3));
  else await expect(panel(page)).toHaveCount(0);
});

test('an administrator switches a type off for the account; a viewer cannot', async ({ page, browser }) => {
  await signIn(page, 'coordinator@acme.example', '/entitlementsFSA');
  const all = await waitForNotices(page);
  const type = all.notices[0]?.type as string;
  await page.getByRole('button', { name: /^Notices\s*\d/ }).click();
  await page
    .getByRole('dialog', { name: /^Notices\s*\d/ })
    .getByRole('button', { name: 'Choose notices' })
    .click();
  const dialog = page.getByRole('dialog', { name: `Notices for ${ACME}` });
  const labels: Record<string, string> = {
    'lease-ending': 'Leases ending',
    'maintenance-ending': 'Maintenance ending',
    'evaluation-ending': 'Evaluation licenses ending',
    'elastic-usage': 'Elastic usage',
    'fsa-usage': 'FSA contract usage',
    'elastic-run-out': 'Elastic run-out forecast',
    'fsa-run-out': 'FSA run-out forecast',
    'web-seats-inactive': 'Unused named web seats',
  };
  await dialog.getByRole('switch', { name: labels[type] }).uncheck();
  await expect(dialog.getByRole('switch', { name: labels[type] })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const left = all.notices.filter((n) => n.type !== type);
  await expect(page.getByTestId('notices-count')).toHaveText(String(left.length));
  expect((await notices(page)).disabledTypes).toEqual([type]);

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signIn(viewer, 'engineer@acme.example', '/elastic');
  await viewer.getByRole('button', { name: /^Notices\s*\d/ }).click();
  await viewer
    .getByRole('dialog', { name: /^Notices\s*\d/ })
    .getByRole('button', { name: 'Choose notices' })
    .click();
  const theirs = viewer.getByRole('dialog', { name: `Notices for ${ACME}` });
  await expect(theirs.getByRole('checkbox', { name: '7 days' })).toBeVisible();
  await expect(theirs.getByRole('switch')).toHaveCount(0);
  await viewerContext.close();
});
