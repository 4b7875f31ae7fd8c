import { messages } from '@lp/contract/common/errors';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { later, refused, withFields } from '../../../../test/render.tsx';
import EmailsScreen from './emails-page.tsx';

/*
 * /emails (spec 000 §2.7, §6, §8, §9): the customer-type notice, a refused list and the list's pages with the
 * row count. The browser test (e2e/tests/emails.spec.ts) keeps the list, its saved view and the detail page; the
 * server's paging and count are emails.api.test.ts's.
 */

const TOTAL = 32;
const emails = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => {
    const n = from + i;
    return {
      id: n,
      date: `2026-10-${String(32 - n).padStart(2, '0')} 09:00:00`,
      subject: `Notice number ${n}`,
      to: 'user@acme.test',
    };
  });
const rowIndexes = (grid: HTMLElement) =>
  [...grid.querySelectorAll('.ag-row:not(.ag-row-loading)[row-index]')].map((r) =>
    Number(r.getAttribute('row-index')),
  );
const subjects = (grid: HTMLElement) =>
  [...grid.querySelectorAll('.ag-row:not(.ag-row-loading) [role="gridcell"][col-id="subject"]')].map(
    (c) => c.textContent,
  );

describe('emails page', () => {
  it('an indirect customer is sent to /notypecustomer and no e-mails are fetched', async () => {
    const view = renderAccountPage(<EmailsScreen />, {
      path: '/emails',
      account: testAccount({ orgType: 'Indirect', isPortalEdit: true }),
    });
    expect(
      await screen.findByText('The selected customer needs to be either a direct or channel customer.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/notypecustomer');
    expect(view.calls.filter((c) => c.includes('/api/getemails'))).toEqual([]);
  });

  it('shows "Getting Emails..." while loading and goes to /nopermissions when the server answers FAILURE', async () => {
    let release: (value?: unknown) => void = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    const view = renderAccountPage(<EmailsScreen />, {
      path: '/emails',
      account: testAccount({ orgType: 'Direct', isPortalEdit: true }),
      answers: {
        // No saved view of the list.
        'GET /api/featureflag/pref': [],
        'POST /api/getemails': later(refused(403, messages.noPermission, 'FORBIDDEN'), held),
        'POST /api/getemails/count': later(refused(403, messages.noPermission, 'FORBIDDEN'), held),
      },
    });
    // The grid asks for its first rows once it is set up, which takes a while in jsdom.
    expect(await screen.findByText('Getting Emails...', {}, { timeout: 20_000 })).toBeInTheDocument();
    release();
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
  });

  it('the list is paginated with the row count, like the other tables', async () => {
    const answers = {
      // No saved view of the list.
      'GET /api/featureflag/pref': [],
      // One block of the server's rows (the grid asks for 100 at a time) holds both pages.
      'POST /api/getemails': withFields(emails(1, TOTAL), { token: null }),
      'POST /api/getemails/count': TOTAL,
    };
    const view = renderAccountPage(<EmailsScreen />, {
      path: '/emails',
      account: testAccount({ orgType: 'Direct', isPortalEdit: true }),
      answers,
    });
    const grid = await screen.findByRole('region', { name: 'Emails' }, { timeout: 20_000 });
    const summary = grid.querySelector('.ag-paging-row-summary-panel');
    await expect.poll(() => summary?.textContent?.trim(), { timeout: 20_000 }).toBe(`1 to 20 of ${TOTAL}`);
    await expect.poll(() => subjects(grid)[0]).toBe('Notice number 1');
    // The page holds the first 20 rows (jsdom draws only the first few of them: no layout).
    expect(rowIndexes(grid).every((i) => i < 20)).toBe(true);

    await userEvent.click(within(grid).getByRole('button', { name: 'Next Page' }));
    await expect.poll(() => summary?.textContent?.trim()).toBe(`21 to ${TOTAL} of ${TOTAL}`);
    await expect.poll(() => subjects(grid)[0]).toBe('Notice number 21');
    expect(rowIndexes(grid).every((i) => i >= 20 && i < TOTAL)).toBe(true);
    expect(subjects(grid)).not.toContain('Notice number 1');
    expect(view.calls).toContain('POST /api/getemails/count');
  });
});
