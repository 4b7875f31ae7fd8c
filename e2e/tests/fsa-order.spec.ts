import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * FSA Order Products (spec 002 §2 "FSA order creation screen", "FSA order confirmation dialog", §4, §5, §11;
 * issue 12 §3). Demo world: Acme Aerospace Inc. (1000123, USD, about half its budget used) and Acme Automotive
 * GmbH (EUR, 97 % used). Expected amounts are computed here from the server's own price lists and balances.
 * A line the server refuses, a network error and the view-only notice are component tests
 * (web/src/features/fsa/components/order-tab.test.tsx).
 */

interface Contract {
  entitlementId: string;
  endDate: string | null;
  currency: string;
  remainingCents: number;
  active: boolean;
  lastOrderedAt: string | null;
}
interface Product {
  partNumber: string;
  name: string;
  price7Days: number | null;
  price30Days: number | null;
  price1Year: number | null;
  manual: boolean;
}
interface HistoryRow {
  entitlementId: string;
  ansysproduct: string;
  fsaId: string;
  count: number;
  cost: number;
}

const ACME = '1000123';
const csrf = { 'x-lp-csrf': '1' };
const today = () => new Date().toISOString().slice(0, 10);
const money = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(path, { data, headers: csrf });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

const contracts = (page: Page, customerNumber: string) =>
  post<Contract[]>(page, '/api/fsa/contracts', { customerNumber });
const productsOf = (page: Page, customerNumber: string, entitlementId: string) =>
  post<Product[]>(page, '/api/fsa/products', { customerNumber, entitlementId });

/** The contract the form opens on (spec 002 §4): the one ordered against last, else the first offered. */
async function defaultContract(page: Page, customerNumber: string) {
  const offered = (await contracts(page, customerNumber)).filter((c) => c.endDate && c.endDate >= today());
  const ordered = offered
    .filter((c) => c.lastOrderedAt)
    .sort((a, b) => (b.lastOrderedAt as string).localeCompare(a.lastOrderedAt as string));
  const contract = ordered[0] ?? offered[0];
  if (!contract) throw new Error(`${customerNumber} has no contract to order against`);
  return contract;
}

async function openFsa(page: Page, email: string, account: string) {
  await openAccountPage(page, email, account, '/entitlementsFSA');
  await expect(page).toHaveURL(/\/entitlementsFSA(\?|$)/);
}

const orderTab = (page: Page) => page.getByRole('tabpanel', { name: 'Order Products' });
const line = (page: Page, n: number, field: string) =>
  orderTab(page).getByRole(field === 'Count' ? 'spinbutton' : 'textbox', {
    name: `${field} of line ${n}`,
    exact: true,
  });
const combo = (page: Page, n: number, field: string) =>
  orderTab(page).getByRole('combobox', { name: `${field} of line ${n}` });

async function choose(page: Page, box: ReturnType<typeof combo>, option: string) {
  await box.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect(box).toHaveValue(option);
}

/** A standard line: product, count and duration (the start date is the earliest the form allows). */
async function addStandardLine(page: Page, n: number, product: string, count: number, duration: string) {
  await orderTab(page).getByRole('button', { name: 'Add product' }).click();
  // Business operations get a menu (standard or manual line), everyone else the line at once: wait for whichever
  // comes (checking the menu at once missed it on a loaded machine, and the line never came).
  const menuItem = page.getByRole('menuitem', { name: 'Standard product' });
  const productBox = combo(page, n, 'Product');
  await expect(menuItem.or(productBox)).toBeVisible();
  if (await menuItem.isVisible()) await menuItem.click();
  await choose(page, productBox, product);
  await line(page, n, 'Count').fill(String(count));
  await choose(page, combo(page, n, 'Duration'), duration);
}

/** A product priced for 30 days (and not a manual-entry product). */
async function productFor30Days(page: Page, customerNumber: string, contractId: string) {
  const product = (await productsOf(page, customerNumber, contractId)).find(
    (p) => !p.manual && p.price30Days !== null,
  );
  if (!product) throw new Error('no product priced for 30 days');
  return product as Product & { price30Days: number };
}

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

