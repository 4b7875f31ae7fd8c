import { expect, test } from './fixtures.ts';
import { accountBox, pickAccount, signIn } from './helpers.ts';

test('/noselectedcustomer asks for a customer and returns to /elastic once one is chosen', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await expect(page.getByTestId('selected-customer')).toBeVisible();
  // Hold the account info of the automatic selection back, so the page opens with no customer.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/getaccountinfo/**', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/noselectedcustomer');
  await expect(
    page.getByText('Please select a customer from the drop down menu at the top right.'),
  ).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/noselectedcustomer');
  release();
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});

test('/notypecustomer names the provider and returns once the customer is direct, channel or indirect', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Acme Marine', /Acme Marine B\.V\./);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Acme Marine/);
  await page.goto('/notypecustomer');
  await expect(
    page.getByText(
      'The selected customer needs to be either a direct or channel customer. Please contact Vendor support to correct the customer type.',
    ),
  ).toBeVisible();
  await pickAccount(page, 'Acme Research', /Acme Research Labs LLC/);
  // Acme Research Labs is export-blocked: no return to /elastic, the export notice instead.
  await expect(page).toHaveURL(/\/noaccess$/);
  await page.goto('/notypecustomer');
  await pickAccount(page, 'Contoso', /Contoso Motors AG/);
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});

test('/noaccess returns to /elastic when an account with an empty export status is chosen', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Tailspin', /Tailspin Defense Systems Corp\./);
  await expect(page).toHaveURL(/\/noaccess$/);
  await expect(
    page.getByText('Access to this customer is denied per Export Compliance restrictions.'),
  ).toBeVisible();
  // Contoso: empty export status and elastic entitlements (without them /elastic goes on to /ssl).
  await pickAccount(page, 'Contoso', /Contoso Motors AG/);
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Contoso/);
});

test('/nopermissions stays for the same customer and returns when a different one is chosen', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Northwind', /Northwind Turbines Inc\./);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Northwind/);
  await page.goto('/nopermissions');
  await expect(page.getByText('You do not have enough permissions to view this page.')).toBeVisible();
  // The page is not in the breadcrumb map: no crumbs on notice pages.
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveCount(0);
  await pickAccount(page, 'Contoso', /Contoso Motors AG/);
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});

test('refreshing the account list clears the selection until a customer is chosen again', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await expect(page.getByTestId('selected-customer')).toBeVisible();
  await page.getByRole('button', { name: 'Refresh account list' }).click();
  await expect(page).toHaveURL(/\/noselectedcustomer$/);
  await expect(
    page.getByText('Please select a customer from the drop down menu at the top right.'),
  ).toBeVisible();
  await expect(accountBox(page)).toHaveValue('');
  await pickAccount(page, 'Northwind', /Northwind Turbines Inc\./);
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Northwind/);
});
