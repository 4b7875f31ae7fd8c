import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectNoSeriousViolations,
  expectSavedView,
  filterColumn,
  isDefaultView,
  openAccountPage,
  refuseCalls,
} from './helpers.ts';

/*
 * Elastic entitlements (spec 001 §2.1, §4, §5, §8). Demo world: Acme Aerospace Inc. (1000123) has a current
 * elastic entitlement, an expired one and one that starts after the current one ends. The expected values are
 * computed here from the records the API answers, with the spec's arithmetic written out independently of the
 * page's code. An account without elastic entitlements, the viewer's tables and the viewer's statement e-mail, and
 * a reset made while an earlier save is on its way are component tests
 * (web/src/features/entitlements/pages/entitlements-page.test.tsx).
 */

interface ElasticRecord {
  ActivationId: string;
  LicenseModel: string;
  EntitlementState: string;
  StartDate: string;
  EndDate: string;
  Currency: string;
  Used: number;
  LineItemQuantity: number;
  PONumber: string;
  CustomAttributes: { Product: string; Count: number; RateTableVersion: string };
}

const ACME = '1000123';
const table = (page: Page, title: string) =>
  page.getByRole('region', { name: `${title} table`, exact: true });
const row = (grid: Locator, activationId: string) => grid.locator(`.ag-row[row-id="${activationId}"]`);
const cell = (grid: Locator, activationId: string, colId: string) =>
  row(grid, activationId).locator(`[col-id="${colId}"]`);
/** Row ids in display order (the grid reuses row elements, so DOM order is not display order). */
const activationIds = async (grid: Locator) =>
  grid.locator('.ag-row[row-id]').evaluateAll((rows) => {
    const byIndex = new Map<number, string>();
    for (const r of rows) byIndex.set(Number(r.getAttribute('row-index')), r.getAttribute('row-id') ?? '');
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  });
const rowCount = async (grid: Locator) => (await activationIds(grid)).length;

