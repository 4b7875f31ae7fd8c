import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * Vendor-staff tools of the elastic area (docs/decisions/013, 014): license-server credentials on
 * /clscredentials (busops, support) and balance adjustments on /elastic (busops). Demo world: Acme Aerospace
 * Inc. (1000123) has an elastic license server and a current elastic entitlement with usage.
 */

const ACME = '1000123';
const SECTION = 'License server credentials';
const TOKEN_ONCE = 'Copy the token now and configure it on the license server. It will not be shown again.';

interface ElasticRecord {
  ActivationId: string;
  LicenseModel: string;
  EntitlementState: string;
  StartDate: string;
  EndDate: string;
  Used: number;
  LineItemQuantity: number;
}

const confirm = (page: Page) => page.getByRole('dialog', { name: 'Confirm' });
const credentials = (page: Page) => page.getByRole('region', { name: SECTION, exact: true });
const revokeButtons = (section: Locator) =>
  section.getByRole('button', { name: /^Revoke credential issued/ });
const activeTable = (page: Page) =>
  page.getByRole('region', { name: 'Active Entitlements table', exact: true });
const cell = (grid: Locator, activationId: string, colId: string) =>
  grid.locator(`.ag-row[row-id="${activationId}"] [col-id="${colId}"]`);
/** Amounts: thousands separators and always two decimals (decision 024). */
const money = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Spec 001 §4, written out independently of the page: remaining rounded to 0.1, floored at 0, capped. */
const remaining = (r: ElasticRecord) =>
  Math.min(r.LineItemQuantity, Math.max(0, Math.round((r.LineItemQuantity - r.Used) * 10) / 10));

async function openAccount(page: Page, email: string, path: string) {
  await openAccountPage(page, email, 'Acme Aerospace Inc.', path);
}

/** Opens /clscredentials and waits for the server id and (for staff) the credentials list. */
async function openCredentials(page: Page, email: string) {
  await openAccount(page, email, '/clscredentials');
  await expect(page.getByRole('heading', { name: 'Elastic Credentials' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Server ID', exact: true })).not.toHaveValue('');
}

async function elasticRecords(page: Page): Promise<ElasticRecord[]> {
  const res = await page.request.post('/api/getEntitlements', {
    data: { customerNumber: ACME, customername: '' },
    headers: { 'x-lp-csrf': '1' },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).data;
}

const policyStatus = async (page: Page, token: string) =>
  (await page.request.get('/cls/v1/policy', { headers: { authorization: `Bearer ${token}` } })).status();

test('busops issues a license-server credential, sees its token once, and revokes it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openCredentials(page, 'busops@demo.example');
  const serverId = await page.getByRole('textbox', { name: 'Server ID', exact: true }).inputValue();
  const section = credentials(page);
  await expect(section).toBeVisible();
  await expect(section.getByText('Loading...')).toHaveCount(0);
  const activeBefore = await revokeButtons(section).count();

  // Asked first; No changes nothing.
  await section.getByRole('button', { name: 'Issue credential' }).click();
  await expect(confirm(page)).toContainText(serverId);
  await confirm(page).getByRole('button', { name: 'No' }).click();
  await expect(revokeButtons(section)).toHaveCount(activeBefore);

  await section.getByRole('button', { name: 'Issue credential' }).click();
  await confirm(page).getByRole('button', { name: 'Yes' }).click();
  const dialog = page.getByRole('dialog', { name: 'New license server credential' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(TOKEN_ONCE);
  await expect(dialog.getByRole('textbox', { name: 'Server ID' })).toHaveValue(serverId);
  const tokenBox = dialog.getByRole('textbox', { name: 'Token' });
  await expect(tokenBox).toHaveValue(/^cls_[\w-]{40,}$/);
  const token = await tokenBox.inputValue();
  await dialog.getByRole('button', { name: 'Copy' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expectNoSeriousViolations(page);

  // The token is real: the license server reads its policy with it.
  expect(await policyStatus(page, token)).toBe(200);

  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Credential issued.')).toBeVisible();
  // Shown once: neither the page nor a fresh load of it carries the token any more.
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(revokeButtons(section)).toHaveCount(activeBefore + 1);
  expect(await page.content()).not.toContain(token);

  // The newest credential is the last row: issued by busops, active.
  const newest = section.getByRole('row').last();
  await expect(newest).toContainText(serverId);
  await expect(newest).toContainText('busops@demo.example');
  await expect(newest).toContainText('Active');

  await newest.getByRole('button', { name: /^Revoke credential issued/ }).click();
  await expect(confirm(page)).toContainText('The license server using it can no longer connect.');
  await confirm(page).getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Credential revoked.')).toBeVisible();
  await expect(revokeButtons(section)).toHaveCount(activeBefore);
  await expect(newest).not.toContainText('Active');
  await expect(newest.getByRole('cell').nth(3)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect(await policyStatus(page, token)).toBe(401);
});

test('busops credits an entitlement and Used and Remaining change; the ledger limits are shown verbatim', async ({
  page,
}) => {
  await openAccount(page, 'busops@demo.example', '/elastic');
  const grid = activeTable(page);
  await expect(grid.locator('.ag-row').first()).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  const current = (await elasticRecords(page)).find(
    (r) =>
      r.LicenseModel === 'Elastic-AEU' &&
      r.EntitlementState === 'Deployed' &&
      r.StartDate <= today &&
      r.EndDate >= today &&
      r.Used >= 5 &&
      r.Used < r.LineItemQuantity,
  );
  if (!current) throw new Error('the demo world has no current elastic entitlement with usage');
  const id = current.ActivationId;
  await expect(cell(grid, id, 'remaining')).toHaveText(money(remaining(current)));

  await grid.getByRole('button', { name: `Adjust balance of ${id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Adjust balance' });
  await expect(dialog.getByRole('textbox', { name: 'Product' })).toHaveValue('Balance Adjustment');
  const amount = dialog.getByRole('textbox', { name: 'Amount' });
  const submit = dialog.getByRole('button', { name: 'Adjust balance' });

  // The server's refusals come back word for word and change nothing.
  await amount.fill(String(-(Math.ceil(current.Used) + 1000)));
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText("Credit exceeds the entitlement's used amount");
  await amount.fill(String(Math.ceil(current.LineItemQuantity - current.Used) + 1000));
  await submit.click();
  await expect(dialog.getByRole('alert')).toHaveText(
    "Adjustment exceeds the entitlement's remaining balance",
  );
  expect((await elasticRecords(page)).find((r) => r.ActivationId === id)?.Used).toBe(current.Used);
  await expectNoSeriousViolations(page);

  await amount.fill('-5');
  await dialog.getByRole('textbox', { name: 'Note' }).fill('Goodwill credit (e2e)');
  await submit.click();
  await expect(dialog).toBeHidden();
  const after = (await elasticRecords(page)).find((r) => r.ActivationId === id);
  expect(after?.Used).toBeCloseTo(current.Used - 5, 2);
  await expect(page.getByText(`Balance of ${id} adjusted. Used: ${money(after?.Used ?? 0)}.`)).toBeVisible();
  // The table shows the new balance without a reload.
  await expect(cell(grid, id, 'remaining')).toHaveText(money(remaining(after as ElasticRecord)));
});
