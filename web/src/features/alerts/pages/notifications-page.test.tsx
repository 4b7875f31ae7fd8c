import type { Alert } from '@lp/contract/alerts/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { portalAccount, renderPortal, useWholeAppTimeouts } from '../../../../test/portal.tsx';
import { withFields } from '../../../../test/render.tsx';

/*
 * The alert screens in the whole portal (spec 000 §2.12, §4.3): the resolved grid's empty text, unknown category
 * and alert ids, the refresh rules (decision 008) and users left on a notice page. The browser keeps the journeys
 * from created alerts to the banner and through the screens, and the staff page (e2e/tests/alerts.spec.ts); what
 * the server lets these users read is alerts.api.test.ts's.
 */

vi.mock('../../entitlements/pages/entitlements-page.tsx', () => ({
  default: () => <h1>Elastic Licensing</h1>,
}));

const customer: CurrentUser = { email: 'admin@acme.example', name: 'Acme Admin', roles: ['user'] };
const aerospace = portalAccount('1000123', 'Acme Aerospace Inc.', { hasElastic: 1, isPortalEdit: true });

const alert = (a: Pick<Alert, 'id' | 'category' | 'description'>): Alert => ({
  status: 'ACTIVE',
  date: '2026-01-01T08:05:00Z',
  expires: null,
  service: ['E2E Reach'],
  links: {},
  ...a,
});
const outage = alert({ id: 41, category: 'CRITICAL', description: 'Reach outage' });
const info = alert({ id: 42, category: 'INFO', description: 'Reach info' });

describe('alert screens', { timeout: 120_000 }, () => {
  useWholeAppTimeouts();
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the resolved grid says so when nothing matches', async () => {
    const view = renderPortal('/notifications', {
      user: customer,
      accounts: [aerospace],
      answers: {
        'GET /api/featureflag/pref': [],
        'POST /api/notifications': withFields([], { token: null }),
        'POST /api/notifications/count': 0,
      },
    });
    await userEvent.click(await screen.findByRole('tab', { name: 'Resolved' }, { timeout: 30_000 }));
    expect(
      await screen.findByText('There are no resolved alerts to display.', {}, { timeout: 20_000 }),
    ).toBeInTheDocument();
    expect(view.calls).toContain('POST /api/notifications');
  });

  it('unknown category and alert ids', async () => {
    const category = renderPortal('/notifications-category/severe', {
      user: customer,
      accounts: [aerospace],
    });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(category.location()).toBe('/error/404');
    category.unmount();

    renderPortal('/notification-details/987654321', {
      user: customer,
      accounts: [aerospace],
      answers: { 'POST /api/notifications': withFields([], { token: null }) },
    });
    expect(await screen.findByText('This alert does not exist.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Alert Details' })).toBeInTheDocument();
  });

  it('alerts refresh on navigation at most once a minute, and every 15 minutes', async () => {
    // The clock and the 15-minute interval are the test's; the rest of the app's timers run as usual.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const reads = { started: 0, open: 0 };
    const view = renderPortal('/notifications', {
      user: customer,
      accounts: [aerospace],
      answers: { 'GET /api/notifications': [outage] },
      wrapFetch: (served) => async (input, init) => {
        const read = (init?.method ?? 'GET') === 'GET' && String(input).endsWith('/api/notifications');
        if (read) {
          reads.started += 1;
          reads.open += 1;
        }
        try {
          return await served(input, init);
        } finally {
          if (read) reads.open -= 1;
        }
      },
    });
    // The page's card (a single alert's banner is named after its category too).
    const outageCard = async () =>
      within(await screen.findByTestId('alerts-page', {}, { timeout: 30_000 })).findByRole('region', {
        name: 'Outage',
      });
    expect(await outageCard()).toBeInTheDocument();
    await expect.poll(() => reads.open).toBe(0);
    const afterStart = reads.started;

    // Navigating within the minute reuses the last answer.
    await userEvent.click(within(await outageCard()).getByRole('link', { name: 'See all' }));
    expect(await screen.findByRole('heading', { name: 'Outage Alerts' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('tab', { name: 'Active' })).toBeInTheDocument();
    expect(view.location()).toBe('/notifications');
    expect(reads.started).toBe(afterStart);

    // A minute later, a navigation fetches again.
    vi.advanceTimersByTime(65_000);
    await userEvent.click(within(await outageCard()).getByRole('link', { name: 'See all' }));
    await expect.poll(() => reads.started).toBe(afterStart + 1);
    await expect.poll(() => reads.open).toBe(0);

    // Without navigating, the 15-minute interval fetches.
    vi.advanceTimersByTime(15 * 60_000 + 5_000);
    await expect.poll(() => reads.started).toBeGreaterThan(afterStart + 1);
  });

  for (const [who, accounts, notice] of [
    // No accounts: /nocustomer; the only account export-denied: /noaccess.
    [{ email: 'newhire@acme.example', name: 'New Hire', roles: ['user'] }, [], '/nocustomer'],
    [
      { email: 'cad@tailspin.example', name: 'Tailspin CAD', roles: ['user'] },
      [portalAccount('1000130', 'Tailspin Defense Systems Corp.', { exportControlStatus: 'Denied' })],
      '/noaccess',
    ],
  ] as const) {
    it(`a user left on ${notice} reaches every alert screen (alerts are not account-scoped)`, async () => {
      const answers = {
        'GET /api/notifications': [outage, info],
        'POST /api/notifications': withFields([{ ...info, resolved: false }], { token: null }),
      };
      const user = { ...who, roles: [...who.roles] };
      const start = renderPortal('/elastic', { user, accounts: [...accounts], answers });
      await expect.poll(start.location, { timeout: 20_000 }).toBe(notice);
      const banner = await screen.findByTestId('alerts-banner');
      await userEvent.click(within(banner).getByRole('link', { name: 'See All' }));
      await expect.poll(start.location).toBe('/notifications');
      expect(await screen.findByRole('tab', { name: 'Active', selected: true })).toBeInTheDocument();
      start.unmount();
      // Opened afresh (reload, typed URL), each alert screen stays where it is.
      for (const [path, heading] of [
        ['/notifications', 'Outage'],
        ['/notifications-category/critical', 'Outage Alerts'],
        [`/notification-details/${info.id}`, 'Alert Details'],
      ] as const) {
        const view = renderPortal(path, { user, accounts: [...accounts], answers, fresh: false });
        expect((await screen.findAllByRole('heading', { name: heading }))[0]).toBeInTheDocument();
        if (path.startsWith('/notification-details'))
          expect(await screen.findByText('Reach info')).toBeInTheDocument();
        // The automatic selection has run: the notice is known, and the page stays.
        await expect.poll(() => view.calls).toContain('POST /api/getaccounts/count');
        expect(view.location()).toBe(path);
        view.unmount();
      }
    });
  }
});
