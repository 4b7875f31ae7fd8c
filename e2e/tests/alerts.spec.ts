import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { accountBox, expectNoSeriousViolations, signIn } from './helpers.ts';

/*
 * Service alerts (spec 000 §2.12, §4.3): the journeys from created alerts to the banner and through the alert
 * screens, and the staff admin page. The resolved grid's empty text, unknown ids, the refresh rules and users left on
 * a notice page are component tests (web/src/features/alerts/pages/notifications-page.test.tsx).
 * Alerts are global, so every test first brings the alert state it needs about through a busops
 * session's API calls (the same calls the admin page makes).
 */

const CUSTOMER = 'admin@acme.example';
const STAFF = 'busops@demo.example';

interface AlertBody {
  category: 'OK' | 'INFO' | 'WARNING' | 'CRITICAL';
  service: string[];
  description: string;
  date?: string;
  expires?: string | null;
  links?: Record<string, string>;
}

/** A busops session's API (cookie + anti-CSRF header), for arranging alerts. */
async function staffApi(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, STAFF);
  const request: APIRequestContext = context.request;
  const headers = { 'x-lp-csrf': '1' };
  return {
    async create(body: AlertBody): Promise<number> {
      const res = await request.post('/api/notifications/admin', { headers, data: body });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()).data.id;
    },
    async resolve(id: number) {
      const res = await request.post(`/api/notifications/admin/${id}/resolve`, { headers });
      expect(res.status()).toBe(200);
    },
    async resolveAllActive() {
      const res = await request.get('/api/notifications', { headers });
      for (const a of (await res.json()).data as { id: number }[]) await this.resolve(a.id);
    },
    close: () => context.close(),
  };
}

/** Opens a page afresh (a new start = a sign-in refresh of the alerts) and waits for the alert list. */
async function openFresh(page: Page, path: string) {
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/notifications') && r.request().method() === 'GET',
  );
  await page.goto(path);
  await answered;
}

const banner = (page: Page) => page.getByTestId('alerts-banner');

