import { messages } from '@lp/contract/common/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import WhitelistIpsPage from './whitelist-ips-page.tsx';

/*
 * /whitelistips (spec 000 §2.10, §4.6, §6): leaving with unsaved changes, the viewer's rules, an account without
 * an elastic server and a refused read. The browser test (e2e/tests/ip-rules.spec.ts) keeps the administrator's
 * journey.
 */

const LEAVE_TITLE = 'WARNING: You have unsaved changes.';

const server = { DeviceID: 'CLS-0001', Alias: 'lab-cls' };
const ipInput = (n: number) => screen.getByRole('textbox', { name: `IP Address of rule ${n}` });
const nameInput = (n: number) => screen.getByRole('textbox', { name: `Rule Name of rule ${n}` });
const button = (name: string) => screen.getByRole('button', { name });

describe('IP settings page', () => {
  it('a viewer sees the rules with inputs, remove and Add Rule disabled', async () => {
    renderAccountPage(<WhitelistIpsPage />, {
      path: '/whitelistips',
      account: testAccount({ hasElastic: 1 }),
      answers: {
        'POST /api/activatedelasticservers': [server],
        'POST /api/getips': { whitelist: [{ rulename: 'Lab', ipaddress: '192.0.2.10' }] },
      },
    });
    expect(await screen.findByRole('textbox', { name: 'IP Address of rule 1' })).toHaveValue('192.0.2.10');
    expect(nameInput(1)).toHaveValue('Lab');
    expect(nameInput(1)).toBeDisabled();
    expect(ipInput(1)).toBeDisabled();
    expect(button('Remove rule 1')).toBeDisabled();
    expect(button('Add Rule')).toBeDisabled();
    expect(button('Save')).toBeDisabled();
    expect(screen.getByTestId('ip-banner')).toHaveTextContent('All other IP Addresses are blocked');
  });

  it('an account without an elastic server says so', async () => {
    const view = renderAccountPage(<WhitelistIpsPage />, {
      path: '/whitelistips',
      account: testAccount({ isPortalView: true }),
      answers: { 'POST /api/activatedelasticservers': [] },
    });
    expect(await screen.findByTestId('no-elastic-server')).toHaveTextContent(
      'This customer has no activated elastic license server, so there is no IP allow-list to manage.',
    );
    expect(screen.queryByRole('button', { name: 'Add Rule' })).toBeNull();
    expect(view.calls).not.toContain('POST /api/getips');
  });

  it('a failed read of the IP settings goes to /nopermissions', async () => {
    const view = renderAccountPage(<WhitelistIpsPage />, {
      path: '/whitelistips',
      account: testAccount({ hasElastic: 1, isPortalEdit: true }),
      answers: {
        'POST /api/activatedelasticservers': [server],
        'POST /api/getips': refused(403, messages.noPermissionPage),
      },
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
  });

  it('leaving the IP settings with unsaved changes asks first', async () => {
    const view = renderAccountPage(
      <>
        <Link to="/elastic">Licensing Portal home</Link>
        <WhitelistIpsPage />
      </>,
      {
        path: '/whitelistips',
        account: testAccount({ hasElastic: 1, isPortalEdit: true }),
        answers: {
          'POST /api/activatedelasticservers': [server],
          'POST /api/getips': { whitelist: [] },
        },
      },
    );
    await screen.findByTestId('ip-banner');
    await userEvent.click(button('Add Rule'));
    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(dialog).toHaveTextContent(
      'Press Cancel to go back and save these changes. Press Ok to lose these changes.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull());
    expect(view.location()).toBe('/whitelistips');
    expect(screen.getAllByTestId('ip-rule-row')).toHaveLength(1);

    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const again = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    await userEvent.click(within(again).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => view.location()).toBe('/elastic');
    expect(view.calls).not.toContain('POST /api/setips');
  });
});
