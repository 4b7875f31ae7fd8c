import type { UsageRow } from '@lp/contract/transactions/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, withFields } from '../../../../test/render.tsx';
import TransactionsPage from './transactions-page.tsx';

/*
 * /transactions (spec 001 §8): a failing usage call. The browser test (e2e/tests/transactions.spec.ts) keeps the
 * periods, filters, sorting, saved view and export.
 */

const session: UsageRow = {
  StartTime: '2026-11-20 09:00:00',
  EndTime: '2026-11-20 10:00:00',
  Product: 'Fluent',
  ProductCount: 1,
  Hours: 1,
  Charge: 10,
  Currency: 'USD',
  User: 'lab-user',
  Host: 'lab-host',
  Project: 'P1',
  DeviceID: 'CLS-0001',
  SessionStatus: 'Closed',
  ServerID: 'S-1',
  AccountID: '1000123',
  Active: false,
};

describe('transactions page', () => {
  it('a failing usage call shows its message and no rows', async () => {
    renderAccountPage(<TransactionsPage />, {
      path: '/transactions',
      account: testAccount({ hasElastic: 1, isPortalEdit: true }),
      answers: {
        'GET /api/featureflag/pref': [],
        'GET /api/lastupdatedon': withFields(undefined, { lastUpdatedOn: '2026-11-20 10:00:00' }),
        'POST /api/fetchUsage': withFields([session], { token: null }),
        'POST /api/fetchUsage/count': refused(400, 'data request refused', 'BAD_REQUEST'),
      },
    });
    expect(await screen.findByTestId('error-panel', {}, { timeout: 20_000 })).toHaveTextContent(
      'data request refused',
    );
    const grid = screen.getByRole('region', { name: 'Usage transactions' });
    await expect.poll(() => screen.queryByText('Getting Product Usage information ...')).toBeNull();
    expect(within(grid).queryByText('lab-user')).toBeNull();
    expect(grid.querySelector('.ag-overlay')).toHaveTextContent('No Rows To Show');
  });
});
