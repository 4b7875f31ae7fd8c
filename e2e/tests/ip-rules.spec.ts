import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, pickAccount, refuseCalls, signIn } from './helpers.ts';

const ACCOUNT = /Acme Aerospace Inc\./;

async function openIpSettings(page: Page, email: string, account = 'Aerospace', name = ACCOUNT) {
  await signIn(page, email);
  await pickAccount(page, account, name);
  await page.goto('/whitelistips');
  await expect(page.getByRole('heading', { name: 'Elastic IP Settings' })).toBeVisible();
}

const nameInput = (page: Page, n: number) => page.getByLabel(`Rule Name of rule ${n}`, { exact: true });
const ipInput = (page: Page, n: number) => page.getByLabel(`IP Address of rule ${n}`, { exact: true });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const banner = (page: Page) => page.getByTestId('ip-banner');

async function clearRules(page: Page) {
  await expect(banner(page)).toBeVisible();
  while ((await page.getByTestId('ip-rule-row').count()) > 0) {
    await page.getByRole('button', { name: 'Remove rule 1' }).click();
  }
  if (await button(page, 'Save').isEnabled()) {
    await button(page, 'Save').click();
    await expect(button(page, 'Save')).toBeDisabled();
  }
}

test('an administrator adds, normalises, saves and removes rules; the banner follows', async ({ page }) => {
  await openIpSettings(page, 'admin@acme.example');
  await expect(
    page.getByText(/IPv4 or IPv6 addresses, either one explicit address .* CIDR notation/),
  ).toBeVisible();
  await clearRules(page);
  await expect(banner(page)).toHaveText('All IP Addresses are allowed');
  await expect(button(page, 'Cancel')).toBeDisabled();
  await expect(button(page, 'Save')).toBeDisabled();

  await button(page, 'Add Rule').click();
  await expect(banner(page)).toHaveText('All other IP Addresses are blocked');
  await expect(button(page, 'Cancel')).toBeEnabled();
  await expect(button(page, 'Save')).toBeDisabled();

  // Messages show once a field is touched.
  await nameInput(page, 1).focus();
  await nameInput(page, 1).blur();
  await expect(page.getByText('Rule Name is required.')).toBeVisible();
  await ipInput(page, 1).fill('10.1.2.3/33');
  await expect(page.getByText(/Enter an IPv4 or IPv6 address/)).toBeVisible();
  await nameInput(page, 1).fill('Office');
  await ipInput(page, 1).fill('10.1.2.3/16');
  await expect(page.getByText(/Enter an IPv4 or IPv6 address/)).toHaveCount(0);
  await expect(button(page, 'Save')).toBeEnabled();

  await button(page, 'Add Rule').click();
  await nameInput(page, 2).fill('Same network');
  await ipInput(page, 2).fill('10.1.0.0/16');
  await expect(page.getByText('This IP address is already in the list.')).toBeVisible();
  await expect(button(page, 'Save')).toBeDisabled();
  await ipInput(page, 2).fill('2001:DB8:0:0::1');
  await expect(button(page, 'Save')).toBeEnabled();

  await button(page, 'Save').click();
  await expect(page.getByTestId('success-panel')).toBeVisible();
  // Saved as normalised by the server.
  await expect(ipInput(page, 1)).toHaveValue('10.1.0.0/16');
  await expect(ipInput(page, 2)).toHaveValue('2001:db8::1');
  await expect(button(page, 'Save')).toBeDisabled();
  await expect(button(page, 'Cancel')).toBeDisabled();

  await page.reload();
  await expect(ipInput(page, 2)).toHaveValue('2001:db8::1');
  await expect(banner(page)).toHaveText('All other IP Addresses are blocked');

  // Cancel restores the saved list.
  await page.getByRole('button', { name: 'Remove rule 1' }).click();
  await expect(page.getByTestId('ip-rule-row')).toHaveCount(1);
  await button(page, 'Cancel').click();
  await expect(page.getByTestId('ip-rule-row')).toHaveCount(2);

  await expectNoSeriousViolations(page);

  await clearRules(page);
  await expect(banner(page)).toHaveText('All IP Addresses are allowed');
});

test('a viewer sees the rules with inputs, remove and Add Rule disabled', async ({ page, browser }) => {
  // The administrator puts one rule in place first.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await openIpSettings(admin, 'admin@acme.example');
  await clearRules(admin);
  await button(admin, 'Add Rule').click();
  await nameInput(admin, 1).fill('Lab');
  await ipInput(admin, 1).fill('192.0.2.10');
  await button(admin, 'Save').click();
  await expect(button(admin, 'Save')).toBeDisabled();

  await openIpSettings(page, 'engineer@acme.example');
  await expect(ipInput(page, 1)).toHaveValue('192.0.2.10');
  await expect(nameInput(page, 1)).toBeDisabled();
  await expect(ipInput(page, 1)).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Remove rule 1' })).toBeDisabled();
  await expect(button(page, 'Add Rule')).toBeDisabled();
  await expect(button(page, 'Save')).toBeDisabled();

  await clearRules(admin);
  await adminContext.close();
});

test('an account without an elastic server says so', async ({ page }) => {
  // admin@acme.example is a viewer of Acme Energy Systems, which has no elastic licensing.
  await openIpSettings(page, 'admin@acme.example', 'Energy', /Acme Energy Systems Ltd\./);
  await expect(page.getByTestId('no-elastic-server')).toHaveText(
    'This customer has no activated elastic license server, so there is no IP allow-list to manage.',
  );
  await expect(button(page, 'Add Rule')).toHaveCount(0);
});

test('a failed read of the IP settings goes to /nopermissions', async ({ page }) => {
  await refuseCalls(page, '**/api/getips', 403, 'You do not have enough permissions to view this page.');
  await openIpSettings(page, 'admin@acme.example').catch(() => {});
  await expect(page).toHaveURL(/\/nopermissions$/);
  await expect(page.getByText('You do not have enough permissions to view this page.')).toBeVisible();
});

test('leaving the IP settings with unsaved changes asks first', async ({ page }) => {
  await openIpSettings(page, 'admin@acme.example');
  await expect(banner(page)).toBeVisible();
  await button(page, 'Add Rule').click();
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  const dialog = page.getByRole('dialog', { name: 'WARNING: You have unsaved changes.' });
  await expect(dialog).toContainText(
    'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/whitelistips(\?|$)/);
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
});
