import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * /whitelistips (spec 000 §2.10, §4.6): the administrator's journey. Leaving with unsaved changes, the viewer's
 * rules, an account without an elastic server and a refused read are component tests
 * (web/src/features/ip-rules/pages/whitelist-ips-page.test.tsx).
 */
async function openIpSettings(page: Page, email: string) {
  await openAccountPage(page, email, 'Acme Aerospace Inc.', '/whitelistips');
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
