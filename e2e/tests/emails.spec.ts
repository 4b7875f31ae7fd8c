import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, expectSavedView, filterColumn, openAccountPage } from './helpers.ts';

/*
 * E-mails (spec 000 §2.7, §2.8, §6): the list with its saved view, the detail page with the body in a
 * sandboxed frame. Demo world: Acme Aerospace Inc. (Direct, 32 e-mails) for admin@acme.example. The
 * customer-type redirect, the loading text before a refusal and the list's pages with the row count are component
 * tests (web/src/features/emails/pages/emails-page.test.tsx).
 */

const ACME = '1000123';
const grid = (page: Page) => page.getByRole('region', { name: 'Emails' });
const rows = (page: Page) => grid(page).locator('[role="row"][row-index]');
const subjectCells = (page: Page) => grid(page).locator('[role="gridcell"][col-id="subject"]');

async function openEmails(page: Page) {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/emails');
  await expect(page.getByRole('heading', { name: 'Emails' })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  // The infinite row model shows empty loading rows until the first block arrives.
  await expect(subjectCells(page).first()).toHaveText(/\S/);
}

test('lists the e-mails, filters them and keeps the saved view after a reload', async ({ page }) => {
  await openEmails(page);
  await expect(grid(page).getByRole('columnheader', { name: /^Date/ })).toBeVisible();
  await expect(grid(page).getByRole('columnheader', { name: /^Subject/ })).toBeVisible();
  await expect(grid(page).getByRole('columnheader', { name: /^To/ })).toBeVisible();
  // Dates are dash-separated, newest first.
  const dates = await grid(page).locator('[role="gridcell"][col-id="date"]').allTextContents();
  expect(dates.length).toBeGreaterThan(5);
  for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  expect([...dates].sort().reverse()).toEqual(dates);
  const clear = page.getByRole('button', { name: 'Clear filters' });
  await expect(clear).toBeDisabled();

  await filterColumn(grid(page), 'subject', 'Contains', 'license file');
  await expect
    .poll(async () => {
      const subjects = await subjectCells(page).allTextContents();
      return subjects.length > 0 && subjects.every((s) => /license file/i.test(s));
    })
    .toBe(true);
  const filtered = await subjectCells(page).allTextContents();
  expect(filtered.length).toBeLessThan(dates.length);
  await expect(clear).toBeEnabled();

  // The filter is saved (debounced) for this customer and table, and comes back after a reload.
  await expectSavedView(page, ACME, 'emailList', (v) => v?.filterModel?.subject?.filter === 'license file');
  await page.reload();
  await expect(rows(page).first()).toBeVisible();
  await expect(clear).toBeEnabled();
  await expect
    .poll(async () => (await subjectCells(page).allTextContents()).sort())
    .toEqual([...filtered].sort());

  await clear.click();
  await expect(clear).toBeDisabled();
  await expect.poll(async () => (await subjectCells(page).allTextContents()).length).toBe(dates.length);

  // Equals matches the whole value only.
  await filterColumn(grid(page), 'subject', 'Equals', filtered[0]);
  await expect.poll(async () => await subjectCells(page).allTextContents()).toContain(filtered[0]);
  expect((await subjectCells(page).allTextContents()).every((s) => s === filtered[0])).toBe(true);
  await clear.click();
  await expect(clear).toBeDisabled();

  // Sorting by subject changes the view: Reset view restores the initial one.
  const reset = page.getByRole('button', { name: 'Reset view' });
  await expect(reset).toBeDisabled();
  await grid(page).locator('.ag-header-cell[col-id="subject"] .ag-header-cell-label').click();
  await expect(reset).toBeEnabled();
  await expect
    .poll(async () => {
      const s = await subjectCells(page).allTextContents();
      return s.length > 1 && s.every((v, i) => i === 0 || s[i - 1].localeCompare(v) <= 0);
    })
    .toBe(true);
  await expectSavedView(page, ACME, 'emailList', (v) => v?.sortModel?.[0]?.colId === 'subject');
  await page.reload();
  await expect(reset).toBeEnabled();
  await reset.click();
  await expect(reset).toBeDisabled();
  await expect
    .poll(async () => {
      const d = await grid(page).locator('[role="gridcell"][col-id="date"]').allTextContents();
      return d.length > 1 && d.every((v, i) => i === 0 || d[i - 1] >= v);
    })
    .toBe(true);

  await expectNoSeriousViolations(page);
});

test('the detail page shows the fields and the body in a sandboxed frame', async ({ page }) => {
  await openEmails(page);
  const subject = (await subjectCells(page).first().textContent()) ?? '';
  const date = (await grid(page).locator('[role="gridcell"][col-id="date"]').first().textContent()) ?? '';
  await grid(page)
    .getByRole('link', { name: /^View e-mail/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/emails\/\d+(\?|$)/);
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(subject);
  await expect(page.getByLabel('Date', { exact: true })).toHaveValue(date);
  await expect(page.getByLabel('Customer Number', { exact: true })).toHaveValue('1000123');
  await expect(page.getByLabel('Customer Name', { exact: true })).toHaveValue('Acme Aerospace Inc.');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(/@acme\.example/);
  await expect(page.getByLabel('Subject', { exact: true })).toHaveAttribute('readonly', '');

  const frame = page.locator('iframe[title^="E-mail body"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().getByText('Dear Acme Aerospace Inc. licensing contact,')).toBeVisible();
  // The frame is cut off from the portal: it has an opaque origin and cannot see the portal's document.
  const isolated = await frame.evaluate((el: HTMLIFrameElement) => {
    try {
      return el.contentDocument === null && el.contentWindow?.document === undefined;
    } catch {
      return true;
    }
  });
  expect(isolated).toBe(true);
  // No edit or delete is offered.
  await expect(page.getByRole('button', { name: /delete|edit|save/i })).toHaveCount(0);

  // The body frame is checked above for isolation; axe cannot run inside a frame without scripts.
  const axe = await new AxeBuilder({ page })
    .include('[data-testid="email-detail-page"]')
    .options({ iframes: false })
    .setLegacyMode(true)
    .analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // An id that is not this customer's goes back to the list.
  await page.goto('/emails/999999999');
  await expect(page).toHaveURL(/\/emails(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Emails' })).toBeVisible();
});
