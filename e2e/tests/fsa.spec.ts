import fs from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import Papa from 'papaparse';
import { expect, test } from './fixtures.ts';
import {
  columnTexts,
  expectNoSeriousViolations,
  expectSavedView,
  filterColumn,
  holdCalls,
  isDefaultView,
  openAccountPage,
  pickAccount,
  signIn,
} from './helpers.ts';

/*
 * Flexible Spending Account at /entitlementsFSA (spec 002 §2 "FSA page", "FSA order history screen", §4, §7
 * "Exports", §9; decision 036): the Entitlements and History tabs. Demo world: Acme Aerospace Inc. (1000123) has
 * FSA contracts (a current one, an old one) with order lines against them. Expected values are computed here
 * from what the FSA reads answer, with the spec's formatting and colour thresholds written out independently.
 * No active contract and refused reads are component tests (web/src/features/fsa/pages/fsa-page.test.tsx).
 */

interface Contract {
  entitlementId: string;
  startDate: string;
  endDate: string | null;
  currency: string;
  budgetCents: number;
  remainingCents: number;
  usedPercentage: number;
  remainingdays: number | 'NOT STARTED' | 'EXPIRED';
  active: boolean;
}

interface HistoryRow {
  entitlementId: string;
  ansysproduct: string;
  fsaId: string;
  orderdate: string;
  count: number;
  startdate: string;
  enddate: string | null;
  cost: number;
  currency: string;
  requester: string;
}

const ACME = '1000123';
const SPINNER = 'Getting Flexible Spending Account Details...';
const PAGE_SIZE = 10;

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const table = (page: Page, title: string) =>
  page.getByRole('region', { name: `${title} table`, exact: true });
const activeGrid = (page: Page) => table(page, 'Active Entitlements');
const inactiveGrid = (page: Page) => table(page, 'Inactive Entitlements');
const historyGrid = (page: Page) => table(page, 'Order History');
const historyTab = (page: Page) => page.getByRole('tabpanel', { name: 'History' });
const summary = (grid: Locator) => grid.locator('.ag-paging-row-summary-panel');

/** Spec 002 §9: 2 decimals and thousands separators. */
const money = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Spec 002 §9: FSA used percentage thresholds 80 and 95. */
const usedColour = (p: number) => (p >= 95 ? 'red' : p >= 80 ? 'orange' : 'green');
const daysText = (d: Contract['remainingdays']) =>
  typeof d === 'number' ? `${d} ${d === 1 ? 'day' : 'days'}` : d;
const today = () => new Date().toISOString().slice(0, 10);
/** Stable, so rows with the same key keep the server's order, as the grid's sort does. */
const byDesc = <T>(list: T[], key: (t: T) => string) =>
  [...list].sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0));

async function post<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.post(path, {
    data: { customerNumber: ACME },
    headers: { 'x-lp-csrf': '1' },
  });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

const rowOf = (grid: Locator, id: string) =>
  grid.locator('.ag-row').filter({
    has: grid.page().locator('[col-id="entitlement"]', { hasText: new RegExp(`^${id}$`) }),
  });

