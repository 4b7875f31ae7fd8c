import fs from 'node:fs';
import type { Page } from '@playwright/test';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';
import {
  expectNoSeriousViolations,
  expectSavedView,
  holdCalls,
  isDefaultView,
  openAccountPage,
  pickAccount,
  signIn,
} from './helpers.ts';

/*
 * Usage transactions (spec 001 §2.3, §4, §5, §8, §9): the period menu with its presets and the custom
 * two-month calendar, Active Sessions, server-side filters (text, Equals-only numbers, typed date prefixes,
 * the multi-select dialog), Clear Filters / Reset View with the saved view, and the CSV export.
 * Demo world: admin@acme.example administers Acme Aerospace Inc. (1000123, elastic usage with cloud jobs)
 * and Acme Automotive GmbH (1000154, elastic usage without cloud jobs). A failing usage call and the dialog's
 * search error are component tests (web/src/features/transactions/pages/transactions-page.test.tsx,
 * components/values-filter-dialog.test.tsx).
 */

const AEROSPACE = '1000123';
const TABLE = 'UsageTransactions';
const grid = (page: Page) => page.getByRole('region', { name: 'Usage transactions' });
const cells = (page: Page, colId: string) => grid(page).locator(`[role="gridcell"][col-id="${colId}"]`);
const summary = (page: Page) => grid(page).locator('.ag-paging-row-summary-panel');
const periodButton = (page: Page) => page.getByRole('button', { name: /^Date range:/ });
const periodText = (page: Page) => page.getByTestId('period');
const clearFilters = (page: Page) => page.getByRole('button', { name: 'Clear Filters' });
const resetView = (page: Page) => page.getByRole('button', { name: 'Reset View' });

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/** The pager's total once the rows have arrived ("1 to 20 of 102"). */
async function total(page: Page): Promise<number> {
  await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
  let count = -1;
  await expect
    .poll(async () => {
      const m = /of ([\d,]+)/.exec((await summary(page).textContent()) ?? '');
      count = m ? Number(m[1].replace(/,/g, '')) : -1;
      return count;
    })
    .toBeGreaterThanOrEqual(0);
  return count;
}

/** Runs an action after which the table counts its rows again (a new period), and waits for the count. */
async function recounting(page: Page, action: () => Promise<void>) {
  const counted = page.waitForResponse((r) => r.url().endsWith('/api/fetchUsage/count'));
  await action();
  await counted;
}

