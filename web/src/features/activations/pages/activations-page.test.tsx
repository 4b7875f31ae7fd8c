import { messages } from '@lp/contract/common/errors';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, serveApi, withFields } from '../../../../test/render.tsx';
import { activationRow } from '../activation-row-fixture.ts';
import ActivationsPage from './activations-page.tsx';

/*
 * /activations (spec 002 §2, §4, §6, §9): the view-only notice for Add server, a failed fetch of the rows with
 * Clear error and retry, and an export-denied associated account's tab. The browser test
 * (e2e/tests/activations.spec.ts) keeps the journeys that save, rehost, return and download. The server's halves are
 * API tests (server/src/features/activations/activations.api.test.ts): a view-only user's writes are refused, an
 * export-denied account gets empty lists, and no seat of a Shared Web or Named User line is offered (decision 031).
 */

const ACME = '1000123';
const RESEARCH = '1000127';
const row = activationRow('LEASE-A', { ansysactivated: 0, ansysavailable: 6 });
const accounts = [
  { AccountID: ACME, AccountName: 'Acme Aerospace Inc.' },
  { AccountID: RESEARCH, AccountName: 'Acme Research Labs LLC' },
];

const answers = {
  'POST /api/fulfillments/servers': [],
  'POST /api/getaccounts': withFields(accounts, { token: null }),
};

const open = (info: Parameters<typeof testAccount>[0]) =>
  renderAccountPage(<ActivationsPage />, {
    path: '/activations',
    account: testAccount({ hasSSL: 1, ...info }),
    answers,
  });

/** Types the text at once, as a paste (the browser test's fill). */
async function fill(input: HTMLElement, text: string) {
  await userEvent.click(input);
  await userEvent.paste(text);
}

/** The available row's count input, in the open tab. */
const countInput = async () =>
  within(await screen.findByRole('tabpanel')).findByRole(
    'textbox',
    { name: 'Activated count for LEASE-A' },
    { timeout: 20_000 },
  );

describe('activations page', () => {
  it('a view-only user gets the notice for add server', async () => {
    const view = open({});
    await userEvent.click(await screen.findByRole('button', { name: 'Add server' }));
    const notice = await screen.findByRole('dialog', { name: `Customer ${ACME}` });
    expect(notice).toHaveTextContent('You do not have enough permissions for such operation.');
    await userEvent.click(within(notice).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Add New Host' })).toBeNull();
    expect(view.calls.filter((c) => c.startsWith('POST /api/fulfillments/create'))).toEqual([]);
  });

  it('an export-denied associated account gets the notice in its tab, no entitlements and no error; clear and retry fetches again', async () => {
    const administrator = testAccount({ hasSSL: 1, isPortalEdit: true });
    const selection = {
      ...answers,
      'POST /api/getaccounts/count': 1,
      [`GET /api/getaccountinfo/${ACME}`]: administrator,
    };
    renderAccountPage(<ActivationsPage />, { path: '/activations', account: administrator, answers });
    // The first fetch of the new host's rows fails.
    const failing = serveApi({
      ...selection,
      'POST /api/fulfillments/allentitlements': refused(409, 'busy'),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Add server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add New Host' });
    await fill(within(dialog).getByRole('textbox', { name: 'Host name' }), 'lab-host');
    await fill(within(dialog).getByRole('textbox', { name: 'Host ID' }), 'a1b2c3d4e5f6');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Add New Host' })).toBeNull();
    expect(screen.getByTestId('pending-host')).toHaveTextContent('lab-host (a1b2c3d4e5f6)');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent(messages.unableFetchAvailable);
    expect(failing).toContain('POST /api/fulfillments/allentitlements');

    // Clear and retry asks again; the rows come and the banner goes.
    const again = serveApi({
      ...selection,
      'POST /api/fulfillments/allentitlements': { server: null, assigned: [], available: [row] },
      [`GET /api/getaccountinfo/${RESEARCH}`]: refused(403, messages.exportDenied),
    });
    await userEvent.click(within(banner).getByRole('button', { name: 'Clear error and retry' }));
    expect(await countInput()).toBeInTheDocument();
    expect(again).toContain('POST /api/fulfillments/allentitlements');
    expect(screen.queryByRole('alert')).toBeNull();

    // Spec 002 §4: the export-denied account's tab gets the notice, not the tables nor an error.
    await fill(screen.getByRole('combobox', { name: 'Associated Accounts' }), 'Research');
    await userEvent.click(
      await screen.findByRole(
        'option',
        { name: `${RESEARCH} (Acme Research Labs LLC)`, hidden: true },
        { timeout: 5000 },
      ),
    );
    expect(await screen.findAllByRole('tab')).toHaveLength(2);
    const panel = await screen.findByRole('tabpanel');
    expect(
      await within(panel).findByText('Access to this customer is denied per Export Compliance restrictions.'),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('region', { name: 'Available Entitlements table' })).toBeNull();
    expect(again).toContain(`GET /api/getaccountinfo/${RESEARCH}`);

    // The other tab stays usable, with no error.
    await userEvent.click(screen.getByRole('tab', { name: ACME }));
    await fill(await countInput(), '1');
    await expect.poll(() => screen.getByRole('button', { name: 'Save & Generate' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
    expect(screen.queryByText(messages.unableFetchAvailable)).toBeNull();
  });
});
