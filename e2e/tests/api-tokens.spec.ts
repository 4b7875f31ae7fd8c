import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, pickAccount, signIn } from './helpers.ts';

/*
 * Issue 20 §3: Settings › API Tokens. A user makes a named token with an expiry (shown once), sees its last use and
 * revokes it; an account's administrator sees and revokes the tokens of the account's users; a viewer sees only
 * their own.
 */

const csrf = { 'x-lp-csrf': '1' };

test('a user creates, uses and revokes a token; the administrator revokes a viewer’s token', async ({
  page,
  browser,
}) => {
  // The viewer makes a token of their own in another browser.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signIn(viewer, 'engineer@acme.example');
  await viewer.getByRole('link', { name: 'API Tokens' }).click();
  await expect(viewer.getByRole('heading', { name: 'My API tokens' })).toBeVisible();
  await expect(viewer.getByRole('heading', { name: /^Tokens that can act on/ })).toHaveCount(0);
  const made = await viewer.request.post('/api/tokens', { data: { name: 'nightly report' }, headers: csrf });
  expect(made.status()).toBe(200);
  const viewerToken = (await made.json()).data.token as string;

  await signIn(page, 'admin@acme.example');
  await pickAccount(page, 'Acme Aerospace', /\(Acme Aerospace Inc\.\)$/);
  await page.getByRole('link', { name: 'API Tokens' }).click();
  await expect(page).toHaveURL(/\/api-tokens$/);
  await expect(page.getByText('You have no API tokens.')).toBeVisible();

  await page.getByLabel('Name').fill('ci export');
  await page.getByRole('textbox', { name: 'Expires in (days)' }).fill('30');
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await expect(dialog.getByText('Copy the token now. It will not be shown again.')).toBeVisible();
  const token = await dialog.getByLabel('Token').inputValue();
  expect(token).toMatch(/^lp_/);
  await expectNoSeriousViolations(page);
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(dialog).toBeHidden();

  const mine = page.getByRole('table', { name: 'My API tokens' });
  const row = mine.getByRole('row', { name: /ci export/ });
  await expect(row).toContainText('Not used yet');
  await expect(row).toContainText('Active');

  // A script uses it; the page shows the last use.
  const used = await page.request.get('/api/auth/session', { headers: { authorization: `Bearer ${token}` } });
  expect(used.status()).toBe(200);
  await page.reload();
  await expect(mine.getByRole('row', { name: /ci export/ })).not.toContainText('Not used yet');

  // The account's section lists the viewer's token; the administrator revokes it.
  const account = page.getByRole('table', { name: /^Tokens that can act on Acme Aerospace/ });
  const viewerRow = account.getByRole('row', { name: /engineer@acme\.example/ });
  await expect(viewerRow).toContainText('nightly report');
  await viewerRow.getByRole('button', { name: /^Revoke token nightly report/ }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(viewerRow).toContainText('Revoked');
  expect(
    (
      await page.request.get('/api/auth/session', { headers: { authorization: `Bearer ${viewerToken}` } })
    ).status(),
  ).toBe(401);

  // And revokes their own.
  await mine.getByRole('button', { name: 'Revoke token ci export' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(mine.getByRole('row', { name: /ci export/ })).toContainText('Revoked');
  expect(
    (await page.request.get('/api/auth/session', { headers: { authorization: `Bearer ${token}` } })).status(),
  ).toBe(401);
  await viewerContext.close();
});
