import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  columnTexts,
  expectNoSeriousViolations,
  expectSavedView,
  filterColumn,
  isDefaultView,
  openAccountPage,
} from './helpers.ts';

/*
 * Leases/Perpetuals at /ssl (spec 002 §2, §4, §5, §7, §9; decision 031). Demo world: Acme Aerospace Inc.
 * (1000123) has 45 lease and perpetual lines, one of every state (active, expiring, not started, expired,
 * evaluation, perpetual with and without current maintenance) and one of every license-model group. The expected
 * values are computed here from the records the API answers, with the spec's arithmetic written out
 * independently of the page's code. The notices an untyped customer or one without self-serve licensing gets, the
 * spinner while rows load and how perpetuals and evaluations read are component tests
 * (web/src/features/leases/pages/leases-page.test.tsx); the PERMANENT and Maintenance filters' server half is
 * leases.api.test.ts's.
 */

interface LeaseRecord {
  ActivationId: string;
  ProductName: string;
  LineItemQuantity: number;
  StartDate: string;
  EndDate: string | null;
  LicenseModel: string;
  VersionDate: string | null;
  IsActivationPermanent: 'true' | 'false';
  Type: string;
  Activated: number;
}

const ACME = '1000123';
const SPINNER = 'Getting Leases/Perpetuals Entitlements...';
const ACTIVE = 'leaseAndPerpetualsActive';
const INACTIVE = 'leaseAndPerpetualsInactive';

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const table = (page: Page, title: string) =>
  page.getByRole('region', { name: `${title} table`, exact: true });
const activeGrid = (page: Page) => table(page, 'Active Entitlements');
const inactiveGrid = (page: Page) => table(page, 'Inactive Entitlements');
// The shared saved-view grid names them 'Clear filters' / 'Reset view'; spec 002 writes 'Clear Filters' / 'Reset View'.
const clearButton = (page: Page, title: string) =>
  section(page, title).getByRole('button', { name: /^clear filters$/i });
const resetButton = (page: Page, title: string) =>
  section(page, title).getByRole('button', { name: /^reset view$/i });
const summary = (grid: Locator) => grid.locator('.ag-paging-row-summary-panel');

const today = () => new Date().toISOString().slice(0, 10);
const thousands = (n: number) => n.toLocaleString('en-US');
const sharedOrNamed = ['Shared Web', 'ConcurrentProduct', 'Named User'];

