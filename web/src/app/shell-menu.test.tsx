import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { portalAccount, renderPortal, useWholeAppTimeouts } from '../../test/portal.tsx';
import { refused, withFields } from '../../test/render.tsx';

/*
 * The shell's menu, crumbs and footer (spec 000 §2.3, §2.4, §8) in the whole portal: the footer without build
 * information, the crumbs of web-assignments' sub-paths, the Web menu's Transactions, a customer user's groups.
 * The browser keeps the groups following the account's flags and the menu's widths (e2e/tests/shell-menu.spec.ts).
 */

vi.mock('../features/entitlements/pages/entitlements-page.tsx', () => ({
  default: () => <h1>Elastic Licensing</h1>,
}));
vi.mock('../features/web-directory/pages/web-groups-page.tsx', () => ({ default: () => <p>Groups page</p> }));
vi.mock('../features/portal-access/pages/portal-access-page.tsx', () => ({
  default: () => <p>Portal access page</p>,
}));

const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };
const aerospace = portalAccount('1000123', 'Acme Aerospace Inc.', {
  hasElastic: 1,
  hasSharedLicense: 1,
  hasNamedLicense: 1,
  hasSSL: 1,
  isPortalEdit: true,
});
const menu = () => screen.findByRole('navigation', { name: 'Main menu' });
const crumbs = () => screen.getByRole('navigation', { name: 'Breadcrumb' });

describe('shell menu, crumbs and footer', { timeout: 120_000 }, () => {
  useWholeAppTimeouts();

  it('without build information the footer stays empty and the failure is logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      renderPortal('/elastic', {
        user: busops,
        accounts: [aerospace],
        answers: { 'GET /api/getBuildInfo': refused(500, 'boom') },
      });
      expect(await screen.findByRole('link', { name: 'Privacy Notice' })).toBeInTheDocument();
      await expect
        .poll(() => warn.mock.calls.some(([text]) => String(text).includes('Could not get build info')))
        .toBe(true);
      // The footer is drawn again from the settled answer: the menu folded and opened remounts it.
      await userEvent.click(screen.getByRole('button', { name: 'Collapse menu' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Expand menu' }));
      expect(await screen.findByRole('link', { name: 'Privacy Notice' })).toBeInTheDocument();
      expect(screen.queryByTestId('build-info')).toBeNull();
    } finally {
      warn.mockRestore();
    }
  });

  it('web-assignments sub-paths give one crumb per segment, the last one plain', async () => {
    const view = renderPortal('/web-assignments/groups/users', { user: busops, accounts: [aerospace] });
    expect(await screen.findByText('Groups page')).toBeInTheDocument();
    expect(crumbs()).toHaveTextContent(/^Web>Assignments>Groups>Users$/);
    expect(within(crumbs()).getByRole('link', { name: 'Groups' })).toHaveAttribute(
      'href',
      '/web-assignments/groups',
    );
    expect(within(crumbs()).queryByRole('link', { name: 'Users' })).toBeNull();
    await userEvent.click(within(crumbs()).getByRole('link', { name: 'Groups' }));
    await expect.poll(view.location).toMatch(/^\/web-assignments\/groups(\?|$)/);
    expect(crumbs()).toHaveTextContent(/^Web>Assignments>Groups$/);
    await view.router.navigate('/portalaccess');
    expect(await screen.findByText('Portal access page')).toBeInTheDocument();
    expect(crumbs()).toHaveTextContent(/^Settings>Licensing Portal Access$/);
  });

  it('the Web menu’s Transactions opens Web Transactions with breadcrumbs', async () => {
    const view = renderPortal('/elastic', {
      user: busops,
      accounts: [aerospace],
      answers: {
        'GET /api/featureflag/pref': [],
        'POST /api/web/transactions/as-of': { asOf: '2026-11-03 12:30:00' },
        'POST /api/web/transactions': withFields([], { token: null }),
        'POST /api/web/transactions/count': 0,
        'GET /api/lastupdatedon': withFields(undefined, { lastUpdatedOn: '2026-11-20 10:00:00' }),
        'POST /api/fetchUsage': withFields([], { token: null }),
        'POST /api/fetchUsage/count': 0,
      },
    });
    await userEvent.click(await within(await menu()).findByRole('link', { name: 'Transactions' }));
    await expect.poll(view.location).toMatch(/^\/web-transactions(\?|$)/);
    expect(await screen.findByRole('heading', { name: 'Web Transactions' })).toBeInTheDocument();
    expect(await screen.findByText(/^Data as of /)).toBeInTheDocument();
    expect(crumbs()).toHaveTextContent(/^Web>Transactions$/);
    expect(within(crumbs()).getByRole('link', { name: 'Web' })).toHaveAttribute('href', '/web-assignments');
    expect(within(crumbs()).queryByRole('link', { name: 'Transactions' })).toBeNull();

    await userEvent.click(within(await menu()).getByRole('link', { name: 'Usage Transactions' }));
    await expect.poll(view.location).toMatch(/^\/transactions(\?|$)/);
    expect(await screen.findByRole('heading', { name: 'Usage Transactions' })).toBeInTheDocument();
    expect(crumbs()).toHaveTextContent(/^Elastic Reporting>Usage Transactions$/);
  });

  it('a customer user without web licenses or staff role sees no Web or staff group', async () => {
    const admin: CurrentUser = { email: 'admin@northwind.example', name: 'Northwind Admin', roles: ['user'] };
    const northwind = portalAccount('1000125', 'Northwind Turbines Inc.', {
      hasElastic: 1,
      isPortalEdit: true,
    });
    renderPortal('/elastic', { user: admin, accounts: [northwind] });
    expect(await within(await menu()).findByRole('link', { name: 'Elastic Statements' })).toBeInTheDocument();
    expect(within(await menu()).queryByRole('button', { name: 'Web' })).toBeNull();
    expect(within(await menu()).queryByRole('link', { name: 'Manage Alerts' })).toBeNull();
    // The developer settings are for vendor staff only.
    expect(within(await menu()).queryByRole('button', { name: 'Developer Settings' })).toBeNull();
  });
});
