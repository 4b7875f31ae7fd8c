import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, pickAccount, signIn } from './helpers.ts';

/*
 * Issue 12 §4 on /entitlementsFSA's Entitlements tab (decision 037): the low-balance warnings at 80 % and 95 %
 * used, the Spending panel's burn-down chart and its run-out forecast. Demo world: Acme Automotive GmbH (EUR,
 * administered by admin@acme.example) has a contract that has not started and has no orders; the test orders
 * against it through the API, so every number is known, and writes the forecast rule out itself.
 */

interface Contract {
  entitlementId: string;
  startDate: string;
  endDate: string | null;
  currency: string;
  budgetCents: number;
  usedCents: number;
  remainingCents: number;
  usedPercentage: number;
  remainingdays: number | 'NOT STARTED' | 'EXPIRED';
  active: boolean;
  dailySpend: { day: string; cents: number }[];
}

interface Product {
  partNumber: string;
  manual: boolean;
  [price: string]: unknown;
}

const WINDOW = 90;
const DURATIONS = [
  ['7', 'price7Days'],
  ['30', 'price30Days'],
  ['60', 'price60Days'],
  ['90', 'price90Days'],
  ['180', 'price180Days'],
  ['365', 'price1Year'],
] as const;

/** Spec 002 §9: 2 decimals and thousands separators. */
const money = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const today = () => new Date().toISOString().slice(0, 10);
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

async function call<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(path, { data, headers: { 'x-lp-csrf': '1' } });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

const contracts = (page: Page, customerNumber: string) =>
  call<Contract[]>(page, '/api/fsa/contracts', { customerNumber });

const entitlementsTab = (page: Page) => page.getByRole('tabpanel', { name: 'Entitlements' });
const warningOf = (page: Page, id: string) =>
  entitlementsTab(page)
    .getByTestId('fsa-low-balance')
    .filter({ hasText: `${id}:` });

/** Opens the page on Acme Automotive GmbH; answers its customer number. */
async function openFsa(page: Page) {
  await signIn(page, 'admin@acme.example');
  await pickAccount(page, 'Automotive', /Acme Automotive GmbH/);
  await page.getByRole('link', { name: 'Flexible Spending Account' }).click();
  await expect(page.getByRole('heading', { name: 'Flexible Spending Account', level: 1 })).toBeVisible();
  const selected = page.getByTestId('selected-customer');
  await expect(selected).toHaveText(/^\d+ \(Acme Automotive GmbH\)$/);
  await expect(entitlementsTab(page).getByRole('region', { name: 'Spending' })).toBeVisible();
  return (await selected.textContent())!.split(' ')[0]!;
}

/** After orders through the API: the page shows them. */
async function reload(page: Page) {
  await page.reload();
  await expect(entitlementsTab(page).getByRole('region', { name: 'Spending' })).toBeVisible();
}

