import type { ContactDto } from '@lp/contract/portal-access/schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Fragment, type ReactNode } from 'react';
import { Link } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, withFields } from '../../../../test/render.tsx';
import { useCustomer } from '../../../app/customer-context.tsx';
import PortalAccessPage from './portal-access-page.tsx';

/*
 * /portalaccess (spec 000 §2.9, §4.5): the validation messages, leaving or switching the customer with unsaved
 * changes, the viewer's page and a refused save. The browser test (e2e/tests/portal-access.spec.ts) keeps the
 * administrator's journeys (the page and its sweep, saving a contact who then reaches the account).
 */

const LEAVE_TITLE = 'WARNING: You have unsaved changes.';
const LEAVE_BODY = 'Press Cancel to go back and save these changes. Press Ok to lose these changes.';

/** The page as the shell shows it: a link out, the selected account, a pick, a remount per customer. */
function ShellLike({ children }: { children: ReactNode }) {
  const { customer, version, selectCustomer } = useCustomer();
  return (
    <>
      <Link to="/elastic">Licensing Portal home</Link>
      <output data-testid="selected-account">{customer?.customerName}</output>
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

const contacts: ContactDto[] = [
  { email: 'coordinator@acme.test', role: 'Support Coordinator (Administrator)' },
  { email: 'admin@acme.test', role: 'Licensing Portal Administrator' },
  { email: 'engineer@acme.test', role: 'Licensing Portal Viewer' },
];
const list = withFields(contacts, { err: null });

const emailInput = (n: number) => screen.getByRole('textbox', { name: `Email of contact ${n}` });
const roleSelect = (n: number) => screen.getByRole('combobox', { name: `Role of contact ${n}` });
const button = (name: string) => screen.getByRole('button', { name });

describe('portal access page', () => {
  it('a server refusal is shown in the error panel', async () => {
    const view = renderAccountPage(<PortalAccessPage />, {
      path: '/portalaccess',
      account: testAccount({ isPortalEdit: true }),
      answers: {
        'POST /api/getportalaccess': list,
        'POST /api/setportalaccess': refused(
          409,
          'The contact list was changed by someone else. Reload and try again.',
          'CONFLICT',
        ),
      },
    });
    await screen.findByRole('textbox', { name: 'Email of contact 3' });
    await userEvent.selectOptions(roleSelect(2), 'Licensing Portal Viewer');
    await userEvent.selectOptions(roleSelect(3), 'Licensing Portal Administrator');
    await userEvent.click(button('Save'));
    expect(await screen.findByTestId('error-panel')).toHaveTextContent(
      'The contact list was changed by someone else. Reload and try again.',
    );
    await userEvent.click(button('Reload'));
    await expect.poll(() => roleSelect(2)).toHaveValue('Licensing Portal Administrator');
    expect(button('Save')).toBeDisabled();
    expect(view.calls.filter((c) => c === 'POST /api/getportalaccess')).toHaveLength(2);
  });

  it('a viewer sees the contacts with every input disabled', async () => {
    renderAccountPage(<PortalAccessPage />, {
      path: '/portalaccess',
      account: testAccount({ isPortalView: true }),
      answers: { 'POST /api/getportalaccess': list },
    });
    expect(await screen.findByText(/You have view-only access/)).toBeInTheDocument();
    expect(await screen.findAllByTestId('contact-row')).toHaveLength(contacts.length);
    for (let n = 1; n <= contacts.length; n++) {
      expect(emailInput(n)).toHaveValue(contacts[n - 1]?.email);
      expect(emailInput(n)).toBeDisabled();
      expect(roleSelect(n)).toBeDisabled();
    }
    expect(button('Add contact')).toBeDisabled();
    expect(button('Save')).toBeDisabled();
    expect(
      within(screen.getByTestId('portal-access-page')).getByRole('heading', { level: 1 }),
    ).toHaveTextContent('Licensing Portal Access');
  });

  it('each validation message appears once a field is touched; Add contact and Save wait for a valid list', async () => {
    renderAccountPage(<PortalAccessPage />, {
      path: '/portalaccess',
      account: testAccount({ isPortalEdit: true }),
      answers: { 'POST /api/getportalaccess': list },
    });
    expect(await screen.findAllByTestId('contact-row')).toHaveLength(3);
    await userEvent.click(button('Add contact'));
    expect(screen.getAllByTestId('contact-row')).toHaveLength(4);
    // An untouched new row shows no errors, but the list is not valid yet.
    expect(screen.queryByText('Email is required.')).toBeNull();
    expect(button('Add contact')).toBeDisabled();
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeEnabled();

    fireEvent.focus(emailInput(4));
    fireEvent.blur(emailInput(4));
    expect(await screen.findByText('Email is required.')).toBeInTheDocument();
    await userEvent.type(emailInput(4), 'not-an-address');
    expect(screen.getByText('Incorrect Email Format.')).toBeInTheDocument();
    await userEvent.clear(emailInput(4));
    await userEvent.type(emailInput(4), 'someone@gmail.com');
    expect(
      screen.getByText('Free domain is not allowed. Use a corporate e-mail address.'),
    ).toBeInTheDocument();
    await userEvent.clear(emailInput(4));
    await userEvent.type(emailInput(4), 'ENGINEER@acme.test');
    expect(screen.getByText('This e-mail address is already in the list.')).toBeInTheDocument();
    await userEvent.clear(emailInput(4));
    await userEvent.type(emailInput(4), 'check@acme.test');
    expect(screen.queryByText('This e-mail address is already in the list.')).toBeNull();

    fireEvent.focus(roleSelect(4));
    fireEvent.blur(roleSelect(4));
    expect(await screen.findByText('Role is required.')).toBeInTheDocument();
    expect(button('Save')).toBeDisabled();
    await userEvent.selectOptions(roleSelect(4), 'Licensing Portal Viewer');
    expect(screen.queryByText('Role is required.')).toBeNull();
    expect(button('Save')).toBeEnabled();
    expect(button('Add contact')).toBeEnabled();

    // Cancel restores the saved list.
    await userEvent.click(button('Cancel'));
    expect(screen.getAllByTestId('contact-row')).toHaveLength(3);
    expect(button('Save')).toBeDisabled();
  });

  it('leaving with unsaved changes asks first in a 600 px dialog: Cancel stays, Ok leaves', async () => {
    const view = renderAccountPage(
      <ShellLike>
        <PortalAccessPage />
      </ShellLike>,
      {
        path: '/portalaccess',
        account: testAccount({ isPortalEdit: true }),
        answers: { 'POST /api/getportalaccess': list },
      },
    );
    await screen.findByRole('textbox', { name: 'Email of contact 2' });
    await userEvent.clear(emailInput(2));
    await userEvent.type(emailInput(2), 'changed@acme.test');
    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    expect(dialog).toHaveTextContent(LEAVE_BODY);
    // Mantine sets the modal's width from its size, in rem: 37.5 rem is 600 px (jsdom has no layout).
    expect(dialog.closest<HTMLElement>('.mantine-Modal-root')?.style.getPropertyValue('--modal-size')).toBe(
      'calc(37.5rem * var(--mantine-scale))',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull());
    expect(view.location()).toBe('/portalaccess');
    expect(emailInput(2)).toHaveValue('changed@acme.test');

    // Reloading or closing the tab gets the browser's own prompt (the page only asks for it).
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    const again = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    await userEvent.click(within(again).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => view.location()).toBe('/elastic');
  });

  it('leaving without changes does not ask', async () => {
    const view = renderAccountPage(
      <ShellLike>
        <PortalAccessPage />
      </ShellLike>,
      {
        path: '/portalaccess',
        account: testAccount({ isPortalEdit: true }),
        answers: { 'POST /api/getportalaccess': list },
      },
    );
    await screen.findByRole('textbox', { name: 'Email of contact 2' });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Licensing Portal home' }));
    await expect.poll(() => view.location()).toBe('/elastic');
    expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull();
  });

  it('switching the customer with unsaved changes asks first: Cancel keeps both, Ok switches and drops them', async () => {
    const automotive = testAccount({ isPortalEdit: true }, '2000456');
    const view = renderAccountPage(
      <ShellLike>
        <PortalAccessPage />
      </ShellLike>,
      {
        path: '/portalaccess',
        account: testAccount({ isPortalEdit: true }),
        answers: {
          'POST /api/getportalaccess': list,
          'GET /api/getaccountinfo/2000456': { ...automotive, customerName: 'Acme Automotive GmbH' },
        },
      },
    );
    await screen.findByRole('textbox', { name: 'Email of contact 2' });
    await userEvent.clear(emailInput(2));
    await userEvent.type(emailInput(2), 'changed@acme.test');

    await userEvent.click(screen.getByRole('button', { name: 'Pick Acme Automotive GmbH' }));
    const dialog = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: LEAVE_TITLE })).toBeNull());
    expect(screen.getByTestId('selected-account')).toHaveTextContent('Acme Test Inc.');
    expect(emailInput(2)).toHaveValue('changed@acme.test');
    expect(view.calls).not.toContain('GET /api/getaccountinfo/2000456');

    await userEvent.click(screen.getByRole('button', { name: 'Pick Acme Automotive GmbH' }));
    const again = await screen.findByRole('dialog', { name: LEAVE_TITLE });
    await userEvent.click(within(again).getByRole('button', { name: 'Ok' }));
    await waitFor(() =>
      expect(screen.getByTestId('selected-account')).toHaveTextContent('Acme Automotive GmbH'),
    );
    expect(view.location()).toBe('/portalaccess');
    // The new customer's contacts are read afresh: the change is gone.
    await expect.poll(() => view.calls.filter((c) => c === 'POST /api/getportalaccess').length).toBe(2);
    expect(await screen.findByRole('textbox', { name: 'Email of contact 2' })).toHaveValue('admin@acme.test');
  });
});