async function openFsa(page: Page) {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/entitlementsFSA');
  await expect(page).toHaveURL(/\/entitlementsFSA(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Flexible Spending Account', level: 1 })).toBeVisible();
  await expect(page.getByTestId('selected-customer')).toHaveText(/Acme Aerospace Inc\./);
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(
    'Entitlements>Flexible Spending Account',
  );
}

async function openHistory(page: Page) {
  await page.getByRole('tab', { name: 'History' }).click();
  await expect(historyGrid(page).locator('[col-id="entitlement"][role="gridcell"]').first()).toHaveText(/\S/);
}

test('lists the active and inactive contracts with their dates, amounts and percentages', async ({
  page,
}) => {
  await signIn(page, 'admin@acme.example');
  await pickAccount(page, 'Aerospace', /Acme Aerospace Inc\./);
  const release = await holdCalls(page, '**/api/fsa/contracts');
  await page.getByRole('link', { name: 'Flexible Spending Account' }).click();
  await expect(page.getByText(SPINNER)).toBeVisible();
  // Spec 002 §2: the History tab shows once the contracts are in.
  await expect(page.getByRole('tab')).toHaveText(['Entitlements', 'Order Products']);
  release();
  await expect(page.getByText(SPINNER)).toHaveCount(0);
  await expect(page.getByRole('tab')).toHaveText(['Entitlements', 'Order Products', 'History']);
  await expect(page.getByRole('tab', { name: 'Entitlements' })).toHaveAttribute('aria-selected', 'true');

  const contracts = await post<Contract[]>(page, '/api/fsa/contracts');
  // Spec 002 §4 classification, as the server's flag says it.
  for (const c of contracts)
    expect(c.active, c.entitlementId).toBe(c.remainingdays !== 'EXPIRED' && c.usedPercentage !== 100);
  const active = contracts.filter((c) => c.active);
  const inactive = contracts.filter((c) => !c.active);
  expect(active.length).toBeGreaterThan(0);
  expect(inactive.length).toBeGreaterThan(0);
  await expect(page.getByText('Account does not have any active entitlements.')).toHaveCount(0);

  for (const [grid, list] of [
    [activeGrid(page), active],
    [inactiveGrid(page), inactive],
  ] as const) {
    await expect(summary(grid)).toContainText(`of ${list.length}`);
    // Default sort: Expiration Date descending.
    const expected = byDesc(list, (c) => c.endDate ?? '').slice(0, PAGE_SIZE);
    // The paging summary may show the count a frame before the rows: wait for the rows.
    await expect.poll(() => columnTexts(grid, 'entitlement')).toEqual(expected.map((c) => c.entitlementId));
    for (const c of expected) {
      const row = rowOf(grid, c.entitlementId);
      await expect(row.locator('[col-id="startdate"]')).toHaveText(c.startDate);
      await expect(row.locator('[col-id="enddate"]')).toHaveText(c.endDate ?? '');
      await expect(row.locator('[col-id="remainingdays"]')).toHaveText(daysText(c.remainingdays));
      await expect(row.locator('[col-id="total"]')).toHaveText(money(c.budgetCents));
      await expect(row.locator('[col-id="remaining"]')).toHaveText(money(c.remainingCents));
      await expect(row.locator('[col-id="currency"]')).toHaveText(c.currency);
      const used = row.locator('[col-id="usedpercentage"]');
      await expect(used).toHaveText(`${c.usedPercentage}%`);
      await expect(used.locator('[data-colour]')).toHaveAttribute(
        'data-colour',
        usedColour(c.usedPercentage),
      );
      await expect(
        used.getByRole('progressbar', {
          name: `Used percentage of ${c.entitlementId}: ${c.usedPercentage}%`,
        }),
      ).toHaveAttribute('aria-valuenow', String(c.usedPercentage));
    }
  }

  // The sections collapse and open again.
  await page.getByRole('button', { name: 'Inactive Entitlements', exact: true }).click();
  await expect(inactiveGrid(page)).toBeHidden();
  await page.getByRole('button', { name: 'Inactive Entitlements', exact: true }).click();
  await expect(inactiveGrid(page)).toBeVisible();
  await expectNoSeriousViolations(page);
});

test('History lists the order lines newest first, filters them and exports them as CSV', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openFsa(page);
  await openHistory(page);
  const rows = await post<HistoryRow[]>(page, '/api/fsa/history');
  expect(rows.length).toBeGreaterThan(0);
  const grid = historyGrid(page);
  const expected = byDesc(rows, (r) => r.orderdate);
  await expect(summary(grid)).toHaveText(`1 to ${Math.min(PAGE_SIZE, rows.length)} of ${rows.length}`);
  await expect
    .poll(() => columnTexts(grid, 'entitlement'))
    .toEqual(expected.slice(0, PAGE_SIZE).map((r) => `${r.ansysproduct}${r.entitlementId}`));
  // On a 1366 px screen the contract ids, dates and amounts are shown whole.
  for (const colId of ['fsaId', 'orderdate', 'startdate', 'enddate', 'cost']) {
    const clipped = await historyGrid(page)
      .locator(`.ag-row .ag-cell[col-id="${colId}"]`)
      .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).length);
    expect(clipped, colId).toBe(0);
  }
  const first = expected[0]!;
  const firstRow = grid.locator('.ag-row[row-index="0"]');
  await expect(firstRow.locator('[col-id="fsaId"]')).toHaveText(first.fsaId);
  await expect(firstRow.locator('[col-id="orderdate"]')).toHaveText(first.orderdate);
  await expect(firstRow.locator('[col-id="cost"]')).toHaveText(money(first.cost));
  await expect(firstRow.locator('[col-id="currency"]')).toHaveText(first.currency);
  await expect(firstRow.locator('[col-id="requester"]')).toHaveText(first.requester);

  // An equals filter on the entitlement id finds its one line (the column's second text).
  const last = expected.at(-1)!;
  await filterColumn(grid, 'entitlement', 'Equals', last.entitlementId);
  await expect(summary(grid)).toHaveText('1 to 1 of 1');
  await expect.poll(() => columnTexts(grid, 'fsaId')).toEqual([last.fsaId]);
  const clear = historyTab(page).getByRole('button', { name: 'Clear filters' });
  await clear.click();
  await expect(summary(grid)).toHaveText(`1 to ${Math.min(PAGE_SIZE, rows.length)} of ${rows.length}`);
  await expect(clear).toBeDisabled();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as csv' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`ANSYSOrderHistory_${today()}_${ACME}.csv`);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe(
    'Entitlement,FSA Contract,Order Date,Count,Start Date,Expiration Date,Cost,Currency,Requester',
  );
  expect(Papa.parse<string[]>(text, { skipEmptyLines: true }).data.slice(1)).toEqual(
    expected.map((r) => [
      `${r.ansysproduct} (${r.entitlementId})`,
      r.fsaId,
      r.orderdate,
      String(r.count),
      r.startdate,
      r.enddate ?? '',
      money(r.cost),
      r.currency,
      r.requester,
    ]),
  );
  await expectNoSeriousViolations(page);
});

