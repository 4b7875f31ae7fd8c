import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * /web-transactions and /web-reporting (decision 071): the pages open from the Web menu's paths with their crumbs,
 * the transactions grid with "Data as of" and the CSV export, the reports with their sections, and both pass axe.
 * The rows, filters and numbers are the API tests' (web-transactions.api.test.ts, web-reporting.api.test.ts); the
 * variants (view-only, export denial, empty states) the pages' component tests.
 */

const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

test('web transactions and reports open with their crumbs, data line, export and sections', async ({
  page,
}) => {
  await openAccountPage(page, 'busops@demo.example', 'Acme Automotive GmbH', '/web-transactions');
  await expect(page.getByRole('heading', { name: 'Web Transactions' })).toBeVisible();
  await expect(crumbs(page)).toHaveText('Web>Transactions');
  await expect(page.getByTestId('web-transactions-as-of')).toHaveText(
    /^Data as of (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)|no sessions yet)$/,
  );
  const grid = page.getByRole('region', { name: 'Web transactions' });
  await expect(grid).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export as csv file' })).toBeEnabled();
  await expectNoSeriousViolations(page);

  await page.goto(page.url().replace('/web-transactions', '/web-reporting'));
  await expect(page.getByRole('heading', { name: 'Web Reporting' })).toBeVisible();
  await expect(crumbs(page)).toHaveText('Web>Reporting');
  await expect(page.getByRole('heading', { name: 'Utilisation' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Sessions by weekday and hour (UTC)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Unused named seats' })).toBeVisible();
  // The segmented control's radios are hidden behind their labels.
  await page.getByText('90 days', { exact: true }).click();
  await expect(page.getByRole('radio', { name: '90 days', exact: true })).toBeChecked();
  await expectNoSeriousViolations(page);
});
