import type { ScimTokenRow } from '@lp/contract/scim/schemas';
import { formatDateTime } from '@lp/domain/dates';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused, serveApi } from '../../../../test/render.tsx';
import { useCustomer } from '../../../app/customer-context.tsx';
import { ScimProvisioningPanel, scimTexts } from './scim-provisioning-panel.tsx';

/*
 * The SCIM panel (issue 24 §3, docs/scim.md): the base URL, the tokens, New token with the secret shown once,
 * Revoke confirmed, a refused issue shown in its dialog, view-only users without write controls. That the server
 * refuses view-only users and support, and what a token may do, is the scim API tests'.
 */

const okta: ScimTokenRow = {
  id: '3b6f0a2e-0000-4000-8000-000000000001',
  name: 'Okta',
  createdAt: '2026-11-20T09:00:00.000Z',
  createdBy: 'Ada Lovelace <ada@acme.test>',
  lastUsedAt: '2026-11-26T10:15:00.000Z',
  revokedAt: null,
};
const old: ScimTokenRow = {
  id: '3b6f0a2e-0000-4000-8000-000000000002',
  name: 'Old Entra ID',
  createdAt: '2026-10-01T08:00:00.000Z',
  createdBy: 'Ada Lovelace <ada@acme.test>',
  lastUsedAt: null,
  revokedAt: '2026-11-01T08:00:00.000Z',
};
const keycloak: ScimTokenRow = {
  id: '3b6f0a2e-0000-4000-8000-000000000003',
  name: 'Keycloak',
  createdAt: '2026-11-27T08:00:00.000Z',
  createdBy: 'Test User <user@acme.test>',
  lastUsedAt: null,
  revokedAt: null,
};

const administrator = testAccount({ hasNamedLicense: 1, isPortalEdit: true });
const viewer = testAccount({ hasNamedLicense: 1 });
const LIST = 'POST /api/scim/tokens';
const ISSUE = 'POST /api/scim/tokens/issue';
const REVOKE = 'POST /api/scim/tokens/revoke';

/** Says when the account's info (its edit rights) has arrived: before it the panel is read-only anyway. */
function InfoLoaded() {
  const { customer } = useCustomer();
  return customer?.info ? <p>Account info loaded</p> : null;
}

const open = (account: typeof administrator, answers: Record<string, unknown>) =>
  renderAccountPage(
    <>
      <InfoLoaded />
      <ScimProvisioningPanel customerNumber="1000123" />
    </>,
    {
      path: '/web-assignments/users',
      account,
      answers,
    },
  );

/** The answers of the account's selection, for a test that replaces the API's answers mid-way. */
const selection = {
  'POST /api/getaccounts/count': 1,
  'GET /api/getaccountinfo/1000123': administrator,
};

const tableRows = async () => {
  const table = await screen.findByRole('table', { name: scimTexts.tokens });
  return within(table).getAllByRole('row').slice(1);
};

const count = (calls: string[], key: string) => calls.filter((c) => c === key).length;

