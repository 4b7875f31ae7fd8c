import { messages } from '@lp/contract/common/errors';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { later, refused, serveApi } from '../../../../test/render.tsx';
import { useCustomer } from '../../../app/customer-context.tsx';
import CredentialsPage from './credentials-page.tsx';

/*
 * /clscredentials (spec 001 §2.4, §6): the first load, the viewer's page, the usernames' rules, leaving with
 * unsaved changes, a customer change and the failures that go to /nopermissions. The browser test
 * (e2e/tests/credentials.spec.ts) keeps the administrator's journeys (PIN, export, saving usernames).
 */

const server = { deviceId: 'CLS-0001', alias: 'lab-cls' };
const viewer = testAccount({ hasElastic: 1 });
const administrator = testAccount({ hasElastic: 1, isPortalEdit: true });

const answersFor = (users: string[]) => ({
  'POST /api/devices/elastic': server,
  'POST /api/getpin': { pin: '482913' },
  'POST /api/getUsers': { users },
});

const LOADING = 'Getting Elastic License Server information...';
const INVALID_USERS = 'List of usernames is not valid. Please enter a valid list.';
const CONFIRM_USERS =
  'Are you sure you want to change the allowed usernames for this Elastic License Server?';
const LEAVE_TITLE = 'WARNING: You have unsaved changes.';
const LEAVE_BODY = 'Press Cancel to go back and save these changes. Press Ok to lose these changes.';

