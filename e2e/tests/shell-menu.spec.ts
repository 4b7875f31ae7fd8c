import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openUserMenu, pickAccount, signIn } from './helpers.ts';

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

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

test('a customer user without web licenses or staff role sees no Web or staff group', async ({ page }) => {
  await signIn(page, 'admin@northwind.example');
  await expect(page.getByTestId('selected-customer')).toHaveText(/Northwind/);
  await expect(menu(page).getByRole('link', { name: 'Elastic Statements' })).toBeVisible();
  await expect(menu(page).getByRole('button', { name: 'Web', exact: true })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: 'Manage Alerts' })).toHaveCount(0);
  // The developer settings are for vendor staff only.
  await expect(menu(page).getByRole('button', { name: 'Developer Settings' })).toHaveCount(0);
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

test('the Web menu’s Transactions opens Web Transactions with breadcrumbs', async ({ page }) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Acme Aerospace', /Acme Aerospace Inc\./);
  await menu(page).getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(page).toHaveURL(/\/web-transactions(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Web Transactions' })).toBeVisible();
  await expect(page.getByText(/^Data as of /)).toBeVisible();
  await expect(crumbs(page)).toHaveText('Web>Transactions');
  await expect(crumbs(page).getByRole('link', { name: 'Web' })).toHaveAttribute('href', '/web-assignments');
  await expect(crumbs(page).getByRole('link', { name: 'Transactions' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await menu(page).getByRole('link', { name: 'Usage Transactions' }).click();
  await expect(page).toHaveURL(/\/transactions(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Usage Transactions' })).toBeVisible();
  await expect(crumbs(page)).toHaveText('Elastic Reporting>Usage Transactions');
});

test('web-assignments sub-paths give one crumb per segment, the last one plain', async ({ page }) => {
  await signIn(page, 'busops@demo.example', '/web-assignments/groups/users');
  await expect(crumbs(page)).toHaveText('Web>Assignments>Groups>Users');
  await expect(crumbs(page).getByRole('link', { name: 'Groups' })).toHaveAttribute(
    'href',
    '/web-assignments/groups',
  );
  await expect(crumbs(page).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await crumbs(page).getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(/\/web-assignments\/groups(\?|$)/);
  await expect(crumbs(page)).toHaveText('Web>Assignments>Groups');
  await page.goto('/portalaccess');
  await expect(crumbs(page)).toHaveText('Settings>Licensing Portal Access');
});

test('help and user menus open the configured external pages in a new tab', async ({ page }) => {
  await signIn(page, 'busops@demo.example');
  await page.getByRole('button', { name: 'Help' }).click();
  const docs = page.getByRole('menuitem', { name: 'Documentation' });
  await expect(docs).toHaveAttribute('href', 'https://example.com/docs');
  await expect(docs).toHaveAttribute('target', '_blank');
  await expect(docs).toHaveAttribute('rel', /noopener/);
  await expect(page.getByRole('menuitem', { name: 'Get support' })).toHaveAttribute(
    'href',
    'https://example.com/support',
  );
  await page.keyboard.press('Escape');
  await openUserMenu(page);
  const manage = page.getByRole('menuitem', { name: 'Manage your vendor account' });
  await expect(manage).toHaveAttribute('href', 'https://example.com/profile');
  await expect(manage).toHaveAttribute('target', '_blank');
  await page.keyboard.press('Escape');
  // Footer: build information and the privacy notice.
  await expect(page.getByTestId('build-info')).toHaveText(/Licensing Portal/);
  await expect(page.getByRole('link', { name: 'Privacy Notice' })).toHaveAttribute(
    'href',
    'https://example.com/privacy',
  );
});

test('without build information the footer stays empty and the failure is logged', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (m) => logged.push(m.text()));
  await page.route('**/api/getBuildInfo', (route) =>
    route.fulfill({ status: 500, json: { status: 'FAILURE', err: 'boom' } }),
  );
  await signIn(page, 'busops@demo.example');
  await expect(page.getByRole('link', { name: 'Privacy Notice' })).toBeVisible();
  await expect.poll(() => logged.some((l) => l.includes('Could not get build info'))).toBe(true);
  await expect(page.getByTestId('build-info')).toHaveCount(0);
});
