import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import LeasesPage from './leases-page.tsx';

/*
 * /ssl (spec 002 §6; issue 21): the customers the page sends to a notice. The browser test
 * (e2e/tests/leases.spec.ts) keeps the tables' journeys. The menu's rule is navigation.test.ts's ("shows
 * Leases/Perpetuals exactly when the page and the server allow it"); the server's refusals are
 * server/src/features/entitlements/leases.api.test.ts's; no selected customer (/noselectedcustomer) and an
 * export-blocked pick (/noaccess) are the shell's (e2e/tests/shell-notices.spec.ts, shell.spec.ts).
 */

const leasesCalls = (calls: string[]) => calls.filter((c) => c.includes('/api/fetchEntitlements'));

describe('leases page', () => {
  it('a customer of type Undefined goes to /notypecustomer and no leases are fetched', async () => {
    const view = renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: testAccount({ orgType: 'Undefined', isPortalEdit: true, hasSSL: 1 }),
    });
    expect(
      await screen.findByText('The selected customer needs to be either a direct or channel customer.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/notypecustomer');
    expect(screen.queryByTestId('leases-page')).toBeNull();
    expect(leasesCalls(view.calls)).toEqual([]);
  });

  it('a license generator without self-serve licensing goes to /nopermissions and no leases are fetched', async () => {
    const view = renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: testAccount({ isFNPLicenseGenerator: true, hasSSL: 1 }),
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
    expect(screen.queryByTestId('leases-page')).toBeNull();
    expect(leasesCalls(view.calls)).toEqual([]);
  });
});