/** Start times on the current page, once loaded (the infinite row model shows empty rows first). */
async function startTimes(page: Page): Promise<string[]> {
  await expect(cells(page, 'StartTime').first()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  return cells(page, 'StartTime').allTextContents();
}

async function openTransactions(page: Page) {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/transactions');
  await expect(page.getByRole('heading', { name: 'Usage Transactions' })).toBeVisible();
  // Start from the default view, whatever an earlier test saved (known once the first rows are in).
  await total(page);
  if (await resetView(page).isEnabled()) {
    await resetView(page).click();
    await expect(clearFilters(page)).toBeDisabled();
  }
  await expect(periodButton(page)).toHaveText('1 Day');
}

async function openPeriodMenu(page: Page, name: string) {
  await periodButton(page).click();
  await page.getByRole('menuitem', { name, exact: true }).click();
}

const choosePeriod = (page: Page, name: string) => recounting(page, () => openPeriodMenu(page, name));

async function openFilter(page: Page, colId: string) {
  await grid(page).locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-filter-button`).click();
  await expect(page.locator('.ag-filter')).toBeVisible();
}

const closeFilter = (page: Page) => page.keyboard.press('Escape');

test('shows the last received transaction and the 1 Day default, sorted by start time', async ({ page }) => {
  await openTransactions(page);
  await expect(
    page.getByText(/^Last received transaction: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/),
  ).toBeVisible();
  // (refresh) asks for the last received transaction again and reloads the rows.
  const asked = page.waitForRequest((r) => r.url().includes('/api/lastupdatedon?accountId=1000123'));
  const reloaded = page.waitForRequest((r) => r.url().endsWith('/api/fetchUsage') && r.method() === 'POST');
  await page.getByRole('button', { name: '(refresh)' }).click();
  await Promise.all([asked, reloaded]);
  await expect(page.getByText('Transactions may be delayed by up to 30 minutes.')).toBeVisible();
  const now = Date.now();
  await expect(periodText(page)).toHaveText(`${day(now - DAY_MS)} 00:00:00 to ${day(now)} 23:59:59`);

  const headers = await grid(page).locator('.ag-header-cell .ag-header-cell-text').allTextContents();
  expect(headers).toEqual([
    'Start Time',
    'End Time',
    'Product',
    'Count',
    'Hours',
    'Cost',
    'Currency',
    'Username',
    'Hostname',
    'Project',
    'Session ID',
    'Session Status',
    'External IP',
    'Version',
    'Cloud Job Id',
  ]);
  const count = await total(page);
  const starts = await startTimes(page);
  expect(starts.length).toBe(count);
  expect([...starts].sort()).toEqual(starts);
  for (const s of starts)
    expect(s >= `${day(now - DAY_MS)} 00:00:00` && s <= `${day(now)} 23:59:59`).toBe(true);
  await expect(clearFilters(page)).toBeDisabled();
  await expect(resetView(page)).toBeDisabled();
  await expectNoSeriousViolations(page);

  // Another customer: its own rows, and no Cloud Job Id column without cloud jobs in its data.
  await pickAccount(page, 'Automotive', /Acme Automotive GmbH/);
  await expect(page.getByRole('heading', { name: 'Usage Transactions' })).toBeVisible();
  await expect(grid(page).getByRole('columnheader', { name: /^Start Time/ })).toBeVisible();
  await expect(grid(page).getByRole('columnheader', { name: /^Cloud Job Id/ })).toHaveCount(0);
});

test('switches presets, pages, and picks a custom range in the two-month calendar', async ({ page }) => {
  await openTransactions(page);
  // While rows load, the spec's spinner text shows.
  const release = await holdCalls(page, '**/api/fetchUsage');
  await choosePeriod(page, '3 Months');
  await expect(page.getByText('Getting Product Usage information ...')).toBeVisible();
  release();
  await expect(page.getByText('Getting Product Usage information ...')).toBeHidden();
  await page.unroute('**/api/fetchUsage');
  await expect(periodButton(page)).toHaveText('3 Months');
  await expect(resetView(page)).toBeEnabled();
  const threeMonths = await total(page);
  expect(threeMonths).toBeGreaterThan(20);
  await expect(summary(page)).toHaveText(new RegExp(`^\\s*1 to 20 of ${threeMonths}\\s*$`));
  await grid(page).getByRole('button', { name: 'Next Page' }).click();
  await expect(summary(page)).toHaveText(new RegExp(`^\\s*21 to 40 of ${threeMonths}\\s*$`));
  const pageSize = grid(page).getByRole('combobox', { name: 'Page Size' });
  await pageSize.click();
  await expect(page.getByRole('option')).toHaveText(['20', '25', '50', '100', '500']);
  await page.getByRole('option', { name: '50', exact: true }).click();
  await expect(summary(page)).toHaveText(new RegExp(`^\\s*1 to 50 of ${threeMonths}\\s*$`));

  // Custom: a day, then an earlier day restarts the selection; Okay only once both ends are set.
  await periodButton(page).click();
  await page.getByRole('menuitem', { name: 'Custom' }).click();
  const dialog = page.getByRole('dialog', { name: 'Custom range' });
  await expect(dialog).toBeVisible();
  const firstMonth = new Date(Date.now() - 31 * DAY_MS).toISOString().slice(0, 7);
  const okay = dialog.getByRole('button', { name: 'Okay' });
  await dialog.getByRole('button', { name: `${firstMonth}-20`, exact: true }).click();
  await expect(okay).toBeDisabled();
  await dialog.getByRole('button', { name: `${firstMonth}-05`, exact: true }).click();
  await expect(dialog.getByText(`From: ${firstMonth}-05 To: —`)).toBeVisible();
  await expect(okay).toBeDisabled();
  await dialog.getByRole('button', { name: `${firstMonth}-20`, exact: true }).click();
  await expect(dialog.getByText(`From: ${firstMonth}-05 To: ${firstMonth}-20`)).toBeVisible();
  await recounting(page, () => okay.click());
  await expect(periodButton(page)).toHaveText(`${firstMonth}-05 – ${firstMonth}-20`);
  await expect(periodText(page)).toHaveText(`${firstMonth}-05 00:00:00 to ${firstMonth}-20 23:59:59`);
  const starts = await startTimes(page);
  for (const s of starts) expect(s >= `${firstMonth}-05` && s <= `${firstMonth}-20 23:59:59`).toBe(true);

  // Cancel keeps the period.
  await periodButton(page).click();
  await page.getByRole('menuitem', { name: 'Custom' }).click();
  await dialog.getByRole('button', { name: `${firstMonth}-10`, exact: true }).click();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(periodButton(page)).toHaveText(`${firstMonth}-05 – ${firstMonth}-20`);

  // The saved view keeps the custom dates; Reset View returns to 1 Day.
  await expectSavedView(
    page,
    AEROSPACE,
    TABLE,
    (v) =>
      String(v?.startDate).startsWith(`${firstMonth}-05`) &&
      String(v?.endDate).startsWith(`${firstMonth}-20`),
  );
  await page.reload();
  await expect(periodButton(page)).toHaveText(`${firstMonth}-05 – ${firstMonth}-20`);
  await resetView(page).click();
  await expect(periodButton(page)).toHaveText('1 Day');
  await expect(resetView(page)).toBeDisabled();
  await expectSavedView(page, AEROSPACE, TABLE, (v) => isDefaultView(v) && !v?.startDate && !v?.dateRange);
  await page.reload();
  await expect(periodButton(page)).toHaveText('1 Day');
});

test('filters text, numbers, typed dates and chosen values; clearing and resetting the view', async ({
  page,
}) => {
  await openTransactions(page);
  await choosePeriod(page, '3 Months');
  const all = await total(page);

  // Text filters are case-insensitive.
  const user = (await cells(page, 'User').first().textContent()) ?? '';
  await openFilter(page, 'User');
  await page.getByLabel('Username filter value').fill(user.toUpperCase());
  await closeFilter(page);
  await expect.poll(() => total(page)).toBeLessThan(all);
  expect(new Set(await cells(page, 'User').allTextContents())).toEqual(new Set([user]));
  await expect(clearFilters(page)).toBeEnabled();
  await expect(resetView(page)).toBeEnabled();
  await clearFilters(page).click();
  await expect(clearFilters(page)).toBeDisabled();
  await expect.poll(() => total(page)).toBe(all);

  // Numbers: Equals only.
  const hours = (await cells(page, 'Hours').first().textContent()) ?? '';
  await openFilter(page, 'Hours');
  const hoursFilter = page.locator('.ag-filter');
  await expect(hoursFilter.getByText('Greater than')).toHaveCount(0);
  await hoursFilter.locator('input').first().fill(hours);
  await closeFilter(page);
  await expect
    .poll(async () => new Set(await cells(page, 'Hours').allTextContents()))
    .toEqual(new Set([hours]));
  await clearFilters(page).click();
  await expect.poll(() => total(page)).toBe(all);

  // A typed day prefix becomes that whole day.
  const firstDay = (await startTimes(page))[0].slice(0, 10);
  await openFilter(page, 'StartTime');
  await page.getByLabel('Start Time: typed date').fill(firstDay);
  await expect(page.getByText(`${firstDay} 00:00:00 to ${firstDay} 23:59:59`)).toBeVisible();
  await closeFilter(page);
  await expect.poll(async () => (await startTimes(page)).every((s) => s.startsWith(firstDay))).toBe(true);
  await clearFilters(page).click();
  await expect.poll(() => total(page)).toBe(all);

  // From/To to the second: the rows from the second one's start to the third one's.
  const [, second, third] = await startTimes(page);
  await openFilter(page, 'StartTime');
  await page.getByLabel('Start Time from').fill(second.replace(' ', 'T'));
  await page.getByLabel('Start Time to').fill(third.replace(' ', 'T'));
  await closeFilter(page);
  await expect
    .poll(async () => {
      const starts = await startTimes(page);
      return (
        starts.includes(second) && starts.includes(third) && starts.every((t) => t >= second && t <= third)
      );
    })
    .toBe(true);
  expect(await total(page)).toBeLessThan(all);
  await clearFilters(page).click();
  await expect.poll(() => total(page)).toBe(all);

  // The multi-select dialog: search without matches, then pick one product.
  const product = (await cells(page, 'Product').first().textContent()) ?? '';
  await openFilter(page, 'Product');
  await page.getByRole('button', { name: 'Select values…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Filter Product' });
  const selectAll = dialog.getByRole('checkbox', { name: 'Select All' });
  await expect(selectAll).toBeChecked();
  await dialog.getByLabel('Search').fill('no such product');
  await expect(dialog.getByText('No matches found.')).toBeVisible();
  await expect(selectAll).toHaveCount(0);
  await dialog.getByLabel('Search').fill('');
  await expect(selectAll).toBeChecked();
  await expectNoSeriousViolations(page);
  await selectAll.click();
  await dialog.getByRole('checkbox', { name: product, exact: true }).check();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => new Set(await cells(page, 'Product').allTextContents()))
    .toEqual(new Set([product]));
  const oneProduct = await total(page);
  expect(oneProduct).toBeLessThan(all);

  // A named range while filters exist asks first; No keeps both.
  await openPeriodMenu(page, '1 Month');
  const confirm = page.getByRole('dialog', { name: 'Confirm' });
  await expect(confirm).toContainText('Action will clear all current filters. Do you wish to continue?');
  await confirm.getByRole('button', { name: 'No' }).click();
  await expect(periodButton(page)).toHaveText('3 Months');
  expect(await total(page)).toBe(oneProduct);

  // The filtered view is saved and comes back after a reload.
  await expectSavedView(page, AEROSPACE, TABLE, (v) => v?.filterModel?.Product !== undefined);
  await page.reload();
  await expect(periodButton(page)).toHaveText('3 Months');
  await expect.poll(() => total(page)).toBe(oneProduct);
  await expect(clearFilters(page)).toBeEnabled();

  await openPeriodMenu(page, '1 Month');
  await recounting(page, () => confirm.getByRole('button', { name: 'Yes' }).click());
  await expect(periodButton(page)).toHaveText('1 Month');
  await expect(clearFilters(page)).toBeDisabled();
  await expect(resetView(page)).toBeEnabled();

  // Sorting is a change of view too; Reset View restores Start Time ascending and 1 Day.
  await grid(page).locator('.ag-header-cell[col-id="User"] .ag-header-cell-label').click();
  await expect
    .poll(async () => {
      const users = await cells(page, 'User').allTextContents();
      return users.length > 1 && users.every((u, i) => i === 0 || users[i - 1].localeCompare(u) <= 0);
    })
    .toBe(true);
  await recounting(page, () => resetView(page).click());
  await expect(periodButton(page)).toHaveText('1 Day');
  await expect(resetView(page)).toBeDisabled();
  await total(page);
  const starts = await startTimes(page);
  expect([...starts].sort()).toEqual(starts);
});

test('Active Sessions shows running sessions only and turns off the Hours and End Time filters', async ({
  page,
}) => {
  // The demo world has a few running sessions on randomly generated accounts: find one as vendor staff.
  await signIn(page, 'busops@demo.example');
  const headers = { 'x-lp-csrf': '1' };
  const accounts = (
    await (await page.request.post('/api/getaccounts', { headers, data: { limit: 500 } })).json()
  ).data as { AccountID: string; AccountName: string }[];
  let running: { AccountID: string; AccountName: string; count: number } | undefined;
  for (const a of accounts) {
    const answer = await page.request.post('/api/fetchUsage/count', {
      headers,
      data: {
        customerNumber: a.AccountID,
        filter: { condition: 'ALL', criteria: [{ name: 'Active', method: 'EQUALS', value: true }] },
      },
    });
    const count = answer.ok() ? ((await answer.json()).data as number) : 0;
    if (count > 0) {
      running = { ...a, count };
      break;
    }
  }
  expect(running, 'the demo world has running sessions').toBeDefined();
  const account = running!;
  await pickAccount(page, account.AccountID, new RegExp(account.AccountID));
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Usage Transactions' })).toBeVisible();
  await total(page);
  if (await resetView(page).isEnabled()) await resetView(page).click();
  await choosePeriod(page, 'Max');
  const everything = await total(page);

  const filterButton = (colId: string) =>
    grid(page).locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-filter-button`);
  await expect(filterButton('Hours')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Active Sessions' }).check();
  await expect.poll(() => total(page)).toBe(account.count);
  expect(everything).toBeGreaterThan(account.count);
  expect(new Set(await cells(page, 'EndTime').allTextContents())).toEqual(new Set(['']));
  await expect(filterButton('Hours')).toHaveCount(0);
  await expect(filterButton('EndTime')).toHaveCount(0);
  await expect(filterButton('StartTime')).toBeVisible();
  await expect(resetView(page)).toBeEnabled();

  // Kept in the saved view.
  await expectSavedView(page, account.AccountID, TABLE, (v) => v?.activeOnly === true);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'Active Sessions' })).toBeChecked();
  await expect.poll(() => total(page)).toBe(account.count);
  await resetView(page).click();
  await expect(page.getByRole('checkbox', { name: 'Active Sessions' })).not.toBeChecked();
  await expect(filterButton('Hours')).toBeVisible();
});