test('warns at 80 % and 95 % used and charts and forecasts the spending of a contract', async ({ page }) => {
  const customerNumber = await openFsa(page);
  const contractOf = async (id: string) =>
    (await contracts(page, customerNumber)).find((c) => c.entitlementId === id)!;

  // The contract that has not started: nothing ordered yet.
  const fresh = (await contracts(page, customerNumber)).find(
    (c) => c.remainingdays === 'NOT STARTED' && c.usedCents === 0,
  );
  expect(fresh, 'a contract without orders').toBeDefined();
  const { entitlementId: id, budgetCents: budget, currency } = fresh!;
  expect(fresh!.dailySpend).toEqual([]);

  // Its cheapest standard line, so that whole counts reach each level without passing the next.
  const products = await call<Product[]>(page, '/api/fsa/products', {
    customerNumber,
    entitlementId: id,
  });
  const [cheapest] = products
    .filter((p) => !p.manual)
    .flatMap((p) =>
      DURATIONS.flatMap(([duration, key]) =>
        typeof p[key] === 'number' ? [{ partNumber: p.partNumber, duration, unit: p[key] as number }] : [],
      ),
    )
    .sort((a, b) => a.unit - b.unit);
  expect(cheapest!.unit, 'a line under 4 % of the budget').toBeLessThan(budget * 0.04);
  const { partNumber, duration, unit } = cheapest!;
  let ordered = 0;
  /** Orders lines until the used share reaches `level` %; answers the cents ordered in all. */
  async function orderUpTo(level: number) {
    const count = Math.ceil((level * budget) / (100 * unit)) - ordered / unit;
    const [result] = await call<{ status: string; err: string }[]>(page, '/api/entitlements', {
      customerNumber,
      fsaID: id,
      products: [{ ansysbpn: partNumber, ansyscount: count, startdate: fresh!.startDate, duration }],
    });
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'SUCCESS' });
    ordered += count * unit;
    return ordered;
  }

  // 80 %: an orange warning naming the contract, its used share and its remaining balance.
  await orderUpTo(80);
  let view = await contractOf(id);
  expect(view.usedPercentage).toBeGreaterThanOrEqual(80);
  expect(view.usedPercentage).toBeLessThan(95);
  await expect(warningOf(page, id)).toHaveCount(0);
  await reload(page);
  await expect(warningOf(page, id)).toHaveAttribute('data-level', '80');
  await expect(warningOf(page, id)).toContainText(
    `${id}: ${view.usedPercentage}% of the budget is used (remaining ${money(view.remainingCents)} ${currency}).`,
  );

  // 95 %: the warning turns red.
  const used = await orderUpTo(95);
  view = await contractOf(id);
  expect(view.usedPercentage).toBeGreaterThanOrEqual(95);
  expect(view.usedPercentage).toBeLessThan(100);
  expect(view.dailySpend).toEqual([{ day: today(), cents: used }]);
  await reload(page);
  await expect(warningOf(page, id)).toHaveAttribute('data-level', '95');
  await expect(warningOf(page, id)).toContainText(
    `${id}: ${view.usedPercentage}% of the budget is used (remaining ${money(view.remainingCents)} ${currency}).`,
  );

  // The Spending panel on this contract: its chart, its numbers as text and the forecast.
  const spending = entitlementsTab(page).getByRole('region', { name: 'Spending' });
  await spending.getByLabel('Contract').click();
  await page.getByRole('option', { name: id, exact: true }).click();
  await expect(spending.getByLabel('Contract')).toHaveValue(id);
  const chart = spending.getByRole('figure', { name: `Remaining balance of ${id} over time` });
  await expect(chart).toBeVisible();
  // Two series: the balance so far and the forecast from today.
  await expect(chart.locator('.recharts-area')).toHaveCount(2);
  await expect(chart.getByTestId('fsa-balance-summary')).toHaveText(
    `Budget ${money(budget)} ${currency}, used ${money(used)} ${currency} (${view.usedPercentage}%), remaining ${money(budget - used)} ${currency} on ${today()}.`,
  );
  // Decision 037: the window's spend over 90 days a day; the run-out day today + ceil(remaining × 90 / spend).
  const runOut = addDays(today(), Math.ceil(((budget - used) * WINDOW) / used));
  expect(runOut < view.endDate!).toBe(true);
  await expect(spending.getByTestId('fsa-forecast')).toHaveText(
    `At the last 90 days' rate of ${money(Math.round(used / WINDOW))} ${currency} a day, the balance runs out on ${runOut}, before the contract ends on ${view.endDate}.`,
  );
  await spending.getByText('Orders by day').click();
  const table = spending.getByRole('table', { name: `Orders by day of ${id}` });
  await expect(table.getByRole('row')).toHaveText([
    `DayOrdered (${currency})Remaining (${currency})`,
    `${today()}${money(used)}${money(budget - used)}`,
  ]);
  await expectNoSeriousViolations(page);
});
