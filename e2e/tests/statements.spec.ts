import type { Locator, Page } from '@playwright/test';
import { PDFParse } from 'pdf-parse';
import { expect, test } from './fixtures.ts';
import { accountBox, expectNoSeriousViolations, filterColumn, signIn } from './helpers.ts';

/*
 * Summary statement (spec 001 §2.2, §4, §8). Demo world: Acme Aerospace Inc. (1000123) has 13 months of elastic
 * usage over two back-to-back entitlements; admin@acme.example is its admin. Expected numbers are read from
 * POST /api/statements (the API tests check those against usage recorded through the ledger); here we check
 * that the page shows them, that the range controls ask for the right period, and the PDF. The PDF export's
 * failures and an account without entitlements are component tests
 * (web/src/features/statements/pages/statement-page.test.tsx).
 */

const ACME = '1000123';
const TABLE = 'elasticTransaction';

interface StatementRecord {
  PONumber: string;
  ActivationId: string;
  BalanceBeforeStart: number;
  BalanceAtEnd: number;
  Used: number;
  Products: { product: string; total: number; currency: string }[];
}
interface Statement {
  Customer: {
    ReportDate: string;
    AccountId: string;
    AccountName: string;
    PeriodStart: string;
    PeriodEnd: string;
  };
  Records: StatementRecord[];
  Products: { product: string; total: number; currency: string }[];
}

const poGrid = (page: Page) => page.getByRole('region', { name: 'Usage by Purchase Order' });
const header = (page: Page) => page.getByRole('region', { name: 'Statement header' });
const rangeButton = (page: Page) => page.getByRole('button', { name: /^Date range:/ });
/** Amounts: thousands separators and always two decimals (decision 024). */
const amount = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const iso = (d: Date) => d.toISOString().slice(0, 10);

/** Independent oracle for the preset periods (UTC, weeks from Sunday). */
function lastMonth(now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: iso(from), to: iso(to) };
}
function thisMonth(now = new Date()) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { from: iso(from), to: iso(to) };
}

