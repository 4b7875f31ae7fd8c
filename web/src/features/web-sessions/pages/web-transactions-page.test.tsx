import { messages } from '@lp/contract/common/errors';
import type { WebTransactionRow } from '@lp/contract/web-sessions/schemas';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, withFields } from '../../../../test/render.tsx';
import WebTransactionsPage, { webTransactionsTexts } from './web-transactions-page.tsx';

/*
 * /web-transactions (decision 071): the rows the server pages, the "Data as of" line, the empty text and an
 * export-denied account's notice. Paging, filters and refusals are the server's (web-transactions.api.test.ts);
 * the CSV's quoting and formula escaping web-transactions-csv.test.ts's.
 */

const denial: WebTransactionRow = {
  Start: '2026-11-03 10:35:00',
  End: null,
  Duration: null,
  Email: 'eve@acme.example',
  UserName: 'Eve',
  Group: '',
  PartNumber: 'SW-1',
  Product: 'Mechanical - Shared Web',
  Application: 'Mech Cloud',
  Client: 'Chrome 131',
  Outcome: 'Denied',
  DenialReason: 'Pool full',
};
const session: WebTransactionRow = {
  ...denial,
  Start: '2026-11-03 09:00:00',
  End: '2026-11-03 11:00:00',
  Duration: 120,
  Email: 'ann@acme.example',
  UserName: 'Ann',
  Group: 'Design',
  Outcome: 'Released',
  DenialReason: '',
};

const account = testAccount({ hasSharedLicense: 1 });
const open = (answers: Record<string, unknown>) =>
  renderAccountPage(<WebTransactionsPage />, {
    path: '/web-transactions',
    account,
    answers: { 'GET /api/featureflag/pref': [], ...answers },
  });

const cells = (row: HTMLElement) =>
  Object.fromEntries(
    [...row.querySelectorAll('[col-id]')].map((c) => [c.getAttribute('col-id'), c.textContent ?? '']),
  );

describe('web transactions page', () => {
  it('shows the sessions and denials the server pages, and when the data was last written', async () => {
    open({
      'POST /api/web/transactions/as-of': { asOf: '2026-11-03 12:30:00' },
      'POST /api/web/transactions': withFields([denial, session], { token: null }),
      'POST /api/web/transactions/count': 2,
    });
    const asOf = await screen.findByTestId('web-transactions-as-of');
    await expect.poll(() => asOf.textContent).toBe('Data as of 2026-11-03 12:30:00 (UTC)');
    const grid = screen.getByRole('region', { name: 'Web transactions' });
    const cell = await within(grid).findByText('eve@acme.example', {}, { timeout: 20_000 });
    expect(cells(cell.closest('[role="row"]') as HTMLElement)).toMatchObject({
      Start: '2026-11-03 10:35:00',
      End: '',
      Outcome: 'Denied',
      DenialReason: 'Pool full',
    });
    const ann = within(grid).getByText('ann@acme.example').closest('[role="row"]') as HTMLElement;
    expect(cells(ann)).toMatchObject({ Duration: '120', Group: 'Design', Outcome: 'Released' });
    expect(screen.getByRole('button', { name: 'Export as csv file' })).toBeEnabled();
  });

  it('says when there is nothing to show', async () => {
    open({
      'POST /api/web/transactions/as-of': { asOf: null },
      'POST /api/web/transactions': withFields([], { token: null }),
      'POST /api/web/transactions/count': 0,
    });
    expect(await screen.findByText(webTransactionsTexts.empty, {}, { timeout: 20_000 })).toBeInTheDocument();
    expect(screen.getByTestId('web-transactions-as-of')).toHaveTextContent('Data as of no sessions yet');
  });

  it('sends an export-denied account to the notice', async () => {
    const denied = refused(403, messages.exportDenied);
    const view = open({
      'POST /api/web/transactions/as-of': denied,
      'POST /api/web/transactions': denied,
      'POST /api/web/transactions/count': denied,
    });
    await expect.poll(() => view.location(), { timeout: 20_000 }).toBe('/noaccess');
  });
});