/** Independent oracle for spec 002 §4: the Remaining Days text of a record. */
function remainingText(r: LeaseRecord): string {
  const day = today();
  if (r.StartDate > day) return 'NOT STARTED';
  if (r.EndDate === null) return 'PERMANENT';
  if (r.EndDate < day) return 'EXPIRED';
  const days = Math.round((Date.parse(r.EndDate) - Date.parse(day)) / 86_400_000) + 1;
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(path, { data, headers: { 'x-lp-csrf': '1' } });
  expect(res.status(), `${path} ${JSON.stringify(data)}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

/** The table's records in the order the page asks for by default (Expiration Date ascending). */
const records = (page: Page, split: 'active' | 'inactive') =>
  post<LeaseRecord[]>(page, `/api/fetchEntitlements/${split}`, {
    customerNumber: ACME,
    type: 'SSL',
    state: 'Deployed',
    sorting: [{ name: 'EndDate', direction: 'asc' }],
    limit: 1000,
  });

/** Cells of one column in display order, once the rows are in (the infinite model shows empty rows first). */
async function shownColumn(grid: Locator, colId: string): Promise<string[]> {
  await expect(grid.page().getByText(SPINNER)).toHaveCount(0);
  return columnTexts(grid, colId);
}

/** The row (by its entitlement text, product then activation id) in a grid. */
const rowOf = (grid: Locator, r: LeaseRecord) =>
  grid.locator('.ag-row').filter({
    has: grid.page().locator('[col-id="entitlement"]', { hasText: r.ActivationId }),
  });
const cellOf = (grid: Locator, r: LeaseRecord, colId: string) =>
  rowOf(grid, r).locator(`[col-id="${colId}"]`);

const activationIdsShown = async (grid: Locator, list: LeaseRecord[]) => {
  const texts = await shownColumn(grid, 'entitlement');
  return texts.map((t) => list.find((r) => t.endsWith(r.ActivationId))?.ActivationId ?? `? ${t}`);
};

/** Headers outside the grid's viewport or with clipped text, and clipped cells (rendered rows), by column. */
const clippedColumns = (grid: Locator) =>
  grid.evaluate((root) => {
    const view = (root.querySelector('.ag-root-wrapper') as HTMLElement).getBoundingClientRect();
    const overflows = (el: Element) => el.scrollWidth > el.clientWidth + 1;
    const problems: string[] = [];
    for (const header of root.querySelectorAll('.ag-header-cell[col-id]')) {
      const colId = header.getAttribute('col-id');
      const box = header.getBoundingClientRect();
      if (box.left < view.left - 1 || box.right > view.right + 1) problems.push(`${colId}: out of view`);
      const text = header.querySelector('.ag-header-cell-text');
      if (!text || overflows(text)) problems.push(`${colId}: header clipped`);
      const cells = root.querySelectorAll(`.ag-row:not(.ag-row-loading) .ag-cell[col-id="${colId}"]`);
      // The entitlement texts end in an ellipsis by design when a product name is long.
      if (colId !== 'entitlement' && [...cells].some(overflows)) problems.push(`${colId}: cell clipped`);
    }
    return problems;
  });

async function openLeases(page: Page) {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/ssl');
  await expect(page).toHaveURL(/\/ssl(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Leases/Perpetuals', level: 1 })).toBeVisible();
  await expect(page.getByTestId('selected-customer')).toHaveText(/Acme Aerospace Inc\./);
  await expect(activeGrid(page).locator('[col-id="entitlement"][role="gridcell"]').first()).toHaveText(/\S/);
}

test('shows the active and inactive leases with their dates, states, counts and activations', async ({
  page,
}) => {
  await openLeases(page);
  const active = await records(page, 'active');
  const inactive = await records(page, 'inactive');
  expect(active.length).toBeGreaterThan(20);
  expect(inactive.length).toBeGreaterThan(0);
  // The two tables split the account's leases: their counts add up to the whole list's.
  const scope = { customerNumber: ACME, type: 'SSL', state: 'Deployed' };
  expect(await post<number>(page, '/api/fetchEntitlementsActive/count', scope)).toBe(active.length);
  expect(await post<number>(page, '/api/fetchEntitlementsInactive/count', scope)).toBe(inactive.length);
  expect(await post<number>(page, '/api/fetchEntitlements/count', scope)).toBe(
    active.length + inactive.length,
  );

  for (const header of [
    'Entitlement',
    'License Model',
    'Count',
    'Start Date',
    'Expiration Date',
    'Remaining Days',
    'Total Activated',
  ])
    await expect(activeGrid(page).getByRole('columnheader', { name: header, exact: true })).toBeVisible();

  // Server-side paging, 20 rows, by expiration ascending.
  await expect(summary(activeGrid(page))).toHaveText(`1 to 20 of ${active.length}`);
  expect(await activationIdsShown(activeGrid(page), active)).toEqual(
    active.slice(0, 20).map((r) => r.ActivationId),
  );
  await expect(summary(inactiveGrid(page))).toHaveText(
    `1 to ${Math.min(20, inactive.length)} of ${inactive.length}`,
  );
  expect(await activationIdsShown(inactiveGrid(page), inactive)).toEqual(
    inactive.slice(0, 20).map((r) => r.ActivationId),
  );

  // Every shown active row: product over activation id, dates, remaining days.
  for (const r of active.slice(0, 20)) {
    const grid = activeGrid(page);
    await expect(cellOf(grid, r, 'entitlement')).toHaveText(
      `${r.ProductName}${r.Type === 'Evaluation' ? ' (Evaluation)' : ''}${r.ActivationId}`,
    );
    await expect(cellOf(grid, r, 'licensemodel')).toHaveText(r.LicenseModel);
    await expect(cellOf(grid, r, 'count')).toHaveText(thousands(r.LineItemQuantity));
    await expect(cellOf(grid, r, 'startdate')).toHaveText(r.StartDate);
    await expect(cellOf(grid, r, 'enddate')).toHaveText(r.EndDate ?? '');
    await expect(cellOf(grid, r, 'remainingdays')).toHaveText(remainingText(r));
  }
  // The product name is bold, over the activation id.
  const first = active[0];
  await expect(cellOf(activeGrid(page), first, 'entitlement').getByText(first.ProductName)).toHaveCSS(
    'font-weight',
    '700',
  );
  // The bar is red at 30 days or fewer (the first rows end soonest: the demo has one ending within 30 days).
  expect(remainingText(first)).toMatch(/^\d+ days?$/);
  await expect(cellOf(activeGrid(page), first, 'remainingdays').locator('[data-colour]')).toHaveAttribute(
    'data-colour',
    Number.parseInt(remainingText(first), 10) <= 30 ? 'red' : 'orange',
  );

  // The inactive table: expired lines say EXPIRED, lines starting later NOT STARTED.
  for (const r of inactive.slice(0, 20))
    await expect(cellOf(inactiveGrid(page), r, 'remainingdays')).toHaveText(remainingText(r));
  expect(inactive.slice(0, 20).map(remainingText)).toContain('EXPIRED');
  expect(inactive.map(remainingText)).toContain('NOT STARTED');

  // Total Activated (decision 031): Shared Web / Named User lines show their count, the others the seats the
  // fulfillment count call answers.
  const shown = active.slice(0, 20);
  const counts = await post<Record<string, number>>(page, '/api/fulfillments/count', {
    customerNumber: ACME,
    activationId: shown.map((r) => r.ActivationId),
  });
  for (const r of shown) {
    const expected =
      sharedOrNamed.includes(r.LicenseModel) && !r.ProductName.includes('(Node)')
        ? r.LineItemQuantity
        : counts[r.ActivationId];
    expect(expected, `fulfillment count of ${r.ActivationId}`).toBeDefined();
    await expect(cellOf(activeGrid(page), r, 'activated')).toHaveText(thousands(expected));
  }

  // On a 1366 px screen every column lies in view, unclipped (decision 024).
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect.poll(() => clippedColumns(activeGrid(page))).toEqual([]);
  await expect.poll(() => clippedColumns(inactiveGrid(page))).toEqual([]);

  // Both tables collapse.
  const control = page.getByRole('button', { name: 'Inactive Entitlements' });
  await control.click();
  await expect(inactiveGrid(page)).toBeHidden();
  await control.click();
  await expect(inactiveGrid(page)).toBeVisible();

  await expectNoSeriousViolations(page);
});

test('a product filter narrows the rows, is saved per customer and cleared or reset', async ({ page }) => {
  await openLeases(page);
  const active = await records(page, 'active');
  const grid = activeGrid(page);
  const clear = clearButton(page, 'Active Entitlements');
  const reset = resetButton(page, 'Active Entitlements');
  await expect(clear).toBeDisabled();
  await expect(reset).toBeDisabled();

  // A product with fewer lines than the table: the filter leaves exactly its lines.
  const product = active
    .map((r) => r.ProductName)
    .find((name, _, all) => {
      const n = all.filter((x) => x === name).length;
      return n >= 1 && n < active.length;
    }) as string;
  const matching = active.filter((r) => r.ProductName === product);
  await filterColumn(grid, 'entitlement', 'Equals', product);
  await expect(summary(grid)).toHaveText(`1 to ${matching.length} of ${matching.length}`);
  expect(await activationIdsShown(grid, active)).toEqual(matching.map((r) => r.ActivationId));
  await expect(clear).toBeEnabled();
  await expect(reset).toBeEnabled();
  // The inactive table keeps its own view.
  await expect(clearButton(page, 'Inactive Entitlements')).toBeDisabled();

  // Saved per customer and table: it comes back after a reload.
  await expectSavedView(page, ACME, ACTIVE, (v) => v?.filterModel?.entitlement?.filter === product);
  await page.reload();
  await expect(summary(grid)).toHaveText(`1 to ${matching.length} of ${matching.length}`);
  expect(await activationIdsShown(grid, active)).toEqual(matching.map((r) => r.ActivationId));
  await expect(clear).toBeEnabled();

  // Clear Filters removes the filter and keeps the columns.
  await clear.click();
  await expect(summary(grid)).toHaveText(`1 to 20 of ${active.length}`);
  await expect(clear).toBeDisabled();
  await expect(reset).toBeDisabled();
  await expectSavedView(page, ACME, ACTIVE, isDefaultView);

  // A sort is a change of view; Reset View brings back expiration ascending and saves the empty view.
  await grid.getByRole('columnheader', { name: 'Count', exact: true }).click();
  await expect(reset).toBeEnabled();
  await expect(clear).toBeDisabled();
  const byCount = [...active].sort((a, b) => a.LineItemQuantity - b.LineItemQuantity);
  await expect
    .poll(async () => (await shownColumn(grid, 'count')).slice(0, 3))
    .toEqual(byCount.slice(0, 3).map((r) => thousands(r.LineItemQuantity)));
  await expectSavedView(page, ACME, ACTIVE, (v) => v?.sortModel?.[0]?.colId === 'count');
  await filterColumn(grid, 'licensemodel', 'Contains', 'named');
  await expect(clear).toBeEnabled();
  await reset.click();
  await expect(reset).toBeDisabled();
  await expect(summary(grid)).toHaveText(`1 to 20 of ${active.length}`);
  await expect
    .poll(() => activationIdsShown(grid, active))
    .toEqual(active.slice(0, 20).map((r) => r.ActivationId));
  await expectSavedView(page, ACME, ACTIVE, isDefaultView);
  await expectSavedView(page, ACME, INACTIVE, isDefaultView);
});

test('the spec filters: license model groups, counts, dates and remaining days', async ({ page }) => {
  await openLeases(page);
  const active = await records(page, 'active');
  const inactive = await records(page, 'inactive');
  const grid = activeGrid(page);

  // A group name finds its models (Shared Web: Shared Web and ConcurrentProduct).
  await filterColumn(grid, 'licensemodel', 'Contains', 'shared web');
  const shared = active.filter((r) => ['Shared Web', 'ConcurrentProduct'].includes(r.LicenseModel));
  expect(shared.length).toBeGreaterThan(0);
  await expect(summary(grid)).toHaveText(`1 to ${shared.length} of ${shared.length}`);
  await clearButton(page, 'Active Entitlements').click();

  // Numbers by equality on the parsed number.
  const count = active[0].LineItemQuantity;
  await filterColumn(grid, 'count', 'Contains', String(count));
  const sameCount = active.filter((r) => r.LineItemQuantity === count);
  await expect(summary(grid)).toHaveText(`1 to ${Math.min(20, sameCount.length)} of ${sameCount.length}`);
  await clearButton(page, 'Active Entitlements').click();

  // A number of remaining days means the end date today + n - 1.
  const ending = active.find((r) => r.EndDate !== null) as LeaseRecord;
  const days = remainingText(ending).split(' ')[0];
  await filterColumn(grid, 'remainingdays', 'Equals', days);
  const sameEnd = active.filter((r) => r.EndDate === ending.EndDate);
  await expect(summary(grid)).toHaveText(`1 to ${sameEnd.length} of ${sameEnd.length}`);
  expect(new Set(await shownColumn(grid, 'remainingdays'))).toEqual(new Set([remainingText(ending)]));
  await clearButton(page, 'Active Entitlements').click();

  // A start date; a text that is no date is refused with a message, not sent.
  await filterColumn(grid, 'startdate', 'Equals', active[0].StartDate);
  const sameStart = active.filter((r) => r.StartDate === active[0].StartDate);
  await expect(summary(grid)).toHaveText(`1 to ${sameStart.length} of ${sameStart.length}`);
  await filterColumn(grid, 'startdate', 'Equals', '2025-13-01');
  await expect(section(page, 'Active Entitlements').getByRole('alert')).toContainText(
    'Start Date: enter a date as YYYY-MM-DD, or its year or year and month.',
  );
  // Refused, the table shows no rows and counts 0 (issue 21: an empty row and '1 to ? of more').
  await expect(summary(grid)).toHaveText('0 to 0 of 0');
  await expect(grid.locator('.ag-row')).toHaveCount(0);
  // A month alone matches its days, and the pager counts them (decision 052).
  const month = active[0].StartDate.slice(0, 7);
  await filterColumn(grid, 'startdate', 'Contains', month);
  const inMonth = active.filter((r) => r.StartDate.startsWith(month));
  await expect(summary(grid)).toHaveText(`1 to ${Math.min(20, inMonth.length)} of ${inMonth.length}`);
  await expect(section(page, 'Active Entitlements').getByRole('alert')).toHaveCount(0);
  expect((await shownColumn(grid, 'startdate')).every((d) => d.startsWith(month))).toBe(true);
  await clearButton(page, 'Active Entitlements').click();
  await expect(section(page, 'Active Entitlements').getByRole('alert')).toHaveCount(0);

  // EXPIRED and NOT STARTED in the inactive table.
  const igrid = inactiveGrid(page);
  const expired = inactive.filter((r) => remainingText(r) === 'EXPIRED');
  const notStarted = inactive.filter((r) => remainingText(r) === 'NOT STARTED');
  await filterColumn(igrid, 'remainingdays', 'Equals', 'EXPIRED');
  await expect(summary(igrid)).toHaveText(`1 to ${Math.min(20, expired.length)} of ${expired.length}`);
  expect(new Set(await shownColumn(igrid, 'remainingdays'))).toEqual(new Set(['EXPIRED']));
  await filterColumn(igrid, 'remainingdays', 'Equals', 'not started');
  await expect(summary(igrid)).toHaveText(`1 to ${notStarted.length} of ${notStarted.length}`);
  expect(new Set(await shownColumn(igrid, 'remainingdays'))).toEqual(new Set(['NOT STARTED']));
  await resetButton(page, 'Inactive Entitlements').click();
  await expectSavedView(page, ACME, INACTIVE, isDefaultView);
});
