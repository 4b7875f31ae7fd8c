import { messages } from '@lp/contract/common/errors';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { later, refused } from '../../../../test/render.tsx';
import EmailsScreen from './emails-page.tsx';

/*
 * /emails (spec 000 §2.7, §6, §8): the customer-type notice and a refused list. The browser test
 * (e2e/tests/emails.spec.ts) keeps the list, its saved view, its pages and the detail page.
 */

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
    expect(await screen.findByText('Getting Emails...', {}, { timeout: 10_000 })).toBeInTheDocument();
    release();
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
  });
});
