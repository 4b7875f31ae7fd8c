import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { customerUser, renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { ServerCredentials } from './server-credentials.tsx';

/*
 * The license-server credentials on /clscredentials (decisions 014, 022): vendor staff only; view-only support gets
 * the notice instead of the confirmation. The browser test (e2e/tests/staff-elastic.spec.ts) keeps busops issuing
 * and revoking. That the server refuses customers and view-only support is an API test
 * (server/src/features/cls-api/cls-api.api.test.ts).
 */

const SECTION = 'License server credentials';
const administrator = testAccount({ hasElastic: 1, isPortalEdit: true });
// The account's info as support reads it: no edit rights of their own (decision 022).
const supportView = testAccount({ hasElastic: 1 });
const support: CurrentUser = { email: 'support@demo.example', name: 'Support', roles: ['support'] };

const open = (user: CurrentUser, account = administrator) =>
  renderAccountPage(<ServerCredentials customerNumber="1000123" elasticServerId="CLS-0001" />, {
    path: '/clscredentials',
    account,
    user,
    answers: { 'GET /api/cls/credentials': [] },
  });

describe('license server credentials', () => {
  it('a customer administrator sees no license server credentials', async () => {
    const view = open(customerUser);
    await expect.poll(() => view.calls).toContain('GET /api/getaccountinfo/1000123');
    expect(screen.queryByRole('heading', { name: SECTION })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Issue credential' })).toBeNull();
    expect(view.calls).not.toContain('GET /api/cls/credentials');
  });

  it('view-only support gets the notice instead of issuing a credential', async () => {
    const view = open(support, supportView);
    const section = await screen.findByRole('region', { name: SECTION });
    await expect.poll(() => view.calls).toContain('GET /api/cls/credentials');
    await userEvent.click(within(section).getByRole('button', { name: 'Issue credential' }));
    const notice = await screen.findByRole('dialog', { name: 'Customer 1000123' });
    expect(notice).toHaveTextContent('You do not have enough permissions for such operation.');
    expect(screen.queryByRole('dialog', { name: 'Confirm' })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(view.calls).not.toContain('POST /api/cls/credentials');
  });
});
