import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../../../test/account-page.tsx';
import { accountBox, portalAccount, renderPortal, useWholeAppTimeouts } from '../../../../test/portal.tsx';

/*
 * The top bar's user and help menus (spec 000 §2.2, §6) in the whole portal: initials, the role label for the
 * selected account (kept across a reload), the configured external pages. The browser keeps signing out
 * (e2e/tests/shell.spec.ts); the role flags are the server's (accounts.api.test.ts).
 */

vi.mock('../../entitlements/pages/entitlements-page.tsx', () => ({
  default: () => <h1>Elastic Licensing</h1>,
}));

const aerospace = portalAccount('1000123', 'Acme Aerospace Inc.', { hasElastic: 1, isPortalView: true });

const openUserMenu = async () =>
  userEvent.click(await screen.findByRole('button', { name: /: User menu for / }));

describe('user and help menus', { timeout: 120_000 }, () => {
  useWholeAppTimeouts();

  it('user initials drop the (External) tag', async () => {
    const jamie: CurrentUser = {
      email: 'jamie.rivera@proseware.example',
      name: 'Jamie Rivera (External)',
      roles: ['user'],
    };
    renderPortal('/elastic', { user: jamie, accounts: [aerospace] });
    await openUserMenu();
    expect(screen.getByRole('button', { name: /^JR: User menu for/ })).toHaveTextContent(/^JR$/);
    expect(await screen.findByText('jamie.rivera@proseware.example')).toBeInTheDocument();
  });

  it('a viewer sees the viewer role label and the selection survives a reload', async () => {
    const engineer: CurrentUser = { email: 'engineer@acme.example', name: 'Acme Engineer', roles: ['user'] };
    const first = renderPortal('/elastic', { user: engineer, accounts: [aerospace] });
    await expect.poll(() => accountBox().value).toMatch(/Acme Aerospace Inc\./);
    await openUserMenu();
    expect(await screen.findByTestId('role-label')).toHaveTextContent(/^\(Portal Viewer Role\)$/);
    first.unmount();

    // A reload restores the saved selection: no account list is read.
    const again = renderPortal('/elastic', { user: engineer, accounts: [aerospace], fresh: false });
    await expect.poll(() => accountBox().value).toMatch(/Acme Aerospace Inc\./);
    expect(again.calls).not.toContain('POST /api/getaccounts');
  });

  it('help and user menus open the configured external pages in a new tab', async () => {
    const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };
    renderPortal('/elastic', {
      user: busops,
      accounts: [aerospace],
      config: {
        ...testConfig,
        documentationUrl: 'https://example.com/docs',
        supportRequesturl: 'https://example.com/support',
        editprofileurl: 'https://example.com/profile',
        privacyUrl: 'https://example.com/privacy',
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Help' }));
    const docs = await screen.findByRole('menuitem', { name: 'Documentation', hidden: true });
    expect(docs).toHaveAttribute('href', 'https://example.com/docs');
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs).toHaveAttribute('rel', expect.stringMatching(/noopener/));
    expect(screen.getByRole('menuitem', { name: 'Get support', hidden: true })).toHaveAttribute(
      'href',
      'https://example.com/support',
    );
    await userEvent.keyboard('{Escape}');
    await openUserMenu();
    const manage = await screen.findByRole('menuitem', { name: 'Manage your vendor account', hidden: true });
    expect(manage).toHaveAttribute('href', 'https://example.com/profile');
    expect(manage).toHaveAttribute('target', '_blank');
    await userEvent.keyboard('{Escape}');
    // Footer: build information and the privacy notice.
    expect(await screen.findByTestId('build-info')).toHaveTextContent(/Licensing Portal/);
    expect(screen.getByRole('link', { name: 'Privacy Notice' })).toHaveAttribute(
      'href',
      'https://example.com/privacy',
    );
  });
});
