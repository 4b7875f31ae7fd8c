import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * /portalaccess (spec 000 §2.9, §4.5): the administrator's journeys. The validation messages, leaving or
 * switching the customer with unsaved changes, the viewer's page and a refused save are component tests
 * (web/src/features/portal-access/pages/portal-access-page.test.tsx).
 */
const ACCOUNT = 'Acme Aerospace Inc.';

async function openPortalAccess(page: Page, email: string) {
  await openAccountPage(page, email, ACCOUNT, '/portalaccess');
  await expect(page.getByRole('heading', { name: 'Licensing Portal Access' })).toBeVisible();
  await expect(page.getByTestId('contact-row').first()).toBeVisible();
}

const emailInput = (page: Page, n: number) => page.getByLabel(`Email of contact ${n}`, { exact: true });
const roleSelect = (page: Page, n: number) => page.getByLabel(`Role of contact ${n}`, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

test('an administrator sees the intro, the contacts and a locked Support Coordinator row', async ({
  page,
}) => {
  await openPortalAccess(page, 'admin@acme.example');
  await expect(page.getByText(/Every contact needs an active .+ account/)).toBeVisible();
  await expect(
    page.getByText(/To become a Licensing Portal Administrator, contact an existing Administrator/),
  ).toBeVisible();
  await expect(
    page.getByText(/To become a Support Coordinator, contact your .+ account manager\./),
  ).toBeVisible();

  // The coordinator comes first, shown but disabled.
  await expect(emailInput(page, 1)).toHaveValue('coordinator@acme.example');
  await expect(emailInput(page, 1)).toBeDisabled();
  await expect(roleSelect(page, 1)).toBeDisabled();
  await expect(roleSelect(page, 1)).toHaveValue('Support Coordinator (Administrator)');
  await expect(page.getByRole('button', { name: 'Remove coordinator@acme.example' })).toBeDisabled();

  // Other rows offer only the two selectable roles: the coordinator option is hidden.
  await expect(emailInput(page, 2)).toBeEnabled();
  const options = await roleSelect(page, 2).locator('option').allTextContents();
  expect(options.filter(Boolean)).toEqual([
    'Select a role',
    'Licensing Portal Administrator',
    'Licensing Portal Viewer',
  ]);

  // Nothing changed yet: Save and Cancel are disabled, Add contact is enabled.
  await expect(button(page, 'Save')).toBeDisabled();
  await expect(button(page, 'Cancel')).toBeDisabled();
  await expect(button(page, 'Add contact')).toBeEnabled();

  await expectNoSeriousViolations(page);
});

test('saving adds a contact who then reaches the account, and removing takes the access away', async ({
  page,
  browser,
}) => {
  await openPortalAccess(page, 'admin@acme.example');
  const count = await page.getByTestId('contact-row').count();
  await button(page, 'Add contact').click();
  await emailInput(page, count + 1).fill('NewHire@Acme.example');
  await roleSelect(page, count + 1).selectOption('Licensing Portal Viewer');
  await button(page, 'Save').click();
  await expect(page.getByTestId('success-panel')).toBeVisible();
  await expect(emailInput(page, count + 1)).toHaveValue('newhire@acme.example');
  await expect(button(page, 'Save')).toBeDisabled();
  await expect(button(page, 'Cancel')).toBeDisabled();

  // The new contact signs in and can open the account.
  const other = await browser.newContext();
  const newcomer = await other.newPage();
  await openAccountPage(newcomer, 'newhire@acme.example', ACCOUNT, '/portalaccess');
  await expect(emailInput(newcomer, 1)).toBeDisabled(); // a viewer: read only

  // Saved state survives a reload; then the administrator removes the contact again.
  await page.reload();
  await expect(page.getByTestId('contact-row')).toHaveCount(count + 1);
  await page.getByRole('button', { name: 'Remove newhire@acme.example' }).click();
  await button(page, 'Save').click();
  await expect(page.getByTestId('contact-row')).toHaveCount(count);
  await expect(button(page, 'Save')).toBeDisabled();

  // On the next call the removed contact is refused: the account is gone from their portal.
  await newcomer.reload();
  await expect(newcomer).toHaveURL(/\/nocustomer$/);
  await other.close();
});