describe('SCIM provisioning panel', () => {
  it('shows the base URL and the tokens with who issued them, last use and state', async () => {
    open(administrator, { [LIST]: [okta, old] });
    expect(await screen.findByRole('region', { name: scimTexts.title })).toHaveTextContent(
      'pushes people and groups here',
    );
    expect(screen.getByRole('textbox', { name: scimTexts.baseUrl })).toHaveValue(
      `${window.location.origin}/scim/v2/1000123`,
    );
    expect(screen.getByRole('button', { name: scimTexts.copyBaseUrl })).toBeInTheDocument();
    const [first, second] = await tableRows();
    expect(first).toHaveTextContent(
      `Okta${formatDateTime(okta.createdAt)}Ada Lovelace <ada@acme.test>${formatDateTime('2026-11-26T10:15:00.000Z')}Active`,
    );
    expect(second).toHaveTextContent('Old Entra ID');
    expect(second).toHaveTextContent('Not used yet');
    expect(second).toHaveTextContent('Revoked');
    expect(
      await within(first as HTMLElement).findByRole('button', { name: 'Revoke token Okta' }),
    ).toBeInTheDocument();
    expect(within(second as HTMLElement).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('issues a token, shows its secret once and reads the list again', async () => {
    open(administrator, { [LIST]: [okta] });
    await tableRows();
    await userEvent.click(await screen.findByRole('button', { name: scimTexts.newToken }));
    const form = await screen.findByRole('dialog', { name: scimTexts.issueTitle });
    const issue = within(form).getByRole('button', { name: scimTexts.issue });
    expect(issue).toBeDisabled();
    const name = within(form).getByRole('textbox', { name: scimTexts.name });
    expect(name).toBeRequired();
    expect(name).toHaveAttribute('maxlength', '100');
    await userEvent.type(name, '   ');
    expect(issue).toBeDisabled();
    await userEvent.type(name, 'Keycloak  ');

    const calls = serveApi({
      ...selection,
      [LIST]: [keycloak, okta],
      [ISSUE]: { ...keycloak, token: 'scim_s3cret', endpoint: '/scim/v2/1000123' },
    });
    await userEvent.click(issue);
    const secret = await screen.findByRole('dialog', { name: scimTexts.secretTitle });
    expect(secret).toHaveTextContent('It will not be shown again.');
    expect(within(secret).getByRole('textbox', { name: 'Token' })).toHaveValue('scim_s3cret');
    expect(within(secret).getByRole('textbox', { name: scimTexts.baseUrl })).toHaveValue(
      `${window.location.origin}/scim/v2/1000123`,
    );
    expect(screen.queryByRole('dialog', { name: scimTexts.issueTitle })).toBeNull();
    expect(count(calls, ISSUE)).toBe(1);
    await expect.poll(() => count(calls, LIST)).toBe(1);
    expect(await screen.findByRole('cell', { name: 'Keycloak' })).toBeInTheDocument();

    const close = within(secret)
      .getAllByRole('button', { name: 'Close' })
      .find((b) => b.textContent === 'Close');
    await userEvent.click(close as HTMLElement);
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByDisplayValue('scim_s3cret')).toBeNull();
    expect(document.body).not.toHaveTextContent('scim_s3cret');
  });

  it('sends the trimmed name', async () => {
    const sent: unknown[] = [];
    open(administrator, { [LIST]: [] });
    expect(await screen.findByText(scimTexts.empty)).toBeInTheDocument();
    serveApi({
      ...selection,
      [LIST]: [keycloak],
      [ISSUE]: { ...keycloak, token: 'scim_s3cret', endpoint: '/scim/v2/1000123' },
    });
    const stubbed = globalThis.fetch;
    // serveApi answers; this wrapper also keeps what the issue call sent (undone after the test with the stub).
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/issue')) sent.push(JSON.parse(String(init?.body)));
      return stubbed(input, init);
    });
    await userEvent.click(await screen.findByRole('button', { name: scimTexts.newToken }));
    const form = await screen.findByRole('dialog', { name: scimTexts.issueTitle });
    await userEvent.type(within(form).getByRole('textbox', { name: scimTexts.name }), '  Keycloak ');
    await userEvent.click(within(form).getByRole('button', { name: scimTexts.issue }));
    await screen.findByRole('dialog', { name: scimTexts.secretTitle });
    expect(sent).toEqual([{ customerNumber: '1000123', name: 'Keycloak' }]);
  });

  it('shows a refused issue in its dialog and keeps the dialog open', async () => {
    const refusal = 'You do not have enough permissions for such operation.';
    const view = open(administrator, { [LIST]: [okta], [ISSUE]: refused(403, refusal) });
    await tableRows();
    await userEvent.click(await screen.findByRole('button', { name: scimTexts.newToken }));
    const form = await screen.findByRole('dialog', { name: scimTexts.issueTitle });
    await userEvent.type(within(form).getByRole('textbox', { name: scimTexts.name }), 'Okta 2');
    await userEvent.click(within(form).getByRole('button', { name: scimTexts.issue }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.queryByRole('dialog', { name: scimTexts.secretTitle })).toBeNull();
    expect(count(view.calls, ISSUE)).toBe(1);
  });

  it('revokes a token once confirmed and reads the list again', async () => {
    const view = open(administrator, {
      [LIST]: [okta],
      [REVOKE]: { ...okta, revokedAt: '2026-11-27T09:00:00.000Z' },
    });
    const [row] = await tableRows();
    await userEvent.click(
      await within(row as HTMLElement).findByRole('button', { name: 'Revoke token Okta' }),
    );
    const confirm = await screen.findByRole('dialog', { name: scimTexts.revokeTitle });
    expect(confirm).toHaveTextContent('Okta');
    await userEvent.click(within(confirm).getByRole('button', { name: scimTexts.cancel }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(count(view.calls, REVOKE)).toBe(0);

    await userEvent.click(
      await within(row as HTMLElement).findByRole('button', { name: 'Revoke token Okta' }),
    );
    const again = await screen.findByRole('dialog', { name: scimTexts.revokeTitle });
    await userEvent.click(within(again).getByRole('button', { name: scimTexts.revoke }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    expect(count(view.calls, REVOKE)).toBe(1);
    await expect.poll(() => count(view.calls, LIST)).toBe(2);
  });

  it('shows a refused revoke in its dialog', async () => {
    const refusal = 'No SCIM token with this id in the account.';
    const view = open(administrator, { [LIST]: [okta], [REVOKE]: refused(404, refusal) });
    const [row] = await tableRows();
    await userEvent.click(
      await within(row as HTMLElement).findByRole('button', { name: 'Revoke token Okta' }),
    );
    const confirm = await screen.findByRole('dialog', { name: scimTexts.revokeTitle });
    await userEvent.click(within(confirm).getByRole('button', { name: scimTexts.revoke }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent(refusal);
    expect(count(view.calls, REVOKE)).toBe(1);
  });

  it('shows a view-only user the tokens without New token or Revoke', async () => {
    const view = open(viewer, { [LIST]: [okta, old] });
    expect(await tableRows()).toHaveLength(2);
    await screen.findByText('Account info loaded');
    expect(screen.queryByRole('button', { name: scimTexts.newToken })).toBeNull();
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(screen.getByRole('button', { name: scimTexts.copyBaseUrl })).toBeInTheDocument();
    expect(view.calls).toContain(LIST);
  });
});