async function statement(page: Page, period: { from: string; to: string }): Promise<Statement> {
  const res = await page.request.post('/api/statements', {
    data: { ...period, customerNumber: ACME, customerName: '' },
    headers: { 'x-lp-csrf': '1' },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

/** The statement's saved view of Acme: none (reset), or the given range. */
async function saveView(page: Page, range?: { from: string; to: string }) {
  const pref = range ? { startDate: range.from, endDate: range.to } : {};
  const res = await page.request.post('/api/featureflag/pref', {
    data: { tables: [{ customerNumber: ACME, tableName: TABLE, ...pref }] },
    headers: { 'x-lp-csrf': '1' },
  });
  expect(res.status()).toBe(200);
}

/**
 * Signs in as Acme's admin, saves the statement's view (reset, or `range`) and opens the statement through the
 * account's shared link: one page load. Not openAccountPage, because the view must be saved before the page reads it.
 */
async function openStatement(page: Page, range?: { from: string; to: string }) {
  await signIn(page, 'admin@acme.example', async () => {
    await saveView(page, range);
    return `/statementv2?account=${ACME}`;
  });
  await expect(accountBox(page)).toHaveValue(`${ACME} (Acme Aerospace Inc.)`);
  await expect(page.getByRole('heading', { name: 'Elastic Statements' })).toBeVisible();
}

/** Waits until the page shows the statement of `period`, then checks header and rows against the API. */
async function expectStatementShown(page: Page, period: { from: string; to: string }) {
  await expect(header(page)).toContainText(`Period Start Date${period.from}`);
  await expect(header(page)).toContainText(`Period End Date${period.to}`);
  const data = await statement(page, period);
  await expect(poGrid(page).locator('.ag-row:not(.ag-full-width-row)')).toHaveCount(data.Records.length);
  for (const r of data.Records) {
    const row = poGrid(page).locator(`.ag-row[row-id="po:${r.ActivationId}"]`);
    await expect(row.locator('[col-id="ActivationId"]')).toHaveText(r.ActivationId);
    await expect(row.locator('[col-id="BalanceBeforeStart"]')).toHaveText(amount(r.BalanceBeforeStart));
    await expect(row.locator('[col-id="BalanceAtEnd"]')).toHaveText(amount(r.BalanceAtEnd));
    await expect(row.locator('[col-id="Used"]')).toHaveText(amount(r.Used));
  }
  return data;
}

/**
 * Every row of the grid is rendered (row ids, as a row may have an element per column container) and lies inside
 * the grid, none scrolled away or cut off: the printed layout.
 */
async function expectWholeGrid(grid: Locator, rows: number) {
  const layout = () =>
    grid.evaluate((section) => {
      const bottom = section.getBoundingClientRect().bottom;
      const all = [...section.querySelectorAll('.ag-row[row-id]')];
      return {
        rows: new Set(all.map((r) => r.getAttribute('row-id'))).size,
        cut: all.filter((r) => r.getBoundingClientRect().bottom > bottom + 1).length,
      };
    });
  await expect.poll(layout).toEqual({ rows, cut: 0 });
}

test('shows last month by default with balances, product usage and pies', async ({ page }) => {
  await openStatement(page);
  await expect(rangeButton(page)).toHaveText('Last month');
  await expect(header(page)).toContainText(`Account${ACME} (Acme Aerospace Inc.)`);
  await expect(header(page)).toContainText(`Report Date${iso(new Date())}`);
  const data = await expectStatementShown(page, lastMonth());
  expect(data.Records.length).toBeGreaterThan(0);
  expect(data.Products.length).toBeGreaterThan(0);

  // Usage by Product: one row per product with thousands separators, and the pie legend.
  const products = page.getByRole('region', { name: 'Usage by Product table' });
  await expect(page.getByRole('heading', { name: 'Usage by Product' })).toBeVisible();
  const top = data.Products[0];
  await expect(products.getByRole('gridcell', { name: top.product, exact: true })).toBeVisible();
  await expect(
    products.getByRole('gridcell', { name: amount(top.total), exact: true }).first(),
  ).toBeVisible();
  const pie = page.getByRole('figure', { name: 'Period Used by Product', exact: true });
  await expect(pie).toContainText(`${top.product}: ${amount(top.total)}`);

  // Buttons at the default view.
  await expect(page.getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reset view' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Export as PDF' })).toBeEnabled();
  await expectNoSeriousViolations(page);
});

test('prints the statement alone and whole: every row, no shell or controls', async ({ page }) => {
  // Issue 21: a long statement printed 10 of its rows and the menu. Thirteen months give more products than a
  // page of the product grid, and expanded purchase orders run past the grid's screen height.
  const now = new Date();
  const range = {
    from: iso(new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth() - 1, 1))),
    to: iso(now),
  };
  await openStatement(page, range);
  const data = await expectStatementShown(page, range);
  expect(data.Products.length).toBeGreaterThan(10);
  for (const r of data.Records)
    await poGrid(page).locator(`.ag-row[row-id="po:${r.ActivationId}"]`).getByRole('button').first().click();

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByTestId('left-menu')).toBeHidden();
  await expect(rangeButton(page)).toBeHidden();
  await expect(page.getByRole('button', { name: 'Export as PDF' })).toBeHidden();
  await expect(header(page)).toBeVisible();
  await expectWholeGrid(poGrid(page), data.Records.length * 2);
  await expectWholeGrid(page.getByRole('region', { name: 'Usage by Product table' }), data.Products.length);
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByRole('banner')).toBeVisible();
});

test('expands a purchase order into its products and pie, and collapses it again', async ({ page }) => {
  await openStatement(page);
  const data = await expectStatementShown(page, lastMonth());
  const record = data.Records.find((r) => r.Products.length > 0);
  expect(record, 'a purchase order with usage last month').toBeDefined();
  if (!record) return;
  const name = record.PONumber || record.ActivationId;
  const toggle = poGrid(page).getByRole('button', { name: `Show product usage of ${name}` });
  await toggle.click();
  const detail = poGrid(page).getByRole('table', { name: `Product usage of ${name}` });
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('row')).toHaveCount(record.Products.length + 1);
  const first = record.Products[0];
  await expect(detail.getByRole('row').nth(1)).toContainText(first.product);
  await expect(detail.getByRole('row').nth(1)).toContainText(amount(first.total));
  await expect(poGrid(page).getByRole('figure', { name: `Period Used by Product (${name})` })).toContainText(
    first.product,
  );
  await expectNoSeriousViolations(page);

  // A sort keeps the detail right under its purchase order.
  await poGrid(page).locator('.ag-header-cell[col-id="Used"] .ag-header-cell-label').click();
  const order = await poGrid(page)
    .locator('.ag-row')
    .evaluateAll((rows) =>
      rows
        .map((r) => ({ id: r.getAttribute('row-id') ?? '', index: Number(r.getAttribute('row-index')) }))
        .sort((a, b) => a.index - b.index)
        .map((r) => r.id),
    );
  expect(order[order.indexOf(`po:${record.ActivationId}`) + 1]).toBe(`po:${record.ActivationId}:detail`);

  await poGrid(page)
    .getByRole('button', { name: `Hide product usage of ${name}` })
    .click();
  await expect(detail).toHaveCount(0);
});

