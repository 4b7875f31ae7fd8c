import { messages } from '@lp/contract/common/errors';
import type { FsaContract } from '@lp/contract/fsa/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import FsaPage from './fsa-page.tsx';

/*
 * /entitlementsFSA (spec 002 §2 "FSA page", §1): an account without an active contract, and refused reads going
 * to their notices. The browser test (e2e/tests/fsa.spec.ts) keeps the grids, the history and the exports. That
 * the server refuses an export-denied account's reads is server/src/features/fsa/fsa.api.test.ts's; no selected
 * customer (/noselectedcustomer) is the shell's (e2e/tests/shell-notices.spec.ts).
 */

/** A used-up contract: inactive by the server's classification (spec 002 §4). */
const usedUp = (entitlementId: string): FsaContract => ({
  entitlementId,
  orderId: `O-${entitlementId}`,
  poNumber: null,
  startDate: '2025-01-01',
  endDate: '2025-12-31',
  currency: 'USD',
  budgetCents: 100_000,
  usedCents: 100_000,
  remainingCents: 0,
  usedPercentage: 100,
  remainingdays: 'EXPIRED',
  usedDays: 365,
  usedDaysPercentage: 100,
  colours: { remainingdays: 'red', usedpercentage: 'red' },
  active: false,
  busopsEmails: [],
  lastOrderedAt: null,
  hasProducts: true,
  dailySpend: [],
});

const account = testAccount({ hasFSA: 1, isPortalEdit: true });

describe('FSA page', () => {
  it('says when no contract is active and lists the inactive ones', async () => {
    renderAccountPage(<FsaPage />, {
      path: '/entitlementsFSA',
      account,
      answers: {
        'POST /api/fsa/contracts': [usedUp('FSA-OLD-1'), usedUp('FSA-OLD-2')],
        'GET /api/featureflag/pref': [],
      },
    });
    expect(
      await screen.findByText('Account does not have any active entitlements.', {}, { timeout: 20_000 }),
    ).toBeInTheDocument();
    const inactive = await screen.findByRole(
      'region',
      { name: 'Inactive Entitlements table' },
      { timeout: 20_000 },
    );
    expect(await within(inactive).findByText('FSA-OLD-2', {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(within(inactive).getByText('FSA-OLD-1')).toBeInTheDocument();
    const active = screen.getByRole('region', { name: 'Active Entitlements table' });
    expect(within(active).queryByText(/FSA-OLD/)).toBeNull();
  });

  it('a read refused by export control goes to /noaccess', async () => {
    const view = renderAccountPage(<FsaPage />, {
      path: '/entitlementsFSA',
      account,
      answers: { 'POST /api/fsa/contracts': refused(403, messages.exportDenied, 'FORBIDDEN') },
    });
    await expect.poll(() => view.location()).toBe('/noaccess');
    expect(screen.queryByText('Account does not have any active entitlements.')).toBeNull();
  });

  it('a read refused otherwise goes to /nopermissions', async () => {
    const view = renderAccountPage(<FsaPage />, {
      path: '/entitlementsFSA',
      account,
      answers: { 'POST /api/fsa/contracts': refused(403, messages.noPermission, 'FORBIDDEN') },
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
  });
});
