import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectNoSeriousViolations,
  expectSavedView,
  filterColumn,
  isDefaultView,
  openAccountPage,
} from './helpers.ts';

/*
 * The Audit Log page (issue 13 §1): a real change (an IP allow-list saved on Elastic IP Settings) shows up as an
 * entry, with its before/after in the drawer and in the CSV export; vendor staff switch to every account's log.
 * With the jobs on, the page shows the last signed checkpoint and its verdict (issue 20 §5, decision 044). That
 * viewers neither see nor open the page is a component test (web/src/app/left-menu.test.tsx,
 * web/src/features/audit/pages/audit-log-page.test.tsx).
 */
// Runs on a server with the jobs (playwright.config.ts, project 'jobs': the audit checkpoint at start); the
// notices they also write are not audited.

const AEROSPACE = '1000123';
const csrf = { 'x-lp-csrf': '1' };
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const grid = (page: Page) => page.getByRole('region', { name: 'Audit entries' });

/** Adds one rule on Elastic IP Settings and saves it: one 'ip-rules.changed' entry. */
async function saveIpRule(page: Page, name: string, address: string) {
  await page.goto('/whitelistips');
  await expect(page.getByRole('heading', { name: 'Elastic IP Settings' })).toBeVisible();
  await expect(page.getByTestId('ip-banner')).toBeVisible();
  const n = (await page.getByTestId('ip-rule-row').count()) + 1;
  await button(page, 'Add Rule').click();
  await page.getByLabel(`Rule Name of rule ${n}`, { exact: true }).fill(name);
  await page.getByLabel(`IP Address of rule ${n}`, { exact: true }).fill(address);
  await button(page, 'Save').click();
  await expect(page.getByTestId('success-panel')).toBeVisible();
}

async function openAuditLog(page: Page) {
  await page.getByRole('navigation').getByRole('link', { name: 'Audit Log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Log', level: 1 })).toBeVisible();
  await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
}

const cell = (page: Page, colId: string) => grid(page).locator(`.ag-row[row-index="0"] [col-id="${colId}"]`);

test('an administrator finds their IP rule change, its before/after, and exports it', async ({ page }) => {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/whitelistips');
  await saveIpRule(page, 'Audit office', '192.0.2.0/24');

  await openAuditLog(page);
  await expect(page.getByRole('switch', { name: 'All accounts' })).toHaveCount(0);
  await expect(grid(page).locator('.ag-header-cell[col-id="account"]')).toHaveCount(0);
  await filterColumn(grid(page), 'action', 'Equals', 'ip-rules.changed');
  await expect(grid(page).locator('.ag-row[row-index]')).toHaveCount(1);
  await expect(cell(page, 'actor')).toHaveText('admin@acme.example');
  await expect(cell(page, 'objectType')).toHaveText('ip-rules');
  await expect(cell(page, 'time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expectNoSeriousViolations(page);

  await cell(page, 'details')
    .getByRole('button', { name: /^Details: ip-rules\.changed at / })
    .click();
  const drawer = page.getByRole('dialog', { name: 'Audit entry' });
  await expect(drawer).toBeVisible();
  const facts = drawer.getByRole('table', { name: 'Entry' });
  await expect(facts.getByRole('row', { name: /^Account/ })).toHaveText(`Account${AEROSPACE}`);
  await expect(facts.getByRole('row', { name: /^Actor/ })).toHaveText('Actoradmin@acme.example (User)');
  await expect(facts.getByRole('row', { name: /^Request id/ })).not.toHaveText('Request id—');
  await expect(facts.getByRole('row', { name: /^Client address/ })).not.toHaveText('Client address—');
  const change = drawer.getByRole('table', { name: 'Changed fields' }).getByRole('row', { name: /^rules/ });
  await expect(change.getByRole('cell').nth(2)).toContainText('192.0.2.0/24');
  await expect(change.getByRole('cell').nth(1)).not.toContainText('192.0.2.0/24');
  await expectNoSeriousViolations(page);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  const downloading = page.waitForEvent('download');
  await button(page, 'Export as csv file').click();
  const download = await downloading;
  const today = new Date().toISOString().slice(0, 10);
  expect(download.suggestedFilename()).toBe(`AuditLog_${AEROSPACE}_${today}.csv`);
  const lines = fs.readFileSync((await download.path()) as string, 'utf8').split('\r\n');
  expect(lines[0]).toBe(
    'Time (UTC),Actor,Actor type,Action,Object type,Object,Before,After,Request id,Client address',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('admin@acme.example,user,ip-rules.changed,ip-rules');
  expect(lines[1]).toContain('192.0.2.0/24');

  // The filter is the saved view; a filter matching nothing says so; Clear filters brings the entry back.
  await expectSavedView(page, AEROSPACE, 'auditLog', (v) => !!v?.filterModel?.action);
  await filterColumn(grid(page), 'objectId', 'Equals', 'nothing-here');
  await expect(page.getByText('No audit entries to display.')).toBeVisible();
  await button(page, 'Clear filters').click();
  await expect(page.getByText('No audit entries to display.')).toBeHidden();
  await expect(cell(page, 'action')).not.toBeEmpty();
  // A sort is part of the view too; Reset view goes back to newest first.
  await expect(button(page, 'Reset view')).toBeDisabled();
  await grid(page).locator('.ag-header-cell[col-id="action"] .ag-header-cell-label').click();
  await expectSavedView(
    page,
    AEROSPACE,
    'auditLog',
    (v) => !!v?.sortModel?.some((s) => s.colId === 'action'),
  );
  await button(page, 'Reset view').click();
  await expectSavedView(page, AEROSPACE, 'auditLog', isDefaultView);
});

test('vendor staff switch to every account, each row naming its account', async ({ page }) => {
  await openAccountPage(page, 'busops@demo.example', 'Acme Aerospace Inc.', '/whitelistips');
  await saveIpRule(page, 'Staff office', '198.51.100.0/24');
  await openAuditLog(page);
  await page.getByRole('switch', { name: 'All accounts' }).click();
  await expect(grid(page).locator('.ag-header-cell[col-id="account"]')).toBeVisible();
  await expect(grid(page)).toHaveAttribute('aria-busy', 'false');
  await filterColumn(grid(page), 'action', 'Equals', 'ip-rules.changed');
  await filterColumn(grid(page), 'actor', 'Equals', 'busops@demo.example');
  await expect(cell(page, 'account')).toHaveText(AEROSPACE);
  await expect(cell(page, 'action')).toHaveText('ip-rules.changed');
});

test('the page shows the last checkpoint and that verification passed', async ({ page }) => {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/elastic');
  // The checkpoint job runs when the server starts: wait for its first checkpoint.
  await expect
    .poll(async () => {
      const answer = await page.request.post('/api/audit/checkpoint-status', {
        data: { customerNumber: AEROSPACE },
        headers: csrf,
      });
      return (await answer.json()).data?.lastCheckpoint ?? null;
    })
    .not.toBeNull();
  await openAuditLog(page);
  const status = page.getByRole('status', { name: 'Audit checkpoints' });
  await expect(status).toContainText(/Last checkpoint: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  await expect(status).toContainText('Verification passed');
  await expect(status).toContainText(/checked \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  await expectNoSeriousViolations(page);
});
