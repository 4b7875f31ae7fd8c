import { expect, test } from './fixtures.ts';
import { accountBox, pickAccount, signIn } from './helpers.ts';

/*
 * The notice pages' journey in a browser: the account list's refresh clears the selection until a customer is
 * chosen again. Each notice page's return rule is a component test (web/src/app/router.test.tsx).
 */

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
