import { messages } from '@lp/contract/common/errors';
import type { FsaContract, FsaOrderResult, FsaProduct } from '@lp/contract/fsa/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { serveApi, withFields } from '../../../../test/render.tsx';
import FsaPage from '../pages/fsa-page.tsx';

/*
 * Order Products on /entitlementsFSA (spec 002 §2 "FSA order creation screen", "FSA order confirmation dialog",
 * §5): a line the server refuses, a network error, and the view-only user's notice. The browser test
 * (e2e/tests/fsa-order.spec.ts) keeps ordering, the lines' prices and Order & Activate. That the server refuses a
 * view-only user's order (403, "You do not have enough permissions for such operation.") is
 * server/src/features/fsa/fsa.api.test.ts's ("lets a view-only user read but not order"); that it fails a line
 * over the balance alone is its "fails a line over the balance alone and leaves nothing of it".
 */

const CN = '1000123';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const contract = (remainingCents: number): FsaContract => ({
  entitlementId: 'FSA-MAIN',
  orderId: 'O-1',
  poNumber: 'PO-1',
  startDate: day(-30),
  endDate: day(300),
  currency: 'USD',
  budgetCents: 200_000,
  usedCents: 200_000 - remainingCents,
  remainingCents,
  usedPercentage: 50,
  remainingdays: 301,
  usedDays: 30,
  usedDaysPercentage: 9,
  colours: { remainingdays: 'green', usedpercentage: 'green' },
  active: true,
  busopsEmails: [],
  lastOrderedAt: null,
  hasProducts: true,
  dailySpend: [],
});

const solver: FsaProduct = {
  partNumber: 'SOLVER',
  name: 'Solver',
  price7Days: 1_000,
  price30Days: 3_500,
  price60Days: null,
  price90Days: null,
  price180Days: null,
  price1Year: null,
  manual: false,
};

const answers = (remainingCents: number) => ({
  'GET /api/featureflag/pref': [],
  'POST /api/fsa/contracts': [contract(remainingCents)],
  'POST /api/fsa/products': [solver],
});

const orderTab = () => screen.getByRole('tabpanel', { name: 'Order Products' });
const box = (role: string, name: string) => within(orderTab()).getByRole(role, { name });

/** Picks an option of a Select (its dropdown is not shown in jsdom: Mantine's transition never runs). */
async function choose(name: string, option: string) {
  await userEvent.click(box('combobox', name));
  const options = await screen.findByRole('listbox', { name, hidden: true });
  await userEvent.click(within(options).getByRole('option', { name: option, hidden: true }));
}

async function addLine(n: number, count: number, duration: string) {
  await userEvent.click(within(orderTab()).getByRole('button', { name: 'Add product' }));
  await choose(`Product of line ${n}`, 'Solver');
  const countBox = box('spinbutton', `Count of line ${n}`);
  await userEvent.clear(countBox);
  await userEvent.type(countBox, String(count));
  await choose(`Duration of line ${n}`, duration);
}

async function openOrderTab() {
  await userEvent.click(await screen.findByRole('tab', { name: 'Order Products' }, { timeout: 20_000 }));
  await within(orderTab()).findByRole('button', { name: 'Add product' }, { timeout: 20_000 });
}

async function orderNowAndConfirm() {
  await userEvent.click(within(orderTab()).getByRole('button', { name: 'Order Now' }));
  const confirm = await screen.findByRole('dialog', { name: 'Confirm FSA order' });
  await userEvent.click(within(confirm).getByRole('button', { name: 'Order' }));
}

const line = (over: Partial<FsaOrderResult>): FsaOrderResult => ({
  status: 'SUCCESS',
  ansysbpn: 'SOLVER',
  startdate: day(0),
  enddate: day(30),
  ansysquantity: 2,
  ansysprice: 7_000,
  err: '',
  ...over,
});

describe('FSA order tab', () => {
  it('a line the server refuses stays with its error and the balance is recomputed; a network error is shown', async () => {
    renderAccountPage(<FsaPage />, {
      path: '/entitlementsFSA',
      account: testAccount({ hasFSA: 1, isPortalEdit: true }, CN),
      answers: answers(100_000),
    });
    await openOrderTab();
    await addLine(1, 2, '30 Days');
    await addLine(2, 1, '7 Days');

    // No answer at all (after the client's five attempts, spec 000 §7): the spec's text, the lines kept as they were.
    const served = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).endsWith('/api/entitlements')
        ? Promise.reject(new TypeError('Failed to fetch'))
        : served(input, init),
    );
    await orderNowAndConfirm();
    expect(await within(orderTab()).findByTestId('order-failure', {}, { timeout: 20_000 })).toHaveTextContent(
      /^POST: ERROR in \/api\/entitlements: \S/,
    );
    expect(within(orderTab()).getByTestId('order-line-2')).toBeInTheDocument();

    // The first line is drawn, the second refused; the contract is read again with what is left.
    serveApi({
      ...answers(1),
      'POST /api/entitlements': withFields(
        [
          line({}),
          line({
            status: 'FAILURE',
            enddate: day(7),
            ansysquantity: 1,
            ansysprice: 1_000,
            err: 'Not enough balance left on the contract',
          }),
        ],
        { replayed: false },
      ),
    });
    await orderNowAndConfirm();
    expect(await within(orderTab()).findByTestId('order-failure')).toHaveTextContent(
      'Some entitlements were not successfully created. Please check for errors and try again.',
    );
    expect(within(orderTab()).queryByTestId('order-line-2')).toBeNull();
    expect(within(orderTab()).getByTestId('line-error-1')).toHaveTextContent(
      'Not enough balance left on the contract',
    );
    // Available: the balance left (0.01) less the refused line still on the form (10.00).
    await expect.poll(() => within(orderTab()).getByTestId('order-available').textContent).toBe('-9.99');
  });

  it('a view-only user gets the notice instead of the confirmation, and the lines stay', async () => {
    const view = renderAccountPage(<FsaPage />, {
      path: '/entitlementsFSA',
      account: testAccount({ hasFSA: 1 }, CN),
      answers: answers(100_000),
    });
    await openOrderTab();
    await addLine(1, 1, '30 Days');
    await userEvent.click(within(orderTab()).getByRole('button', { name: 'Order Now' }));
    const notice = await screen.findByRole('dialog', { name: `Customer ${CN}` });
    expect(notice).toHaveTextContent(messages.noPermission);
    expect(notice).toHaveTextContent('You do not have enough permissions for such operation.');
    expect(screen.queryByRole('dialog', { name: 'Confirm FSA order' })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: `Customer ${CN}` })).toBeNull();
    expect(within(orderTab()).getByTestId('order-line-1')).toBeInTheDocument();
    expect(view.calls).not.toContain('POST /api/entitlements');
  });
});
