import { messages } from '@lp/contract/common/errors';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import CredentialsPage from './credentials-page.tsx';

/*
 * /clscredentials (spec 001 §2.4, §6): the viewer's page and the failures that go to /nopermissions. The browser
 * test (e2e/tests/credentials.spec.ts) keeps the administrator's journeys (PIN, export, usernames, leaving).
 */

const server = { deviceId: 'CLS-0001', alias: 'lab-cls' };
const viewer = testAccount({ hasElastic: 1 });
const administrator = testAccount({ hasElastic: 1, isPortalEdit: true });

const answersFor = (users: string[]) => ({
  'POST /api/devices/elastic': server,
  'POST /api/getpin': { pin: '482913' },
  'POST /api/getUsers': { users },
});

const textbox = (name: string) => screen.getByRole('textbox', { name, exact: true } as never);
const section = (name: string) => screen.getByRole('region', { name });
const button = (area: string, name: string) => within(section(area)).getByRole('button', { name });

describe('credentials page', () => {
  it('a view-only user sees the credentials with the inputs disabled', async () => {
    renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: viewer,
      answers: answersFor(['lab-user']),
    });
    expect(await screen.findByRole('textbox', { name: 'PIN' })).toHaveValue('482913');
    expect(screen.getByRole('heading', { name: 'Elastic Credentials' })).toBeInTheDocument();
    expect(textbox('PIN')).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Allowed usernames' })).toHaveValue('lab-user');
    expect(screen.getByRole('textbox', { name: 'Allowed usernames' })).toBeDisabled();
    expect(screen.getByTestId('users-banner')).toHaveTextContent('Blocking all other users');
    expect(button('PIN', 'Change PIN')).toBeDisabled();
    expect(button('Access restrictions', 'Save')).toBeDisabled();
    // Reading is allowed: the export works for viewers too.
    expect(button('Export', 'Export to JSON file')).toBeEnabled();
  });

  it('a failed credentials call goes to /nopermissions', async () => {
    const view = renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: administrator,
      answers: {
        ...answersFor([]),
        'POST /api/getUsers': refused(403, messages.noPermissionPage),
      },
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
  });

  it('a failed save goes to /nopermissions', async () => {
    const view = renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: administrator,
      answers: {
        ...answersFor([]),
        'POST /api/saveUsers': refused(403, messages.noPermission),
      },
    });
    const users = await screen.findByRole('textbox', { name: 'Allowed usernames' });
    await userEvent.type(users, 'blocked');
    await userEvent.click(button('Access restrictions', 'Save'));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await expect.poll(() => view.location()).toBe('/nopermissions');
    expect(view.calls).toContain('POST /api/saveUsers');
  });
});