test('exports the visible columns of every filtered row as CSV', async ({ page }) => {
  await openTransactions(page);
  await choosePeriod(page, '3 Months');
  const rows = await total(page);
  const headers = await grid(page).locator('.ag-header-cell .ag-header-cell-text').allTextContents();
  const colIds = await grid(page)
    .locator('.ag-header-cell')
    .evaluateAll((els) => els.map((e) => e.getAttribute('col-id') ?? ''));
  await expect(cells(page, 'StartTime').nth(19)).toHaveText(/\d/);
  const firstPage: string[][] = [];
  for (let i = 0; i < 20; i++) {
    const row = grid(page).locator(`[role="row"][row-index="${i}"]`);
    firstPage.push(
      await Promise.all(
        colIds.map(async (c) => (await row.locator(`[role="gridcell"][col-id="${c}"]`).textContent()) ?? ''),
      ),
    );
  }

  const [, from, to] = /^(\S+) 00:00:00 to (\S+) 23:59:59$/.exec(
    (await periodText(page).textContent()) ?? '',
  )!;
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as csv file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`ElasticLicensingUsageTransactions_1000123_${from}_${to}.csv`);
  const parsed = Papa.parse<string[]>(fs.readFileSync((await download.path())!, 'utf8'), {
    skipEmptyLines: true,
  });
  expect(parsed.errors).toEqual([]);
  expect(parsed.data[0]).toEqual(headers);
  expect(parsed.data.length - 1).toBe(rows);
  expect(parsed.data.slice(1, 21)).toEqual(firstPage);

  // Over the limit: the spec's message instead of a file; the progress text shows meanwhile.
  const release = await holdCalls(page, '**/api/fetchUsage/count', (route) =>
    route.fulfill({ json: { status: 'SUCCESS', data: 30_001 } }),
  );
  await page.getByRole('button', { name: 'Export as csv file' }).click();
  await expect(page.getByText('Exporting transactions ...')).toBeVisible();
  release();
  await expect(
    page.getByText(
      'Total number of available transactions exceeds 30000. Apply filters to reduce selection.',
    ),
  ).toBeVisible();
  await expect(page.getByText('Exporting transactions ...')).toBeHidden();
});

