import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { signIn } from './helpers.ts';

// A vendor user no other browser test signs in as: this test changes the user's saved feature set.
const USER = 'salesaccess@demo.example';
const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

async function openFeatures(page: Page) {
  await menu(page).getByRole('button', { name: 'Features' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enabled Feature Flags' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the feature dialog refuses conflicting selections and a disabled feature hides its route', async ({
  page,
}) => {
  await signIn(page, USER);
  const before = (await (await page.request.get('/api/featureflag/features')).json()).data
    .enabled as string[];
  try {
    const dialog = await openFeatures(page);
    await expect(dialog.getByText('Experimental: interactive charts on the elastic statement')).toBeVisible();
    const apply = dialog.getByRole('button', { name: 'Apply' });
    await dialog.getByRole('checkbox', { name: /^experimental-statement-charts/ }).check();
    await expect(apply).toBeEnabled();
    await dialog.getByRole('checkbox', { name: /^experimental-statement-classic/ }).check();
    await expect(dialog.getByText('Selections are in conflict. Deselect one or more option.')).toBeVisible();
    await expect(apply).toBeDisabled();
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze();
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    await dialog.getByRole('checkbox', { name: /^experimental-statement-charts/ }).uncheck();
    await expect(dialog.getByText('Selections are in conflict. Deselect one or more option.')).toHaveCount(0);

    // Turning the emails route off: Apply saves, reloads, and the route and its menu entry are gone.
    await dialog.getByRole('checkbox', { name: /^emails/ }).uncheck();
    await apply.click();
    await expect(dialog).toBeHidden();
    await expect(menu(page).getByRole('link', { name: 'Alerts' })).toBeVisible();
    await expect(menu(page).getByRole('link', { name: 'Emails' })).toHaveCount(0);
    await page.goto('/emails');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    // The shell stays: the user can open the dialog again, and it shows the saved set.
    const again = await openFeatures(page);
    await expect(again.getByRole('checkbox', { name: /^emails/ })).not.toBeChecked();
    await expect(again.getByRole('checkbox', { name: /^experimental-statement-classic/ })).toBeChecked();
    // Clear unchecks everything; Cancel keeps the saved set.
    await again.getByRole('button', { name: 'Clear' }).click();
    await expect(again.getByRole('checkbox', { checked: true })).toHaveCount(0);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  } finally {
    await page.request.post('/api/featureflag/features', {
      data: { features: before },
      headers: { 'x-lp-csrf': '1' },
    });
  }
  await page.goto('/emails');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  await expect(menu(page).getByRole('link', { name: 'Emails' })).toBeVisible();
});
