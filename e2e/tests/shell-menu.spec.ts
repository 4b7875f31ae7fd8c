import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { pickAccount, signIn } from './helpers.ts';

/*
 * The menu's journeys in a browser: its groups following the account's flags and its real widths. The footer, the
 * crumbs, the help and user menus and a customer user's groups are component tests (web/src/app/shell-menu.test.tsx,
 * web/src/features/user/components/user-menu.test.tsx).
 */

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

test('menu groups and entries follow the elastic, FSA, activation and web flags of the customer', async ({
  page,
}) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Acme Aerospace', /Acme Aerospace Inc\./);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Acme Aerospace Inc\./);
  // Every group is expanded by default.
  for (const group of ['Entitlements', 'Activations', 'Web', 'Elastic Reporting', 'Settings', 'Messages']) {
    await expect(menu(page).getByRole('button', { name: group, exact: true })).toBeVisible();
  }
  for (const entry of [
    'Leases/Perpetuals',
    'Elastic Licensing',
    'Flexible Spending Account',
    'Activate Entitlements',
    'Manage Activations',
    'Assignments',
    'Usage Transactions',
    'Elastic Statements',
    'Licensing Portal Access',
    'Elastic Credentials',
    'Elastic IP Settings',
    'Emails',
    'Alerts',
    'Manage Alerts',
  ]) {
    await expect(menu(page).getByRole('link', { name: entry, exact: true })).toBeVisible();
  }

  // A customer without elastic (and without FSA) loses those entries but keeps the rest.
  await pickAccount(page, 'Acme Energy', /Acme Energy Systems Ltd\./);
  // Without elastic entitlements the elastic page hands over to /ssl (spec 001 §2.1).
  await expect(page).toHaveURL(/\/ssl(\?|$)/);
  for (const gone of [
    'Elastic Statements',
    'Elastic Credentials',
    'Elastic IP Settings',
    'Flexible Spending Account',
  ]) {
    await expect(menu(page).getByRole('link', { name: gone, exact: true })).toHaveCount(0);
  }
  for (const kept of [
    'Usage Transactions',
    'Licensing Portal Access',
    'Assignments',
    'Activate Entitlements',
  ]) {
    await expect(menu(page).getByRole('link', { name: kept, exact: true })).toBeVisible();
  }
});

test('the menu collapses to 40 px and expands to 240 px; groups fold', async ({ page }) => {
  await signIn(page, 'busops@demo.example');
  const nav = page.getByTestId('left-menu');
  await expect(menu(page).getByRole('link', { name: 'Emails' })).toBeVisible();
  expect((await nav.boundingBox())?.width).toBeCloseTo(240, 0);
  await page.getByRole('button', { name: 'Collapse menu' }).click();
  await expect(menu(page)).toHaveCount(0);
  await expect.poll(async () => (await nav.boundingBox())?.width).toBeCloseTo(40, 0);
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(menu(page).getByRole('link', { name: 'Emails' })).toBeVisible();
  await expect.poll(async () => (await nav.boundingBox())?.width).toBeCloseTo(240, 0);
  // A group folds on its header and opens again.
  await menu(page).getByRole('button', { name: 'Messages', exact: true }).click();
  await expect(menu(page).getByRole('link', { name: 'Emails' })).toBeHidden();
  await menu(page).getByRole('button', { name: 'Messages', exact: true }).click();
  await expect(menu(page).getByRole('link', { name: 'Emails' })).toBeVisible();
});
