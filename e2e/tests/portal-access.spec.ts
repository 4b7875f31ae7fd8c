import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage, pickAccount } from './helpers.ts';

/*
 * /portalaccess (spec 000 §2.9, §4.5): the administrator's journeys. The viewer's page and a refused save are
 * component tests (web/src/features/portal-access/pages/portal-access-page.test.tsx).
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

test('each validation message appears once a field is touched; Add contact and Save wait for a valid list', async ({
  page,
}) => {
  await openPortalAccess(page, 'admin@acme.example');
  const count = await page.getByTestId('contact-row').count();
  await button(page, 'Add contact').click();
  const n = count + 1;
  await expect(page.getByTestId('contact-row')).toHaveCount(n);
  // An untouched new row shows no errors, but the list is not valid yet.
  await expect(page.getByText('Email is required.')).toHaveCount(0);
  await expect(button(page, 'Add contact')).toBeDisabled();
  await expect(button(page, 'Save')).toBeDisabled();
  await expect(button(page, 'Cancel')).toBeEnabled();

  await emailInput(page, n).focus();
  await emailInput(page, n).blur();
  await expect(page.getByText('Email is required.')).toBeVisible();
  await emailInput(page, n).fill('not-an-address');
  await expect(page.getByText('Incorrect Email Format.')).toBeVisible();
  await emailInput(page, n).fill('someone@gmail.com');
  await expect(page.getByText('Free domain is not allowed. Use a corporate e-mail address.')).toBeVisible();
  await emailInput(page, n).fill('ENGINEER@acme.example');
  await expect(page.getByText('This e-mail address is already in the list.')).toBeVisible();
  await emailInput(page, n).fill('e2e.check@acme.example');
  await expect(page.getByText('This e-mail address is already in the list.')).toHaveCount(0);

  await roleSelect(page, n).focus();
  await roleSelect(page, n).blur();
  await expect(page.getByText('Role is required.')).toBeVisible();
  await expect(button(page, 'Save')).toBeDisabled();
  await roleSelect(page, n).selectOption('Licensing Portal Viewer');
  await expect(page.getByText('Role is required.')).toHaveCount(0);
  await expect(button(page, 'Save')).toBeEnabled();
  await expect(button(page, 'Add contact')).toBeEnabled();

  // Cancel restores the saved list.
  await button(page, 'Cancel').click();
  await expect(page.getByTestId('contact-row')).toHaveCount(count);
  await expect(button(page, 'Save')).toBeDisabled();
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

test('leaving with unsaved changes asks first: Cancel stays, Ok leaves', async ({ page }) => {
  await openPortalAccess(page, 'admin@acme.example');
  // No changes: leaving is free.
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await page.goBack();
  await expect(emailInput(page, 2)).toBeVisible();

  await emailInput(page, 2).fill('changed@acme.example');
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  const dialog = page.getByRole('dialog', { name: 'WARNING: You have unsaved changes.' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
  );
  expect((await dialog.boundingBox())?.width).toBeCloseTo(600, -1);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/portalaccess(\?|$)/);
  await expect(emailInput(page, 2)).toHaveValue('changed@acme.example');

  // Reloading or closing the tab gets the browser's own prompt; dismissing it keeps the changes.
  const prompt = page.waitForEvent('dialog');
  page.evaluate(() => window.location.reload()).catch(() => {});
  const beforeUnload = await prompt;
  expect(beforeUnload.type()).toBe('beforeunload');
  await beforeUnload.dismiss();
  await expect(emailInput(page, 2)).toHaveValue('changed@acme.example');

  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});

test('switching the customer with unsaved changes asks first: Cancel keeps both, Ok switches and drops them', async ({
  page,
}) => {
  await openPortalAccess(page, 'admin@acme.example');
  await emailInput(page, 2).fill('changed@acme.example');
  const dialog = page.getByRole('dialog', { name: 'WARNING: You have unsaved changes.' });

  await pickAccount(page, 'Automotive', /Acme Automotive GmbH/);
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  const accountBox = page.getByRole('textbox', { name: 'Account' });
  await expect(accountBox).toHaveValue(/Acme Aerospace Inc\./);
  await expect(emailInput(page, 2)).toHaveValue('changed@acme.example');

  await pickAccount(page, 'Automotive', /Acme Automotive GmbH/);
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(accountBox).toHaveValue(/Acme Automotive GmbH/);
  await expect(page).toHaveURL(/\/portalaccess(\?|$)/);
  await expect(page.getByTestId('contact-row').first()).toBeVisible();
  const emails = await page
    .getByTestId('contact-row')
    .locator('input')
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
  expect(emails).not.toContain('changed@acme.example');
});
