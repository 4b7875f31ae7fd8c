import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoSeriousViolations, openAccountPage } from './helpers.ts';

/*
 * /web-assignments (decision 071 "Pages"): an account administrator's journey through the three tabs: a pool's
 * policy edited, a person invited after the server's preview, a named seat assigned after it, the groups shown. The variants (view-only,
 * refusals, previews, empty lists, export denial) are component tests beside the pages
 * (web/src/features/web-seats/pages/web-entitlements-page.test.tsx, web/src/features/web-directory/pages/
 * web-users-page.test.tsx and web-groups-page.test.tsx); the server's rules are the web-seats, web-directory and
 * web-sessions API tests.
 */

const ACME = '1000123';
const csrf = { 'x-lp-csrf': '1' };
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

interface Pool {
  partNumber: string;
  productName: string;
  kind: 'named' | 'shared';
  policy: { heartbeatWindowSeconds: number; idleTimeoutSeconds: number; sessionsPerUser: number };
}

async function post<T>(page: Page, path: string, data: object): Promise<T> {
  const res = await page.request.post(path, { data, headers: csrf });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data as T;
}

test('an administrator edits a pool policy, invites a person and assigns them a named seat', async ({
  page,
}) => {
  await openAccountPage(page, 'admin@acme.example', 'Acme Aerospace Inc.', '/web-assignments');
  await expect(page.getByRole('heading', { name: 'Web Assignments' })).toBeVisible();
  await expect(crumbs(page)).toHaveText('Web>Assignments');

  // The account's named pool, its policy back at the defaults (set up through the API).
  const pools = await post<Pool[]>(page, '/api/web/pools', { customerNumber: ACME });
  const named = pools.find((p) => p.kind === 'named');
  expect(named, 'Acme Aerospace has a Named User pool in the demo data').toBeDefined();
  const pool = named as Pool;
  await post(page, '/api/web/pools/policy', {
    customerNumber: ACME,
    partNumber: pool.partNumber,
    policy: { heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 },
  });
  await page.reload();

  // Entitlements: the policy of the named pool.
  const poolsGrid = page.getByRole('region', { name: 'Web seat pools table' });
  const poolRow = poolsGrid.locator('.ag-row').filter({ hasText: pool.partNumber }).first();
  await expect(poolRow).toContainText('Heartbeat 5 min, idle 15 min, 1 session per user');
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: `Edit policy of ${pool.productName}` }).click();
  const policy = page.getByRole('dialog', { name: 'Edit policy' });
  await policy.getByRole('textbox', { name: 'Sessions per user' }).fill('2');
  await expectNoSeriousViolations(page, '[role="dialog"]');
  await policy.getByRole('button', { name: 'Save' }).click();
  await expect(policy).toBeHidden();
  await expect(poolRow).toContainText('Heartbeat 5 min, idle 15 min, 2 sessions per user');

  // Users: invite one person, the server's preview first.
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\/web-assignments\/users\?account=1000123$/);
  await expect(crumbs(page)).toHaveText('Web>Assignments>Users');
  const email = `web-journey-${Date.now()}@acme-aerospace.example`;
  await page.getByRole('button', { name: 'Invite users' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite users' });
  await invite.getByRole('textbox', { name: 'E-mail addresses' }).fill(email);
  await invite.getByRole('button', { name: 'Preview' }).click();
  await expect(invite.getByTestId('preview-text')).toHaveText(/This change invites 1 user\. Save it\?/);
  await expectNoSeriousViolations(page, '[role="dialog"]');
  await invite.getByRole('button', { name: 'Save' }).click();
  await expect(invite).toBeHidden();
  const usersGrid = page.getByRole('region', { name: 'Web users table' });
  const person = usersGrid.locator('.ag-row').filter({ hasText: email });
  await expect(person.first()).toContainText('Invited');
  await expectNoSeriousViolations(page);

  // A named seat of the pool, confirmed with the server's preview.
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page.getByRole('menuitem', { name: 'Assign seat', exact: true }).click();
  const seat = page.getByRole('dialog', { name: `Assign a seat to ${email}` });
  await seat.getByLabel('Named pool', { exact: true }).click();
  await page.getByRole('option', { name: `${pool.productName} (${pool.partNumber})` }).click();
  await seat.getByRole('button', { name: 'Assign' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm' });
  await expect(confirm).toContainText(`This change assigns 1 user to ${pool.productName}. Save it?`);
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(person.first().locator('[col-id="directSeats"]')).toHaveText(pool.partNumber);

  // Groups: the directory's groups.
  await page.getByRole('tab', { name: 'Groups' }).click();
  await expect(crumbs(page)).toHaveText('Web>Assignments>Groups');
  await expect(page.getByRole('region', { name: 'Web groups table' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create group' })).toBeVisible();
  await expectNoSeriousViolations(page);

  // The pool counts the seat.
  await page.getByRole('tab', { name: 'Entitlements' }).click();
  await expect(crumbs(page)).toHaveText('Web>Assignments>Entitlements');
  await expect(poolRow).toBeVisible();
  const after = await post<Array<Pool & { assigned: number }>>(page, '/api/web/pools', {
    customerNumber: ACME,
  });
  expect(after.find((p) => p.partNumber === pool.partNumber)?.assigned).toBeGreaterThanOrEqual(1);
});
