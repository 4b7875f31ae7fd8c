import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectNoSeriousViolations,
  holdCalls,
  openAccountPage,
  pickAccount,
  watchFailedLoads,
} from './helpers.ts';

/*
 * /clscredentials (spec 001 §2.4): the administrator's journeys. The viewer's page and the failures that go to
 * /nopermissions are component tests (web/src/features/credentials/pages/credentials-page.test.tsx).
 */
const ACCOUNT = 'Acme Aerospace Inc.';
const LOADING = 'Getting Elastic License Server information...';
const SAVING = 'Saving Elastic License Server information...';
const INVALID_PIN = 'PIN number is not valid. Please enter a 6 digits number.';
const EXPORT_INVALID =
  'PIN number is not valid. Please enter a 6 digits number and save it before exporting.';
const INVALID_USERS = 'List of usernames is not valid. Please enter a valid list.';
const CONFIRM_PIN = 'Are you sure you want to change the PIN for this Elastic License Server?';
const CONFIRM_USERS =
  'Are you sure you want to change the allowed usernames for this Elastic License Server?';

async function openCredentials(page: Page, email = 'admin@acme.example') {
  await openAccountPage(page, email, ACCOUNT, '/clscredentials');
  await expect(page.getByRole('heading', { name: 'Elastic Credentials' })).toBeVisible();
  await expect(serverId(page)).not.toHaveValue('');
}

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });
const serverId = (page: Page) => textbox(page, 'Server ID');
const pinInput = (page: Page) => textbox(page, 'PIN');
const aliasInput = (page: Page) => textbox(page, 'Alias');
const usersInput = (page: Page) => page.getByRole('textbox', { name: 'Allowed usernames' });
const section = (page: Page, heading: string) => page.getByRole('region', { name: heading, exact: true });
const button = (page: Page, area: string, name: string) =>
  section(page, area).getByRole('button', { name, exact: true });
const banner = (page: Page) => page.getByTestId('users-banner');
const confirm = (page: Page) => page.getByRole('dialog', { name: 'Confirm' });

/** Sets the allowed usernames as an administrator (Save, confirm Yes) unless they already are. */
async function saveUsersAs(page: Page, text: string) {
  await usersInput(page).fill(text);
  const save = button(page, 'Access restrictions', 'Save');
  if (await save.isEnabled()) {
    await save.click();
    await confirm(page).getByRole('button', { name: 'Yes' }).click();
    await expect(save).toBeDisabled();
  }
}

test('the page shows the server id and a generated six-digit PIN once both are known', async ({ page }) => {
  // Hold the first read so the loading spinner can be seen; the form is not shown before the data.
  const release = await holdCalls(page, '**/api/getUsers');
  // The first visit (a server without a PIN yet) loads without any failed request (issue 21).
  const failed = watchFailedLoads(page);
  await openAccountPage(page, 'admin@acme.example', ACCOUNT, '/clscredentials');
  await expect(page.getByText(LOADING)).toBeVisible();
  await expect(pinInput(page)).toHaveCount(0);
  release();
  await expect(pinInput(page)).toHaveValue(/^[0-9]{6}$/);
  await expect(serverId(page)).toHaveAttribute('readonly', '');
  await expect(serverId(page)).toHaveValue(/\S+/);
  await expect(page.getByText(LOADING)).toHaveCount(0);
  expect(failed).toEqual([]);

  // The same PIN comes back: it was generated once and saved, not made up on every visit.
  const pin = await pinInput(page).inputValue();
  await page.unroute('**/api/getUsers');
  await page.reload();
  await expect(pinInput(page)).toHaveValue(pin);
  await expect(button(page, 'PIN', 'Change PIN')).toBeDisabled();
  await expect(button(page, 'PIN', 'Cancel')).toBeDisabled();
  await expect(button(page, 'Export', 'Export to JSON file')).toBeEnabled();
  await expectNoSeriousViolations(page);
});

test('an administrator changes the PIN after confirming; invalid PINs are refused', async ({ page }) => {
  await openCredentials(page);
  const saved = await pinInput(page).inputValue();
  const id = await serverId(page).inputValue();
  const change = button(page, 'PIN', 'Change PIN');
  const cancel = button(page, 'PIN', 'Cancel');
  const exportButton = button(page, 'Export', 'Export to JSON file');

  for (const bad of ['12345', '1234567', '12.456', '12a456', ' 12345']) {
    await pinInput(page).fill(bad);
    await expect(page.getByTestId('pin-alert')).toHaveText(INVALID_PIN);
    await expect(change).toBeDisabled();
    await expect(cancel).toBeEnabled();
    await expect(exportButton).toBeDisabled();
    await expect(page.getByTestId('export-alert')).toHaveText(EXPORT_INVALID);
  }
  await cancel.click();
  await expect(pinInput(page)).toHaveValue(saved);
  await expect(page.getByTestId('pin-alert')).toHaveCount(0);
  await expect(exportButton).toBeEnabled();

  const next = saved === '135790' ? '246802' : '135790';
  await pinInput(page).fill(next);
  await expect(change).toBeEnabled();
  // A valid but unsaved PIN cannot be exported yet.
  await expect(exportButton).toBeDisabled();
  await expect(page.getByTestId('export-alert')).toHaveText(EXPORT_INVALID);

  // No keeps the saved PIN.
  await change.click();
  await expect(confirm(page)).toContainText(CONFIRM_PIN);
  await expect(confirm(page)).toContainText(id);
  const width = await confirm(page).evaluate((el) => el.getBoundingClientRect().width);
  expect(Math.round(width)).toBe(350);
  await confirm(page).getByRole('button', { name: 'No' }).click();
  await expect(confirm(page)).toHaveCount(0);
  await page.reload();
  await expect(pinInput(page)).toHaveValue(saved);

  // Yes saves, under the saving spinner.
  await pinInput(page).fill(next);
  const release = await holdCalls(page, '**/api/changepin');
  await change.click();
  await confirm(page).getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText(SAVING)).toBeVisible();
  await expect(change).toBeDisabled();
  await expect(cancel).toBeDisabled();
  release();
  await expect(page.getByText(SAVING)).toHaveCount(0);
  // Once saved, the new PIN can be exported.
  await expect(exportButton).toBeEnabled();
  await page.reload();
  await expect(pinInput(page)).toHaveValue(next);
});

