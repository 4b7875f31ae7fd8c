import { expect, test } from './fixtures.ts';
import {
  accountBox,
  DEMO_PASSWORD,
  expectNoSeriousViolations,
  openUserMenu,
  pickAccount,
  searchAccount,
  signIn,
  signInThroughForm,
  watchFailedLoads,
} from './helpers.ts';

/*
 * The shell's journeys in a browser: sign-in and sign-out, picking accounts, the export and no-account notices, the
 * shared link and the one sweep of the shell and of the notice layout. Its variants are component tests in the whole
 * portal in jsdom (web/test/portal.tsx): routes and a failed sign-in (web/src/app/router.test.tsx), the account
 * box's invalid text and races (account-search.test.tsx), initials and role label (user-menu.test.tsx).
 */

test('a signed-out visit to /elastic goes to sign-in', async ({ page }) => {
  await page.goto('/elastic');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  expect(new URL(page.url()).pathname).not.toBe('/elastic');
});

test('vendor staff sign in, pick an account by typing, see the role label and sign out', async ({ page }) => {
  // The sign-in pages as a user sees them (the other tests sign in over HTTP: helpers.ts signIn).
  await signInThroughForm(page, 'busops@demo.example');
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Elastic Licensing' })).toBeVisible();
  // The first account is selected automatically.
  await expect(page.getByTestId('selected-customer')).toHaveText(/^\d+ \(.+\)$/);

  await pickAccount(page, 'Northwind', /^\d+ \(Northwind Turbines Inc\.\)$/);
  await expect(page.getByTestId('selected-customer')).toHaveText(/Northwind Turbines Inc\./);
  await expect(accountBox(page)).toHaveValue(/^\d+ \(Northwind Turbines Inc\.\)$/);

  await openUserMenu(page);
  await expect(page.getByText('busops@demo.example')).toBeVisible();
  await expect(page.getByTestId('role-label')).toHaveText('Business Operations Role');
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/elastic'));
  // The IdP's sign-out ends on the portal, which asks for sign-in; wait for that chain of redirects to settle.
  await expect(page.getByLabel('Email')).toBeVisible();

  // The session is gone: the guarded page asks for sign-in again, and local storage was cleared.
  await page.goto('/elastic');
  await expect(page.getByLabel('Email')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('currentUser'))).toBeNull();
});

test('choosing an export-blocked account leads to /noaccess', async ({ page }) => {
  await signIn(page, 'busops@demo.example');
  await pickAccount(page, 'Tailspin', /Tailspin Defense Systems Corp\./);
  await expect(page).toHaveURL(/\/noaccess$/);
  await expect(
    page.getByText('Access to this customer is denied per Export Compliance restrictions.'),
  ).toBeVisible();
  // Choosing an approved account returns to the elastic page.
  await pickAccount(page, 'Northwind', /Northwind Turbines Inc\./);
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});

test('a customer user sees only their own accounts and their portal role', async ({ page }) => {
  await signIn(page, 'admin@acme.example');
  await searchAccount(page, 'Northwind');
  await expect(page.getByText('No account found.')).toBeVisible();

  await searchAccount(page, 'Acme');
  await expect(page.getByRole('option').first()).toBeVisible();
  const names = await page.getByRole('option').allTextContents();
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(name).toMatch(/^\d+ \(Acme /);

  await pickAccount(page, 'Aerospace', /Acme Aerospace Inc\./);
  await openUserMenu(page);
  await expect(page.getByTestId('role-label')).toHaveText('(Portal Administrator Role)');
});

test('the shell has no serious or critical accessibility violations', async ({ page }) => {
  await signIn(page, 'busops@demo.example');
  await expect(page.getByTestId('selected-customer')).toBeVisible();
  await expectNoSeriousViolations(page);
});

test('a customer user whose only account is export-blocked lands on /noaccess', async ({ page }) => {
  await signIn(page, 'cad@tailspin.example');
  await expect(page).toHaveURL(/\/noaccess$/);
  await expect(
    page.getByText('Access to this customer is denied per Export Compliance restrictions.'),
  ).toBeVisible();
});

test('a user without accounts lands on /nocustomer, also when opening an account page', async ({ page }) => {
  await signIn(page, 'newhire@acme.example');
  await expect(page).toHaveURL(/\/nocustomer$/);
  await page.goto('/elastic/fromLeftMenu');
  await expect(page).toHaveURL(/\/nocustomer$/);
  await expect(page.getByText(/not linked to any customer account/)).toBeVisible();
  // The one sweep of the notice pages (/nocustomer, /noaccess, /noselectedcustomer, /notypecustomer: one layout).
  await expectNoSeriousViolations(page);
});

test('a shared link opens its account and page after sign-in, with no failed load; Back stays in the portal', async ({
  page,
  browser,
}) => {
  // Issue 21: the account is in the URL and kept across navigation (here a menu link).
  await signIn(page, 'admin@acme.example');
  await pickAccount(page, 'Energy', /Acme Energy Systems Ltd\./);
  await page.getByRole('link', { name: 'Leases/Perpetuals' }).click();
  await expect(page).toHaveURL(/\/ssl\?account=\d+$/);
  const link = new URL(page.url());
  const number = link.searchParams.get('account') ?? '';

  // A colleague who may see the account: a fresh browser, sign-in, then the same account and page.
  const colleague = await (await browser.newContext()).newPage();
  const failed = watchFailedLoads(colleague);
  await colleague.goto(`${link.pathname}${link.search}`);
  await expect(colleague.getByLabel('Email')).toBeVisible();
  await expectNoSeriousViolations(colleague);
  await colleague.getByLabel('Email').fill('busops@demo.example');
  await colleague.getByLabel('Password').fill(DEMO_PASSWORD);
  await colleague.getByRole('button', { name: 'Sign in' }).click();
  await expect(colleague.getByTestId('selected-customer')).toHaveText(`${number} (Acme Energy Systems Ltd.)`);
  await expect(colleague).toHaveURL(`${link.origin}${link.pathname}${link.search}`);
  // The skip link comes first and moves focus to the page content.
  await colleague.keyboard.press('Tab');
  const skip = colleague.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await colleague.keyboard.press('Enter');
  await expect(colleague.locator('#main-content')).toBeFocused();
  // Back after sign-in does not land on an expired sign-in page.
  await colleague.goBack();
  await expect(colleague.getByTestId('selected-customer')).toBeVisible();
  await expect(colleague.getByText('Sign-in expired')).toHaveCount(0);
  expect(failed).toEqual([]);
  expect((await colleague.request.get('/favicon.ico')).status()).toBe(200);

  // A reader who may not see it gets the usual refusal, and no other account under that link.
  const outsider = await (await browser.newContext()).newPage();
  await signIn(outsider, 'engineer@acme.example', `${link.pathname}${link.search}`);
  await expect(outsider).toHaveURL(/\/nopermissions$/);
  await expect(outsider.getByText('You do not have enough permissions to view this page.')).toBeVisible();
  await expect(outsider.getByText('Acme Energy Systems')).toHaveCount(0);
});
