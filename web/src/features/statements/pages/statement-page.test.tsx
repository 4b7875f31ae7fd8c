import { messages } from '@lp/contract/common/errors';
import type { Statement } from '@lp/contract/statements/schemas';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { raw, refused, serveApi } from '../../../../test/render.tsx';
import StatementScreen from './statement-page.tsx';

/*
 * /statementv2 (spec 001 §2.2, §8): the PDF export's failures and an account without elastic entitlements. The
 * browser test (e2e/tests/statements.spec.ts) keeps the statement's numbers, ranges, filters, print and PDF.
 * That the server answers such an account with "No active entitlements for account" is an API test
 * (server/src/features/statements/statements.api.test.ts).
 */

const statement: Statement = {
  Customer: {
    ReportDate: '2026-11-27',
    AccountId: '1000123',
    AccountName: 'Acme Test Inc.',
    PeriodStart: '2026-10-01',
    PeriodEnd: '2026-10-31',
  },
  Records: [
    {
      PONumber: 'PO-1',
      ActivationId: 'ELASTIC-1',
      StartDate: '2026-01-01',
      EndDate: '',
      BalanceBeforeStart: 1000,
      BalanceAtEnd: 900,
      Used: 100,
      Currency: 'USD',
      LineItemQuantity: 1000,
      TotalUsed: 100,
      Products: [{ product: 'Fluent', total: 100, currency: 'USD' }],
    },
  ],
  Products: [{ product: 'Fluent', total: 100, currency: 'USD' }],
};

const account = testAccount({ hasElastic: 1, isPortalEdit: true });
const exportButton = () => screen.getByRole('button', { name: 'Export as PDF' });

describe('statement page', () => {
  it('alerts when the PDF cannot be exported or is not a PDF', async () => {
    const answers = { 'GET /api/featureflag/pref': [], 'POST /api/statements': statement };
    renderAccountPage(<StatementScreen />, {
      path: '/statementv2',
      account,
      answers: { ...answers, 'POST /api/getPdf': raw(200, 'text/html', '<html>not a pdf</html>') },
    });
    expect(
      await screen.findByRole('heading', { name: 'Usage by Product' }, { timeout: 20_000 }),
    ).toBeVisible();
    await expect.poll(() => exportButton()).toBeEnabled();
    await userEvent.click(exportButton());
    expect(await screen.findByText('An error occurred when loading the PDF.')).toBeInTheDocument();

    serveApi({
      ...answers,
      'POST /api/getPdf': raw(500, 'application/json', '{"status":"FAILURE","err":"x"}'),
    });
    await userEvent.click(exportButton());
    expect(await screen.findByText('An error occurred when exporting the PDF.')).toBeInTheDocument();
  });

  it('disables the PDF export when the account has no elastic entitlements', async () => {
    const view = renderAccountPage(<StatementScreen />, {
      path: '/statementv2',
      account: testAccount({ isPortalEdit: true }),
      answers: {
        'GET /api/featureflag/pref': [],
        'POST /api/statements': refused(404, messages.noActiveEntitlements, 'NOT_FOUND'),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Elastic Statements' })).toBeInTheDocument();
    await expect.poll(() => view.calls).toContain('POST /api/statements');
    await expect.poll(() => screen.queryByText('Loading...')).toBeNull();
    expect(screen.getByRole('button', { name: /^Date range:/ })).toHaveTextContent('Last month');
    expect(exportButton()).toBeDisabled();
    expect(screen.queryByRole('heading', { name: 'Usage by Product' })).toBeNull();
    // No message is shown for this failure (spec 001 §8).
    expect(screen.queryByText('No active entitlements for account')).toBeNull();
  });
});