/** The page as the shell shows it: a link out (the header's home link), remounted when the customer changes. */
function ShellLike({ children }: { children: ReactNode }) {
  const { customer, version, selectCustomer } = useCustomer();
  return (
    <>
      <Link to="/elastic">Licensing Portal home</Link>
      <button
        type="button"
        onClick={() => void selectCustomer({ AccountID: '2000456', AccountName: 'Acme Automotive GmbH' })}
      >
        Pick Acme Automotive GmbH
      </button>
      <Fragment key={`${customer?.customerNumber ?? 'none'}:${version}`}>{children}</Fragment>
    </>
  );
}

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

  it('shows the spinner until the server id and PIN are known, then the form', async () => {
    let release: (value?: unknown) => void = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: administrator,
      answers: { ...answersFor([]), 'POST /api/getUsers': later({ users: [] }, held) },
    });
    expect(await screen.findByText(LOADING)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Elastic Credentials' })).toBeInTheDocument();
    // The form is not shown before the data.
    expect(screen.queryByRole('textbox', { name: 'PIN' })).toBeNull();
    release();
    expect(await screen.findByRole('textbox', { name: 'PIN' })).toHaveValue('482913');
    expect(textbox('Server ID')).toHaveAttribute('readonly');
    expect(textbox('Server ID')).toHaveValue('CLS-0001');
    expect(screen.queryByText(LOADING)).toBeNull();
    expect(button('PIN', 'Change PIN')).toBeDisabled();
    expect(button('PIN', 'Cancel')).toBeDisabled();
    expect(button('Export', 'Export to JSON file')).toBeEnabled();
  });

  it('a server without a PIN yet gets one generated, shown once both are known', async () => {
    const view = renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: administrator,
      answers: {
        ...answersFor([]),
        'POST /api/getpin': { pin: null },
        'POST /api/generatepin': { pin: '917364' },
      },
    });
    expect(await screen.findByRole('textbox', { name: 'PIN' })).toHaveValue('917364');
    expect(textbox('Server ID')).toHaveValue('CLS-0001');
    expect(view.calls).toContain('POST /api/generatepin');
  });

  it('allowed usernames: the banners follow the list, bad lists are refused, Cancel restores', async () => {
    renderAccountPage(<CredentialsPage />, {
      path: '/clscredentials',
      account: administrator,
      answers: answersFor([]),
    });
    const users = await screen.findByRole('textbox', { name: 'Allowed usernames' });
    const save = button('Access restrictions', 'Save');
    const cancel = button('Access restrictions', 'Cancel');
    expect(screen.getByTestId('users-banner')).toHaveTextContent('Allowing all users with current PIN');
    expect(save).toBeDisabled();
    expect(cancel).toBeDisabled();

    await userEvent.type(users, 'alice{Enter}Bob.Smith');
    expect(screen.getByTestId('users-banner')).toHaveTextContent('Blocking all other users');
    expect(save).toBeEnabled();
    expect(cancel).toBeEnabled();
    expect(screen.queryByTestId('users-alert')).toBeNull();

    for (const bad of ['alice\n\nbob', 'al ice', 'jürgen', 'alice\nALICE']) {
      await userEvent.clear(users);
      await userEvent.type(users, bad.replaceAll('\n', '{Enter}'));
      expect(users).toHaveValue(bad);
      expect(screen.getByTestId('users-alert')).toHaveTextContent(INVALID_USERS);
      expect(save).toBeDisabled();
    }

    await userEvent.click(cancel);
    expect(users).toHaveValue('');
    expect(screen.getByTestId('users-banner')).toHaveTextContent('Allowing all users with current PIN');
    expect(screen.queryByTestId('users-alert')).toBeNull();

    // Save asks first, naming the server; No keeps the list unsaved.
    await userEvent.type(users, 'carol');
    await userEvent.click(save);
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(confirm).toHaveTextContent(CONFIRM_USERS);
    expect(confirm).toHaveTextContent('CLS-0001');
  });

  it('leaving with unsaved changes asks first in a 600 px dialog: Cancel stays, Ok leaves', async () => {
    const view = renderAccountPage(
      <ShellLike>
        <CredentialsPage />
      </ShellLike>,
      { path: '/clscredentials', account: administrator, answers: answersFor([]) },
    );
    const users = await screen.findByRole('textbox', { name: 'Allowed usernames' });
    await userEvent.type(users, 'someone');
    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(dialog).toHaveTextContent(LEAVE_BODY);
    // Mantine sets the modal's width from its size, in rem: 37.5 rem is 600 px (jsdom has no layout).
    expect(dialog.closest<HTMLElement>('.mantine-Modal-root')?.style.getPropertyValue('--modal-size')).toBe(
      'calc(37.5rem * var(--mantine-scale))',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull());
    expect(view.location()).toBe('/clscredentials');
    expect(users).toHaveValue('someone');

    // A changed PIN is guarded the same way; Ok leaves and drops the change (nothing is saved).
    await userEvent.clear(users);
    await userEvent.clear(textbox('PIN'));
    await userEvent.type(textbox('PIN'), '000001');
    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const again = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    await userEvent.click(within(again).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => view.location()).toBe('/elastic');
    expect(view.calls.filter((c) => c.includes('changepin') || c.includes('saveUsers'))).toEqual([]);
  });

  it('changing the customer reloads server, PIN and users', async () => {
    const automotive = testAccount({ hasElastic: 1, isPortalEdit: true }, '2000456');
    const view = renderAccountPage(
      <ShellLike>
        <CredentialsPage />
      </ShellLike>,
      { path: '/clscredentials', account: administrator, answers: answersFor(['lab-user']) },
    );
    expect(await screen.findByRole('textbox', { name: 'PIN' })).toHaveValue('482913');
    // The second account's answers (the stub answers by path; the page asks again with the new customer).
    serveApi({
      'GET /api/getaccountinfo/2000456': { ...automotive, customerName: 'Acme Automotive GmbH' },
      'POST /api/devices/elastic': { deviceId: 'CLS-0002', alias: 'plant-cls' },
      'POST /api/getpin': { pin: '135790' },
      'POST /api/getUsers': { users: ['bob'] },
    });
    // The bodies of the server reads, to see whose server is asked for.
    const served = globalThis.fetch;
    const asked: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/api/devices/elastic')) asked.push(JSON.parse(String(init?.body)));
      return served(input, init);
    });
    await userEvent.click(screen.getByRole('button', { name: 'Pick Acme Automotive GmbH' }));
    await waitFor(() => expect(textbox('Server ID')).toHaveValue('CLS-0002'));
    expect(asked).toEqual([expect.objectContaining({ customerNumber: '2000456' })]);
    expect(textbox('PIN')).toHaveValue('135790');
    expect(screen.getByRole('textbox', { name: 'Allowed usernames' })).toHaveValue('bob');
    expect(view.location()).toBe('/clscredentials');
  });
});