test('one header click asks once, with both tie-breakers; the CSV follows the on-screen sort', async ({
  page,
}) => {
  await openTransactions(page);
  await choosePeriod(page, '3 Months');
  const rows = await total(page);
  expect(rows).toBeGreaterThan(20);
  const sortings: unknown[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/fetchUsage')) sortings.push(r.postDataJSON().sorting);
  });
  const tieBreakers = [
    { name: 'StartTime', direction: 'asc' },
    { name: 'EndTime', direction: 'asc' },
  ];

  // Product descending: one click sorts ascending, the second descending; each click is one request.
  for (const direction of ['asc', 'desc']) {
    sortings.length = 0;
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/fetchUsage'));
    await grid(page).locator('.ag-header-cell[col-id="Product"] .ag-header-cell-label').click();
    await answered;
    await expect(grid(page).locator(`.ag-header-cell[col-id="Product"]`)).toHaveAttribute(
      'aria-sort',
      direction === 'asc' ? 'ascending' : 'descending',
    );
    await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
    expect(sortings).toEqual([[{ name: 'Product', direction }, ...tieBreakers]]);
  }

  sortings.length = 0;
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as csv file' }).click();
  const download = await downloading;
  expect(sortings).toEqual([[{ name: 'Product', direction: 'desc' }, ...tieBreakers]]);
  const parsed = Papa.parse<Record<string, string>>(fs.readFileSync((await download.path())!, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  });
  expect(parsed.errors).toEqual([]);
  expect(parsed.data.length).toBe(rows);
  // Product descending, then Start Time ascending within a product ('YYYY-MM-DD HH:mm:ss' sorts as text).
  const key = (r: Record<string, string>) => [r.Product, r['Start Time']] as const;
  const expected = [...parsed.data].sort((a, b) => {
    const [pa, sa] = key(a);
    const [pb, sb] = key(b);
    return pa === pb ? (sa < sb ? -1 : sa > sb ? 1 : 0) : pa < pb ? 1 : -1;
  });
  expect(parsed.data.map(key)).toEqual(expected.map(key));
  expect(new Set(parsed.data.map((r) => r.Product)).size).toBeGreaterThan(1);
});
