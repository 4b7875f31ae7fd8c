import type { ContactDto } from '@lp/contract/portal-access/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, withFields } from '../../../../test/render.tsx';
import PortalAccessPage from './portal-access-page.tsx';

/*
 * /portalaccess (spec 000 §2.9, §4.5): the viewer's page and a refused save. The browser test
 * (e2e/tests/portal-access.spec.ts) keeps the administrator's journeys (validation, saving, leaving, switching).
 */

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
});