test('the JSON export carries clsid, Alias and PIN and is named with the server id', async ({ page }) => {
  await openCredentials(page);
  const id = await serverId(page).inputValue();
  const pin = await pinInput(page).inputValue();
  const alias = await aliasInput(page).inputValue();
  expect(alias).not.toBe('');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    button(page, 'Export', 'Export to JSON file').click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${id}.json`);
  const file = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  expect(file).toEqual({ clsid: id, Alias: alias, PIN: pin });

  // An empty alias is refused.
  await aliasInput(page).fill('  ');
  await expect(page.getByTestId('alias-alert')).toHaveText('Alias should not be empty.');
  await expect(button(page, 'Export', 'Export to JSON file')).toBeDisabled();
  await aliasInput(page).fill('renamed-cls');
  const [second] = await Promise.all([
    page.waitForEvent('download'),
    button(page, 'Export', 'Export to JSON file').click(),
  ]);
  expect(JSON.parse(fs.readFileSync(await second.path(), 'utf8'))).toEqual({
    clsid: id,
    Alias: 'renamed-cls',
    PIN: pin,
  });
});

test('allowed usernames: banners, validation, Cancel and Save with confirmation', async ({ page }) => {
  await openCredentials(page);
  const id = await serverId(page).inputValue();
  await saveUsersAs(page, '');
  const save = button(page, 'Access restrictions', 'Save');
  const cancel = button(page, 'Access restrictions', 'Cancel');
  await expect(banner(page)).toHaveText('Allowing all users with current PIN');
  await expect(save).toBeDisabled();
  await expect(cancel).toBeDisabled();

  await usersInput(page).fill('alice\nBob.Smith');
  await expect(banner(page)).toHaveText('Blocking all other users');
  await expect(save).toBeEnabled();
  await expect(cancel).toBeEnabled();

  for (const bad of ['alice\n\nbob', 'al ice', 'jürgen', 'alice\nALICE']) {
    await usersInput(page).fill(bad);
    await expect(page.getByTestId('users-alert')).toHaveText(INVALID_USERS);
    await expect(save).toBeDisabled();
  }

  await cancel.click();
  await expect(usersInput(page)).toHaveValue('');
  await expect(banner(page)).toHaveText('Allowing all users with current PIN');

  await usersInput(page).fill('alice\nBob.Smith\nDOMAIN\\carol');
  await save.click();
  await expect(confirm(page)).toContainText(CONFIRM_USERS);
  await expect(confirm(page)).toContainText(id);
  await confirm(page).getByRole('button', { name: 'Yes' }).click();
  await expect(save).toBeDisabled();
  await expect(cancel).toBeDisabled();

  await page.reload();
  await expect(usersInput(page)).toHaveValue('alice\nBob.Smith\nDOMAIN\\carol');
  await expect(banner(page)).toHaveText('Blocking all other users');

  // Removing every name allows all users with the PIN again.
  await saveUsersAs(page, '');
  await page.reload();
  await expect(usersInput(page)).toHaveValue('');
  await expect(banner(page)).toHaveText('Allowing all users with current PIN');
});

test('leaving with unsaved changes asks first (600 px dialog)', async ({ page }) => {
  await openCredentials(page);
  await usersInput(page).fill('someone');
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  const dialog = page.getByRole('dialog', { name: 'WARNING: You have unsaved changes.' });
  await expect(dialog).toContainText(
    'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
  );
  const width = await dialog.evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeGreaterThanOrEqual(590);
  expect(width).toBeLessThanOrEqual(610);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/clscredentials(\?|$)/);
  await expect(usersInput(page)).toHaveValue('someone');

  // A changed PIN is guarded the same way; Ok leaves and drops the change.
  await usersInput(page).fill('');
  await pinInput(page).fill('000001');
  await page.getByRole('link', { name: 'Licensing Portal home' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/\/elastic(\?|$)/);
  await page.goto('/clscredentials');
  await expect(pinInput(page)).not.toHaveValue('000001');
});

test('changing the customer reloads server, PIN and users', async ({ page }) => {
  await openCredentials(page);
  const first = await serverId(page).inputValue();
  await pickAccount(page, 'Automotive', /Acme Automotive GmbH/);
  await expect(serverId(page)).not.toHaveValue(first);
  await expect(serverId(page)).toHaveValue(/\S+/);
  await expect(pinInput(page)).toHaveValue(/^[0-9]{6}$/);
  await expect(page).toHaveURL(/\/clscredentials(\?|$)/);
});
