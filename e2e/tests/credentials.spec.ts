import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, holdCalls, openAccountPage } from './helpers.ts';

/*
 * /clscredentials (spec 001 §2.4): the administrator's journeys. The first load's spinner and generated PIN, the
 * usernames' banners and rules, leaving with unsaved changes, a customer change, the viewer's page and the
 * failures that go to /nopermissions are component tests (web/src/features/credentials/pages/credentials-page.test.tsx).
 */
const ACCOUNT = 'Acme Aerospace Inc.';
const SAVING = 'Saving Elastic License Server information...';
const INVALID_PIN = 'PIN number is not valid. Please enter a 6 digits number.';
const EXPORT_INVALID =
  'PIN number is not valid. Please enter a 6 digits number and save it before exporting.';
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

test('an administrator changes the PIN after confirming; invalid PINs are refused', async ({ page }) => {
  await openCredentials(page);
  await expectNoSeriousViolations(page);
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

test('allowed usernames are saved after a confirmation and kept; an empty list allows all again', async ({
  page,
}) => {
  await openCredentials(page);
  const id = await serverId(page).inputValue();
  await saveUsersAs(page, '');
  const save = button(page, 'Access restrictions', 'Save');
  const cancel = button(page, 'Access restrictions', 'Cancel');
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