test('Order on a contract row opens Order Products; Order & Activate orders and lands on /activations with the lease', async ({
  page,
}) => {
  await openFsa(page, 'admin@acme.example', 'Acme Aerospace Inc.');
  const contract = await defaultContract(page, ACME);
  const product = await productFor30Days(page, ACME, contract.entitlementId);

  await page
    .getByRole('region', { name: 'Active Entitlements table', exact: true })
    .getByRole('button', { name: `Order against ${contract.entitlementId}` })
    .click();
  await expect(page.getByRole('tab', { name: 'Order Products' })).toHaveAttribute('aria-selected', 'true');
  await expect(orderTab(page).getByRole('combobox', { name: 'FSA Contract' })).toHaveValue(
    `${contract.entitlementId} (ends on ${contract.endDate})`,
  );
  const orderNow = orderTab(page).getByRole('button', { name: 'Order Now' });
  await expect(orderNow).toBeDisabled();

  await addStandardLine(page, 1, product.name, 2, '30 Days');
  const start = today();
  await expect(line(page, 1, 'Start date')).toHaveValue(start);
  // 30 days including the start day.
  await expect(orderTab(page).getByTestId('end-date-1')).toHaveText(addDays(start, 29));
  const cost = product.price30Days * 2;
  await expect(orderTab(page).getByTestId('cost-1')).toHaveText(money(cost));
  await expect(orderTab(page).getByTestId('order-total')).toHaveText(money(cost));
  await expect(orderTab(page).getByTestId('order-available')).toHaveText(
    money(contract.remainingCents - cost),
  );

  // The same line again: the duplicate rule blocks ordering until it is removed.
  await addStandardLine(page, 2, product.name, 2, '30 Days');
  await expect(orderTab(page).getByTestId('line-error-2')).toHaveText(
    'Product with same attributes already exists.',
  );
  await expect(orderNow).toBeDisabled();
  await orderTab(page).getByRole('button', { name: 'Remove line 2' }).click();
  await expect(orderNow).toBeEnabled();

  await orderNow.click();
  const dialog = page.getByRole('dialog', { name: 'Confirm FSA order' });
  await expect(dialog.getByRole('row')).toHaveCount(2);
  await expect(dialog.getByRole('row').nth(1)).toHaveText(
    [
      contract.entitlementId,
      product.name,
      '2',
      start,
      addDays(start, 29),
      money(cost),
      contract.currency,
    ].join(''),
  );
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Order & Activate' }).click();
  await expect(page).toHaveURL(/\/activations(\?|$)/);
  // /activations says the order succeeded and lists the new line until it is closed (decision 049).
  const notice = page.getByTestId('ordered-entitlements');
  await expect(notice).toContainText('Entitlements successfully created.');

  const [ordered] = (await post<HistoryRow[]>(page, '/api/fsa/history', { customerNumber: ACME })).filter(
    (r) => r.fsaId === contract.entitlementId && r.ansysproduct === product.name && r.count === 2,
  );
  expect(ordered?.cost).toBe(cost);
  await expect(notice.getByRole('table', { name: 'New entitlements' })).toContainText(
    `${product.name}${ordered?.entitlementId}2${start}${addDays(start, 29)}`,
  );
  const after = (await contracts(page, ACME)).find((c) => c.entitlementId === contract.entitlementId);
  expect(after?.remainingCents).toBe(contract.remainingCents - cost);
  // The new lease is offered on the activations page: on a host, its Available row takes a count.
  await page.getByRole('combobox', { name: 'Server', exact: true }).click();
  await page.getByRole('option', { name: /^licsrv01 / }).click();
  await expect(
    page
      .getByRole('region', { name: 'Available Entitlements table' })
      .getByRole('textbox', { name: `Activated count for ${ordered?.entitlementId}`, exact: true }),
  ).toBeVisible();
  await notice.getByRole('button', { name: 'Close' }).click();
  await expect(notice).toHaveCount(0);
});

