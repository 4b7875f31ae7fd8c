import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * Issue 12 §4 on /entitlementsFSA's Entitlements tab (decision 037): the low-balance warnings at 80 % and 95 %
 * used, the Spending panel's burn-down chart and its run-out forecast. Demo world: Northwind Turbines Inc. (USD,
 * administered by admin@northwind.example, no other FSA test uses it) has a running contract about 30 % used.
 * The test orders against it through the API up to each level, so every amount is known, and writes the
 * forecast rule out itself over the order days the server answers (the demo's and today's).
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

/** Opens the page on Northwind Turbines Inc.; answers its customer number. */
async function openFsa(page: Page) {
  await openAccountPage(page, 'admin@northwind.example', 'Northwind Turbines Inc.', '/entitlementsFSA');
  await expect(page.getByRole('heading', { name: 'Flexible Spending Account', level: 1 })).toBeVisible();
  const selected = page.getByTestId('selected-customer');
  await expect(selected).toHaveText(/^\d+ \(Northwind Turbines Inc\.\)$/);
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

  // The running contract, below the first warning level.
  const running = (await contracts(page, customerNumber)).find(
    (c) => c.active && typeof c.remainingdays === 'number' && c.usedPercentage < 80,
  );
  expect(running, 'a running contract under 80 % used').toBeDefined();
  const { entitlementId: id, budgetCents: budget, currency } = running!;
  const before = running!.usedCents;

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
  /** Orders one line whose count brings the used share up to `level` %; answers the cents ordered today. */
  async function orderUpTo(level: number) {
    const count = Math.ceil(((level * budget) / 100 - before - ordered) / unit);
    const [result] = await call<{ status: string; err: string }[]>(page, '/api/entitlements', {
      customerNumber,
      fsaID: id,
      products: [{ ansysbpn: partNumber, ansyscount: count, startdate: today(), duration }],
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
  const orderedToday = await orderUpTo(95);
  view = await contractOf(id);
  expect(view.usedPercentage).toBeGreaterThanOrEqual(95);
  expect(view.usedPercentage).toBeLessThan(100);
  expect(view.usedCents).toBe(before + orderedToday);
  // The demo's orders are all before today: today's day holds just this test's lines.
  expect(view.dailySpend.at(-1)).toEqual({ day: today(), cents: orderedToday });
  expect(view.dailySpend.reduce((sum, d) => sum + d.cents, 0)).toBe(view.usedCents);
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
  const remaining = view.remainingCents;
  await expect(chart.getByTestId('fsa-balance-summary')).toHaveText(
    `Budget ${money(budget)} ${currency}, used ${money(view.usedCents)} ${currency} (${view.usedPercentage}%), remaining ${money(remaining)} ${currency} on ${today()}.`,
  );
  // Decision 037: the spend of today and the 89 days before, over 90 days a day; the run-out day is
  // today + ceil(remaining × 90 / that spend) days.
  const from = addDays(today(), 1 - WINDOW);
  const windowSpend = view.dailySpend
    .filter((d) => d.day >= from && d.day <= today())
    .reduce((sum, d) => sum + d.cents, 0);
  const runOut = addDays(today(), Math.ceil((remaining * WINDOW) / windowSpend));
  const rate = `At the last 90 days' rate of ${money(Math.round(windowSpend / WINDOW))} ${currency} a day`;
  await expect(spending.getByTestId('fsa-forecast')).toHaveText(
    runOut < view.endDate!
      ? `${rate}, the balance runs out on ${runOut}, before the contract ends on ${view.endDate}.`
      : `${rate}, the balance lasts past the contract end on ${view.endDate}.`,
  );
  await spending.getByText('Orders by day').click();
  let left = budget;
  await expect(spending.getByRole('table', { name: `Orders by day of ${id}` }).getByRole('row')).toHaveText([
    `DayOrdered (${currency})Remaining (${currency})`,
    ...view.dailySpend.map((d) => {
      left -= d.cents;
      return `${d.day}${money(d.cents)}${money(left)}`;
    }),
  ]);
  await expectNoSeriousViolations(page);
});