test('changes the preset and a custom range, keeps it in the saved view and resets to Last month', async ({
  page,
}) => {
  await openStatement(page);
  await expectStatementShown(page, lastMonth());

  await rangeButton(page).click();
  await page.getByRole('menuitem', { name: 'This month' }).click();
  await expect(rangeButton(page)).toHaveText('This month');
  await expectStatementShown(page, thisMonth());
  await expect(page.getByRole('button', { name: 'Reset view' })).toBeEnabled();

  // Custom: the first click sets from, an earlier day restarts, a later day sets to; Okay needs both.
  const lm = lastMonth();
  await rangeButton(page).click();
  await page.getByRole('menuitem', { name: 'Custom' }).click();
  const dialog = page.getByRole('dialog', { name: 'Custom date range' });
  const okay = dialog.getByRole('button', { name: 'Okay' });
  await expect(okay).toBeDisabled();
  const day = (d: string) =>
    dialog.getByRole('button', {
      name: new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
      exact: true,
    });
  await day(`${lm.from.slice(0, 8)}10`).click();
  await expect(okay).toBeDisabled();
  await day(`${lm.from.slice(0, 8)}05`).click(); // earlier: restarts at the 5th
  await expect(dialog).toContainText(`From ${lm.from.slice(0, 8)}05`);
  await expect(okay).toBeDisabled();
  await day(`${lm.from.slice(0, 8)}20`).click();
  await expect(dialog).toContainText(`From ${lm.from.slice(0, 8)}05 to ${lm.from.slice(0, 8)}20`);
  await okay.click();
  const custom = { from: `${lm.from.slice(0, 8)}05`, to: `${lm.from.slice(0, 8)}20` };
  await expect(rangeButton(page)).toHaveText(`${custom.from} – ${custom.to}`);
  await expectStatementShown(page, custom);

  // Saved with the view: a reload comes back to the custom range.
  await expect
    .poll(async () => {
      const res = await page.request.get('/api/featureflag/pref');
      const prefs: { customerNumber: string; tableName: string; startDate?: string }[] = (await res.json())
        .data;
      return prefs.find((p) => p.customerNumber === ACME && p.tableName === TABLE)?.startDate;
    })
    .toBe(custom.from);
  await page.reload();
  await expect(rangeButton(page)).toHaveText(`${custom.from} – ${custom.to}`);
  await expectStatementShown(page, custom);

  // Cancel leaves the range alone.
  await rangeButton(page).click();
  await page.getByRole('menuitem', { name: 'Custom' }).click();
  await page
    .getByRole('dialog', { name: 'Custom date range' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(rangeButton(page)).toHaveText(`${custom.from} – ${custom.to}`);

  await page.getByRole('button', { name: 'Reset view' }).click();
  await expect(rangeButton(page)).toHaveText('Last month');
  await expectStatementShown(page, lastMonth());
  await expect(page.getByRole('button', { name: 'Reset view' })).toBeDisabled();
});

test('exports the statement as a PDF named after customer and period', async ({ page }) => {
  await openStatement(page);
  const period = lastMonth();
  const data = await expectStatementShown(page, period);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export as PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(
    `ElasticLicensingSummaryStatement ${ACME} ${period.from} ${period.to}.pdf`,
  );
  const file = await download.path();
  const { readFile } = await import('node:fs/promises');
  const parser = new PDFParse({ data: new Uint8Array(await readFile(file)) });
  const text = (await parser.getText()).text;
  await parser.destroy();
  expect(text).toContain(`Account: ${ACME} (Acme Aerospace Inc.)`);
  expect(text).toContain(`Period Start Date: ${period.from}`);
  expect(text).toContain('Usage by Purchase Order');
  for (const r of data.Records) expect(text).toContain(r.ActivationId);
  for (const p of data.Products.filter((p) => p.total > 0)) expect(text).toContain(p.product);
});

test('filters the purchase orders; Clear filters brings them back', async ({ page }) => {
  await openStatement(page);
  const data = await expectStatementShown(page, lastMonth());
  const filterEntitlement = (text: string) => filterColumn(poGrid(page), 'ActivationId', 'Contains', text);
  const clear = page.getByRole('button', { name: 'Clear filters' });
  await filterEntitlement(data.Records[0].ActivationId);
  await expect(clear).toBeEnabled();
  await expect(poGrid(page).locator(`.ag-row[row-id="po:${data.Records[0].ActivationId}"]`)).toBeVisible();
  await clear.click();
  await filterEntitlement('no-such-entitlement');
  await expect(poGrid(page).locator('.ag-row')).toHaveCount(0);
  // Decision 023: a filter is something to reset, so Reset view is enabled with it.
  await expect(page.getByRole('button', { name: 'Reset view' })).toBeEnabled();
  await clear.click();
  await expect(poGrid(page).locator('.ag-row')).toHaveCount(data.Records.length);
  await expect(clear).toBeDisabled();
});