test('saved views of the history and active grids survive a reload and reset', async ({ page }) => {
  await openFsa(page);
  await openHistory(page);
  const rows = await post<HistoryRow[]>(page, '/api/fsa/history');
  const contract = rows[0]!.fsaId;
  const lines = rows.filter((r) => r.fsaId === contract).length;
  await filterColumn(historyGrid(page), 'fsaId', 'Equals', contract);
  await expect(summary(historyGrid(page))).toContainText(`of ${lines}`);
  await expectSavedView(page, ACME, 'fsaHistory', (v) => !!v?.filterModel?.fsaId);

  await page.getByRole('tab', { name: 'Entitlements' }).click();
  await expect(activeGrid(page).locator('.ag-header-cell[col-id="currency"]')).toBeVisible();
  await section(page, 'Active Entitlements')
    .getByRole('button', { name: 'Columns of Active Entitlements' })
    .click();
  await page.getByRole('checkbox', { name: 'Currency' }).uncheck();
  await page.keyboard.press('Escape');
  await expect(activeGrid(page).locator('.ag-header-cell[col-id="currency"]')).toHaveCount(0);
  await expectSavedView(page, ACME, 'fsaActiveEntitlements', (v) => !isDefaultView(v));

  await page.reload();
  await expect(activeGrid(page).locator('[col-id="entitlement"][role="gridcell"]').first()).toHaveText(/\S/);
  await expect(activeGrid(page).locator('.ag-header-cell[col-id="currency"]')).toHaveCount(0);
  await expect(inactiveGrid(page).locator('.ag-header-cell[col-id="currency"]')).toBeVisible();
  await openHistory(page);
  await expect(summary(historyGrid(page))).toContainText(`of ${lines}`);
  await expect
    .poll(async () => new Set(await columnTexts(historyGrid(page), 'fsaId')))
    .toEqual(new Set([contract]));

  await historyTab(page).getByRole('button', { name: 'Reset view' }).click();
  await expect(summary(historyGrid(page))).toContainText(`of ${rows.length}`);
  await expectSavedView(page, ACME, 'fsaHistory', isDefaultView);
  await page.getByRole('tab', { name: 'Entitlements' }).click();
  await section(page, 'Active Entitlements').getByRole('button', { name: 'Reset view' }).click();
  await expect(activeGrid(page).locator('.ag-header-cell[col-id="currency"]')).toBeVisible();
  await expectSavedView(page, ACME, 'fsaActiveEntitlements', isDefaultView);
});