test('business operations order a manual entry and a standard line; the balance error blocks the order', async ({
  page,
}) => {
  await openFsa(page, 'busops@demo.example', 'Acme Aerospace Inc.');
  await page.getByRole('tab', { name: 'Order Products' }).click();
  const contract = await defaultContract(page, ACME);
  const product = await productFor30Days(page, ACME, contract.entitlementId);
  await expect(orderTab(page).getByRole('combobox', { name: 'FSA Contract' })).toHaveValue(
    `${contract.entitlementId} (ends on ${contract.endDate})`,
  );

  await orderTab(page).getByRole('button', { name: 'Add product' }).click();
  await page.getByRole('menuitem', { name: 'Manual entry' }).click();
  const name = `Custom consulting ${Date.now()}`;
  await orderTab(page).getByRole('combobox', { name: 'Product of line 1' }).fill(name);
  await line(page, 1, 'Count').fill('3');
  const end = addDays(today(), 9);
  await line(page, 1, 'End date').fill(end);
  await line(page, 1, 'End date').blur();
  await line(page, 1, 'Unit cost').fill('1,234.5');
  // Spec 002 §5: cost = count × unit cost, 2 decimals and thousands separators.
  await expect(line(page, 1, 'Cost')).toHaveValue('3,703.50');
  // Issue 21: a cost that does not divide by the count is the cost ordered, to the cent (decision 050).
  await line(page, 1, 'Cost').fill('1000');
  await line(page, 1, 'Cost').blur();
  await expect(line(page, 1, 'Cost')).toHaveValue('1,000.00');
  await expect(line(page, 1, 'Unit cost')).toHaveAttribute('placeholder', '333.33');
  await expect(orderTab(page).getByTestId('order-total')).toHaveText('1,000.00');
  // A typed start date that is no day or out of range stays and says so (spec 002 §5), on the screen and the server.
  const start1 = await line(page, 1, 'Start date').inputValue();
  await line(page, 1, 'Start date').fill('2026-02-30');
  await line(page, 1, 'Start date').blur();
  await expect(line(page, 1, 'Start date')).toHaveValue('2026-02-30');
  await expect(orderTab(page).getByTestId('line-error-1')).toHaveText('Start date is invalid.');
  await line(page, 1, 'Start date').fill(addDays(contract.endDate as string, 1));
  await line(page, 1, 'Start date').blur();
  await expect(orderTab(page).getByTestId('line-error-1')).toHaveText('Start date is invalid.');
  await line(page, 1, 'Start date').fill(start1);
  await expect(orderTab(page).getByTestId('line-error-1')).toHaveCount(0);

  // A standard line whose count the balance cannot pay: the count's balance text on that line, nothing orderable.
  await addStandardLine(page, 2, product.name, 1, '30 Days');
  const tooMany = Math.ceil(contract.remainingCents / product.price30Days) + 1;
  await line(page, 2, 'Count').fill(String(tooMany));
  await expect(orderTab(page).getByTestId('line-error-2')).toHaveText(
    'You do not have sufficient balance for the selected count.',
  );
  await expect(orderTab(page).getByRole('button', { name: 'Order Now' })).toBeDisabled();
  await expect(orderTab(page).getByRole('button', { name: 'Add product' })).toBeDisabled();
  await line(page, 2, 'Count').fill('1');
  await expect(orderTab(page).getByTestId('line-error-2')).toHaveCount(0);
  // Issue 21: with 364 days (or fewer) left, 1 Year is offered and ends on the contract end (spec 002 §9).
  if (product.price1Year !== null) {
    const start2 = await line(page, 2, 'Start date').inputValue();
    const late = addDays(contract.endDate as string, -363);
    if (late > start2) {
      await line(page, 2, 'Start date').fill(late);
      await expect(orderTab(page).getByTestId('end-date-2')).toHaveText(addDays(late, 29));
    }
    await choose(page, combo(page, 2, 'Duration'), '1 Year');
    await expect(orderTab(page).getByTestId('end-date-2')).toHaveText(contract.endDate as string);
    await choose(page, combo(page, 2, 'Duration'), '30 Days');
    await line(page, 2, 'Start date').fill(start2);
    await expect(orderTab(page).getByTestId('end-date-2')).toHaveText(addDays(start2, 29));
    await expect(orderTab(page).getByTestId('line-error-2')).toHaveCount(0);
  }

  const total = 100_000 + product.price30Days;
  await expect(orderTab(page).getByTestId('order-total')).toHaveText(money(total));
  await orderTab(page).getByRole('button', { name: 'Order Now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm FSA order' });
  await expect(dialog.getByRole('row')).toHaveCount(3);
  await expect(dialog.getByRole('cell', { name: '1,000.00', exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Order', exact: true }).click();
  await expect(page.getByText('Entitlements successfully created.')).toBeVisible();
  // Full success resets the form.
  await expect(orderTab(page).getByTestId('order-total')).toHaveText('0.00');
  await expect(orderTab(page).getByRole('row')).toHaveCount(1);

  const history = await post<HistoryRow[]>(page, '/api/fsa/history', { customerNumber: ACME });
  expect(history.find((r) => r.ansysproduct === name)?.cost).toBe(100_000);
  const after = (await contracts(page, ACME)).find((c) => c.entitlementId === contract.entitlementId);
  expect(after?.remainingCents).toBe(contract.remainingCents - total);
  await expect(orderTab(page).getByTestId('order-available')).toHaveText(
    money(contract.remainingCents - total),
  );
});