const today = () => new Date().toISOString().slice(0, 10);
const thousands = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
/** Amounts: thousands separators and always two decimals (decision 024). */
const amount = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function records(page: Page, customerNumber: string): Promise<ElasticRecord[]> {
  const res = await page.request.post('/api/getEntitlements', {
    data: { customerNumber, customername: '' },
    headers: { 'x-lp-csrf': '1' },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** Independent oracle for spec 001 §4 (used %, remaining, state). */
function expected(r: ElasticRecord) {
  const total = r.LineItemQuantity;
  let pct = total === 0 ? 0 : Math.round((r.Used / total) * 100);
  if (total > 0 && pct === 0 && r.Used > 0) pct = 1;
  if (total > 0 && pct >= 100 && r.Used < total) pct = 99;
  pct = Math.min(100, Math.max(0, pct));
  const remaining = Math.min(total, Math.max(0, Math.round((total - r.Used) * 10) / 10));
  const day = today();
  const state =
    r.StartDate > day ? 'NOT STARTED' : r.EndDate < day ? 'EXPIRED' : pct === 100 ? 'USED' : 'ACTIVE';
  const days = Math.round((Date.parse(r.EndDate) - Date.parse(day)) / 86_400_000) + 1;
  return { pct, remaining, state, days };
}

async function openAcme(page: Page, email = 'admin@acme.example') {
  await openAccountPage(page, email, 'Acme Aerospace Inc.', '/elastic');
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Acme Aerospace Inc\./);
  await expect(table(page, 'Active Entitlements').locator('.ag-row').first()).toBeVisible();
}

test('shows the active and inactive elastic entitlements with their real balances', async ({ page }) => {
  await openAcme(page);
  const list = (await records(page, ACME)).filter(
    (r) => r.LicenseModel === 'Elastic-AEU' && r.EntitlementState === 'Deployed',
  );
  const byEndDesc = (a: ElasticRecord, b: ElasticRecord) => b.EndDate.localeCompare(a.EndDate);
  const active = list.filter((r) => expected(r).state === 'ACTIVE').sort(byEndDesc);
  const inactive = list.filter((r) => expected(r).state !== 'ACTIVE').sort(byEndDesc);
  expect(active.length).toBeGreaterThan(0);
  expect(inactive.map((r) => expected(r).state).sort()).toEqual(['EXPIRED', 'NOT STARTED']);

  const activeGrid = table(page, 'Active Entitlements');
  const inactiveGrid = table(page, 'Inactive Entitlements');
  await expect(page.getByRole('heading', { name: 'Active Entitlements', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Inactive Entitlements', exact: true })).toBeVisible();
  for (const header of [
    'Entitlement',
    'Count',
    'Start Date',
    'Expiration Date',
    'Remaining Days',
    'Total',
    'Remaining',
    'Currency',
    'Used Percentage',
    'Rate Table',
  ])
    await expect(activeGrid.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  // Sorted by end date, latest first.
  expect(await activationIds(activeGrid)).toEqual(active.map((r) => r.ActivationId));
  expect(await activationIds(inactiveGrid)).toEqual(inactive.map((r) => r.ActivationId));

  const cur = active[0];
  const e = expected(cur);
  expect(cur.Used).toBeGreaterThan(0);
  await expect(cell(activeGrid, cur.ActivationId, 'entitlement')).toHaveText(
    `${cur.CustomAttributes.Product}${cur.ActivationId}`,
  );
  await expect(cell(activeGrid, cur.ActivationId, 'count')).toHaveText(thousands(cur.CustomAttributes.Count));
  await expect(cell(activeGrid, cur.ActivationId, 'total')).toHaveText(amount(cur.LineItemQuantity));
  expect(cur.LineItemQuantity).toBeGreaterThanOrEqual(1000);
  await expect(cell(activeGrid, cur.ActivationId, 'total')).toContainText(',');
  await expect(cell(activeGrid, cur.ActivationId, 'remaining')).toHaveText(amount(e.remaining));
  await expect(cell(activeGrid, cur.ActivationId, 'startDate')).toHaveText(cur.StartDate);
  await expect(cell(activeGrid, cur.ActivationId, 'endDate')).toHaveText(cur.EndDate);
  await expect(cell(activeGrid, cur.ActivationId, 'currency')).toHaveText(cur.Currency);
  await expect(cell(activeGrid, cur.ActivationId, 'remainingDays')).toHaveText(`${e.days} days`);
  await expect(cell(activeGrid, cur.ActivationId, 'usedPercentage')).toHaveText(`${e.pct}%`);
  const usedBar = cell(activeGrid, cur.ActivationId, 'usedPercentage').getByRole('progressbar');
  await expect(usedBar).toHaveAttribute('aria-valuenow', String(e.pct));
  await expect(usedBar.locator('xpath=..')).toHaveAttribute(
    'data-colour',
    e.pct >= 95 ? 'red' : e.pct >= 80 ? 'orange' : 'green',
  );
  const daysBar = cell(activeGrid, cur.ActivationId, 'remainingDays').locator('[data-colour]');
  await expect(daysBar).toHaveAttribute(
    'data-colour',
    e.days <= 30 ? 'red' : e.days <= 90 ? 'orange' : 'green',
  );
  const rate = cell(activeGrid, cur.ActivationId, 'rateTable').getByRole('link');
  await expect(rate).toHaveText(cur.CustomAttributes.RateTableVersion.split('.')[0]);
  const config = await (await page.request.get('/api/config')).json();
  await expect(rate).toHaveAttribute('href', config.elasticTermsUrl);

  for (const r of inactive) {
    await expect(cell(inactiveGrid, r.ActivationId, 'remainingDays')).toHaveText(expected(r).state);
  }

  // Both tables collapse.
  await page.getByRole('button', { name: 'Inactive Entitlements' }).click();
  await expect(inactiveGrid).toBeHidden();
  await page.getByRole('button', { name: 'Inactive Entitlements' }).click();
  await expect(inactiveGrid).toBeVisible();

  await expectNoSeriousViolations(page);
});

test('filters, clears and resets each table and keeps its saved view', async ({ page }) => {
  await openAcme(page);
  const grid = table(page, 'Inactive Entitlements');
  const section = page.getByRole('region', { name: 'Inactive Entitlements', exact: true });
  const clear = section.getByRole('button', { name: 'Clear filters' });
  const reset = section.getByRole('button', { name: 'Reset view' });
  await expect.poll(() => rowCount(grid)).toBe(2);
  const all = await activationIds(grid);
  await expect(clear).toBeDisabled();
  await expect(reset).toBeDisabled();

  // One condition, on the shown label: only the expired entitlement is left.
  await filterColumn(grid, 'remainingDays', 'Equals', 'expired');
  await expect.poll(() => rowCount(grid)).toBe(1);
  await expect(grid.locator('[col-id="remainingDays"][role="gridcell"]')).toHaveText(['EXPIRED']);
  await expect(clear).toBeEnabled();
  // Decision 023: a filter is something to reset, so Reset view is enabled too.
  await expect(reset).toBeEnabled();
  // The active table keeps its own view.
  await expect(
    page
      .getByRole('region', { name: 'Active Entitlements', exact: true })
      .getByRole('button', { name: 'Clear filters' }),
  ).toBeDisabled();

  // Saved per customer and table: it comes back after a reload.
  await expectSavedView(
    page,
    ACME,
    'inActiveEntitlements',
    (v) => v?.filterModel?.remainingDays !== undefined,
  );
  await page.reload();
  await expect.poll(() => rowCount(grid)).toBe(1);
  await expect(clear).toBeEnabled();
  await clear.click();
  await expect.poll(() => rowCount(grid)).toBe(2);
  await expect(clear).toBeDisabled();

  // Contains matches the number as stored: without the thousands separators and the display's .00.
  const id = all[0];
  const total = (await cell(grid, id, 'total').textContent()) ?? '';
  await filterColumn(grid, 'total', 'Contains', total.replaceAll(',', '').replace(/\.00$/, ''));
  await expect.poll(() => activationIds(grid)).toContain(id);
  for (const shown of await activationIds(grid)) await expect(cell(grid, shown, 'total')).toHaveText(total);
  await clear.click();

  // Sorting changes the view: Reset view brings back the end-date order and is then disabled again.
  await grid.locator('.ag-header-cell[col-id="endDate"] .ag-header-cell-label').click();
  await expect.poll(() => activationIds(grid)).toEqual([...all].reverse());
  await expect(reset).toBeEnabled();
  await expectSavedView(page, ACME, 'inActiveEntitlements', (v) => v?.sortModel?.[0]?.colId === 'endDate');
  await page.reload();
  await expect.poll(() => activationIds(grid)).toEqual([...all].reverse());
  await expect(reset).toBeEnabled();
  await reset.click();
  await expect.poll(() => activationIds(grid)).toEqual(all);
  await expect(reset).toBeDisabled();
  await expectSavedView(page, ACME, 'inActiveEntitlements', isDefaultView);
  await page.reload();
  await expect.poll(() => activationIds(grid)).toEqual(all);
});

test('sends a weekly statement e-mail after a confirmation naming the server and the entitlement', async ({
  page,
}) => {
  await openAcme(page);
  const device = await (
    await page.request.post('/api/devices/elastic', {
      data: { customerNumber: ACME, customerName: 'Acme Aerospace Inc.' },
      headers: { 'x-lp-csrf': '1' },
    })
  ).json();
  const server: string = device.data.deviceId;
  const grid = table(page, 'Active Entitlements');
  const [id] = await activationIds(grid);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (/\/api\/email(week|month)$/.test(r.url())) sent.push(r.postData() ?? '');
  });

  // Answering No sends nothing.
  await grid.getByRole('button', { name: `Statement e-mails for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Send monthly statement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm' });
  await expect(dialog).toContainText(
    'Are you sure you want to send a Monthly Statement email for this entitlement?',
  );
  await dialog.getByRole('button', { name: 'No' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('success-panel')).toHaveCount(0);
  expect(sent).toEqual([]);

  await grid.getByRole('button', { name: `Statement e-mails for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Send weekly statement' }).click();
  await expect(dialog).toContainText(
    'Are you sure you want to send a Weekly Statement email for this entitlement?',
  );
  await expect(dialog).toContainText(server);
  await expect(dialog).toContainText(id);
  const box = await dialog.boundingBox();
  expect(Math.round(box?.width ?? 0)).toBe(350);
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByTestId('success-panel')).toContainText('Email has been sent.');
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0])).toMatchObject({
    customerid: ACME,
    customername: 'Acme Aerospace Inc.',
    server,
    activationid: id,
    date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
  });

  // A refused request says so, followed by the server's text.
  await refuseCalls(page, '**/api/emailmonth', 404, 'No such entitlement', 'NOT_FOUND');
  await grid.getByRole('button', { name: `Statement e-mails for ${id}` }).click();
  await page.getByRole('menuitem', { name: 'Send monthly statement' }).click();
  await dialog.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByTestId('error-panel')).toHaveText(/Email has not been sent\. No such entitlement/);

  // The statement is recorded in the account's e-mails.
  await page.goto('/emails');
  await expect(
    page.getByRole('region', { name: 'Emails' }).getByText(`Weekly Statement ${id}`).first(),
  ).toBeVisible();
});