// The banner's states (nothing, one alert of each kind, several, closed) are component tests
// (web/src/features/alerts/components/alerts-banner.test.tsx); here the journey from alerts staff create.
test('alerts staff create reach the banner on the next start, whose See All opens the active alerts', async ({
  page,
  browser,
}) => {
  const staff = await staffApi(browser);
  await staff.resolveAllActive();
  await signIn(page, CUSTOMER);
  await openFresh(page, '/elastic');
  await expect(accountBox(page)).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await openFresh(page, '/notifications');
  await expect(page.getByText('No issues', { exact: true })).toBeVisible();

  await staff.create({
    category: 'CRITICAL',
    service: ['E2E Portal'],
    description: 'Sign-in outage',
    date: '2026-01-01T08:05:00Z',
    expires: '2099-01-01T18:00:00Z',
  });
  await openFresh(page, '/elastic');
  await expect(banner(page)).toHaveAttribute('data-category', 'CRITICAL');
  await expect(banner(page)).toContainText(
    'E2E Portal: Sign-in outage from 2026-01-01 8:05 to 2099-01-01 18:00.',
  );
  await expectNoSeriousViolations(page);

  await staff.create({ category: 'INFO', service: ['E2E Licensing', 'E2E Portal'], description: 'Upgrade' });
  await openFresh(page, '/elastic');
  await expect(banner(page)).toHaveAttribute('data-category', 'MULTIPLE');
  await expect(banner(page)).toContainText('Multiple items affecting E2E Portal and E2E Licensing.');
  await banner(page).getByRole('link', { name: 'See All' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('tab', { name: 'Active' })).toHaveAttribute('aria-selected', 'true');
  await staff.close();
});

test('the alert screens: cards, category list, details and the resolved grid', async ({ page, browser }) => {
  const staff = await staffApi(browser);
  await staff.resolveAllActive();
  const outage = await staff.create({
    category: 'CRITICAL',
    service: ['E2E Solver Cloud'],
    description: 'Cloud solver jobs fail to start',
    date: new Date(Date.now() - (2 * 60 + 5) * 60_000).toISOString(),
    expires: '2099-06-01T12:00:00Z',
    links: { 'Status page': 'https://status.example.com/e2e' },
  });
  await staff.create({ category: 'OK', service: ['E2E Docs'], description: 'New documentation site' });
  const done = await staff.create({
    category: 'WARNING',
    service: ['E2E Resolved Service'],
    description: 'E2E resolved degradation',
    date: new Date(Date.now() - 10 * 60_000).toISOString(),
  });
  await staff.resolve(done);

  await signIn(page, CUSTOMER);
  await openFresh(page, '/notifications');
  const outageCard = page.getByRole('region', { name: 'Outage' });
  await expect(outageCard).toContainText('1 item');
  await expect(outageCard).toContainText('Affected services: E2E Solver Cloud');
  await expect(page.getByRole('region', { name: 'Information' })).toContainText('E2E Docs');
  await expect(page.getByRole('region', { name: 'Service Degradation' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  await outageCard.getByRole('link', { name: 'See all' }).click();
  await expect(page).toHaveURL(/\/notifications-category\/critical$/);
  await expect(page.getByRole('heading', { name: 'Outage Alerts' })).toBeVisible();
  const item = page.getByRole('article', { name: `Alert ${outage}` });
  await expect(item).toContainText('Cloud solver jobs fail to start');
  await expect(item).toContainText('E2E Solver Cloud');
  await expect(item).toContainText(/2 Hours [45] Minutes ago/);
  await expect(item).toContainText('2099-06-01 12:00');
  await expectNoSeriousViolations(page);

  await item.getByRole('link', { name: 'Details' }).click();
  await expect(page).toHaveURL(new RegExp(`/notification-details/${outage}$`));
  await expect(page.getByRole('heading', { name: 'Alert Details' })).toBeVisible();
  await expect(page.getByText('Cloud solver jobs fail to start')).toBeVisible();
  await expect(page.getByText('See More')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Status page' })).toHaveAttribute(
    'href',
    'https://status.example.com/e2e',
  );
  await expectNoSeriousViolations(page);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/notifications$/);

  await page.getByRole('tab', { name: 'Resolved' }).click();
  const grid = page.getByRole('region', { name: 'Resolved alerts' });
  for (const header of ['Start Time', 'End Time', 'Alert Title', 'Category', 'Affected Service', 'Details']) {
    await expect(grid.getByRole('columnheader', { name: header })).toBeVisible();
  }
  const row = grid.getByRole('row', { name: /E2E resolved degradation/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('E2E Resolved Service');
  await expect(row).toContainText('Service degradation');
  await expect(page.getByText('There are no resolved alerts to display.')).toHaveCount(0);
  await expectNoSeriousViolations(page);
  await row.getByRole('link', { name: 'View' }).click();
  await expect(page).toHaveURL(new RegExp(`/notification-details/${done}$`));
  await expect(page.getByText('E2E resolved degradation')).toBeVisible();
  await staff.close();
});

test('only vendor staff manage alerts: create, edit and resolve on /notifications-admin', async ({
  page,
  browser,
}) => {
  await signIn(page, CUSTOMER);
  await page.goto('/notifications-admin');
  await expect(page.getByText('You do not have enough permissions to view this page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);
  await expectNoSeriousViolations(page);

  const context = await browser.newContext();
  const staffPage = await context.newPage();
  await signIn(staffPage, STAFF);
  await staffPage.goto('/notifications-admin');
  await expect(staffPage.getByRole('heading', { name: 'Manage service alerts' })).toBeVisible();
  // Typed at once: the shell's automatic account selection lands meanwhile and must not empty the fields.
  const form = staffPage.getByRole('region', { name: 'New alert' });
  await form.getByLabel('Affected services').fill('E2E Admin A, E2E Admin B');
  await form.getByLabel('Description').fill('E2E admin-created alert');
  await form.getByLabel('Links').fill('Runbook = https://example.com/runbook');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(staffPage.getByText('Alert created.')).toBeVisible();
  const row = staffPage.getByRole('row', { name: /E2E admin-created alert/ });
  await expect(row).toContainText('E2E Admin A and E2E Admin B');
  await expect(row).toContainText('Active');
  await expectNoSeriousViolations(staffPage);

  await row.getByRole('button', { name: 'Edit' }).click();
  const editForm = staffPage.getByRole('region', { name: /Edit alert/ });
  await editForm.getByLabel('Description').fill('E2E admin-edited alert');
  await editForm.getByRole('button', { name: 'Save' }).click();
  await expect(staffPage.getByText('Alert saved.')).toBeVisible();
  const edited = staffPage.getByRole('row', { name: /E2E admin-edited alert/ });
  await expect(edited).toBeVisible();

  // The customer sees the new alert in the active list.
  await openFresh(page, '/notifications-category/warning');
  await expect(page.getByText('E2E admin-edited alert')).toBeVisible();

  await edited.getByRole('button', { name: 'Resolve' }).click();
  await expect(edited).toContainText('Resolved');
  await expect(edited.getByRole('button', { name: 'Resolve' })).toBeDisabled();
  await openFresh(page, '/notifications-category/warning');
  await expect(page.getByRole('heading', { name: 'Service Degradation Alerts' })).toBeVisible();
  await expect(page.getByText('E2E admin-edited alert')).toHaveCount(0);
  await context.close();
});
