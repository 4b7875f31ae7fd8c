import type { ExternalIdpAccount } from '@lp/server/test/external-idp-process';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openUserMenu } from './helpers.ts';

/*
 * Issue 20 §1 (decision 042), in the browser: the portal signs in through an outside OpenID provider that the test
 * starts (not the built-in one). A verified e-mail lands on the demo world's user with the roles of the provider's
 * claim; an unverified one is refused with a clear message; sign-out ends the provider's session too.
 */

const password = 'outside-provider-pw';
const accounts: ExternalIdpAccount[] = [
  {
    login: 'staff',
    password,
    sub: 'ext-staff',
    email: 'ext.support@vendor.example',
    name: 'Ext Support',
    roles: ['support'],
  },
  { login: 'admin', password, sub: 'ext-admin', email: 'admin@acme.example', name: 'Acme Admin', roles: [] },
  {
    login: 'mallory',
    password,
    sub: 'ext-mallory',
    email: 'busops@demo.example',
    email_verified: false,
    name: 'Mallory',
    roles: ['busops'],
  },
];

test.use({ externalIdp: { accounts } });

async function signInOutside(page: Page, login: string) {
  await expect(page.getByRole('heading', { name: 'External IdP' })).toBeVisible();
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('signs in through the outside provider with its roles claim, and sign-out ends its session', async ({
  page,
}) => {
  await page.goto('/elastic');
  await signInOutside(page, 'staff');
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await expect(page.getByTestId('selected-customer')).toHaveText(/^\d+ \(.+\)$/);
  await openUserMenu(page);
  await expect(page.getByText('ext.support@vendor.example')).toBeVisible();
  await expect(page.getByTestId('role-label')).toHaveText('Support Role');

  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign out of the External IdP?' })).toBeVisible();
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  // Back on the portal, which asks for sign-in: the provider shows its form again, its session is over.
  await expect(page.getByRole('heading', { name: 'External IdP' })).toBeVisible();
  await expect(page.getByLabel('Login')).toBeVisible();

  // A customer administrator of the demo world, by the provider's verified e-mail.
  await signInOutside(page, 'admin');
  await expect(page).toHaveURL(/\/$|\/elastic(\?|$)/);
  await openUserMenu(page);
  await expect(page.getByText('admin@acme.example')).toBeVisible();
});

test('refuses an e-mail the provider did not verify, and says why', async ({ page }) => {
  await page.goto('/elastic');
  await signInOutside(page, 'mallory');
  await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible();
  await expect(
    page.getByText(
      'Your identity provider has not verified your e-mail address, so the portal cannot tell it is yours.',
      {
        exact: false,
      },
    ),
  ).toBeVisible();
  expect(new URL(page.url()).searchParams.get('reason')).toBe('email-unverified');
  // Nobody is signed in.
  expect((await page.request.get('/api/auth/session')).status()).toBe(401);
});
