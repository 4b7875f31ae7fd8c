import { messages } from '@lp/contract/common/errors';
import type { WebGroup, WebUser } from '@lp/contract/web-directory/schemas';
import type { WebPoolUse } from '@lp/contract/web-seats/schemas';
import { webDirectoryMessages } from '@lp/domain/web-directory';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import WebGroupsPage, { webGroupsTexts } from './web-groups-page.tsx';

/*
 * /web-assignments/groups (decision 071 "Pages"): the groups grid, create with the server's refusal in its dialog,
 * members and shared terms previewed before Save, delete confirmed with the server's preview, SCIM groups without
 * rename, members or delete (the server's text instead), view-only users without write controls, the empty state
 * and an export-denied account's notice. The server's halves are the web-directory and web-seats API tests'.
 */

const engineering: WebGroup = {
  id: '0b7a3c52-0000-4000-8000-000000000001',
  name: 'Engineering',
  source: 'manual',
  memberIds: ['7f1c2a4e-0000-4000-8000-000000000001'],
  members: 1,
  namedPools: ['FLU-PREM-NU'],
  sharedTerms: [{ partNumber: 'STR-SW', guaranteed: 5, cap: 10 }],
};
const fromIdp: WebGroup = {
  id: '0b7a3c52-0000-4000-8000-000000000002',
  name: 'Okta Designers',
  source: 'scim',
  memberIds: [],
  members: 0,
  namedPools: [],
  sharedTerms: [],
};
const ada: WebUser = {
  id: '7f1c2a4e-0000-4000-8000-000000000001',
  email: 'ada@acme.test',
  name: 'Ada',
  source: 'manual',
  state: 'active',
  role: 'administrator',
  groups: [{ id: engineering.id, name: 'Engineering' }],
  seats: [],
  lastSeenAt: null,
  openSessions: 0,
};
const bob: WebUser = {
  ...ada,
  id: '7f1c2a4e-0000-4000-8000-000000000002',
  email: 'bob@acme.test',
  name: 'Bob',
};
const pool = {
  start: '2026-01-01',
  end: null,
  policy: { heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 },
  assigned: 0,
  inUse: 0,
  peak30Days: 0,
  transfers: { used: 0, allowance: 10, text: 'Transfers in the last 30 days: 0 of 10' },
  groupTerms: [],
};
const fluids: WebPoolUse = {
  ...pool,
  partNumber: 'FLU-PREM-NU',
  productName: 'Fluids',
  kind: 'named',
  seats: 10,
};
const structures: WebPoolUse = {
  ...pool,
  partNumber: 'STR-SW',
  productName: 'Structures',
  kind: 'shared',
  seats: 20,
  groupTerms: [
    { groupId: engineering.id, groupName: 'Engineering', guaranteed: 5, cap: 10 },
    { groupId: 'other-group', groupName: 'Sales', guaranteed: 2, cap: null },
  ],
};
const groupChange = (text: string) => ({
  preview: true,
  text,
  added: 1,
  removed: 0,
  seatsAdded: 1,
  seatsRemoved: 0,
});

const administrator = testAccount({ hasSharedLicense: 1, isPortalEdit: true });
const viewer = testAccount({ hasSharedLicense: 1 });
const TABLE = 'Web groups table';
const editorReads = {
  'POST /api/web/users': [ada, bob],
  'POST /api/web/pools': [fluids, structures],
};

const open = (account: typeof administrator, answers: Record<string, unknown>) =>
  renderAccountPage(<WebGroupsPage />, {
    path: '/web-assignments/groups',
    account,
    answers: { 'GET /api/featureflag/pref': [], ...answers },
  });

const row = async (text: string) => {
  const table = await screen.findByRole('region', { name: TABLE }, { timeout: 20_000 });
  await expect
    .poll(() => screen.getByRole('button', { name: 'Export as csv' }), { timeout: 20_000 })
    .toBeEnabled();
  const cell = await within(table).findByText(text, {}, { timeout: 20_000 });
  return cell.closest('[role="row"]') as HTMLElement;
};

const cells = (r: HTMLElement) =>
  Object.fromEntries(
    [...r.querySelectorAll('[col-id]')].map((c) => [c.getAttribute('col-id'), c.textContent]),
  );

const count = (calls: string[], key: string) => calls.filter((c) => c === key).length;

const action = async (group: string, item: string) => {
  await userEvent.click(screen.getByRole('button', { name: `Actions for ${group}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: item, hidden: true }));
};

describe('web groups page', () => {
  it('lists the groups with source, members, named pools and shared terms', async () => {
    open(administrator, { 'POST /api/web/groups': [engineering, fromIdp], ...editorReads });
    expect(cells(await row('Engineering'))).toMatchObject({
      source: 'Manual',
      members: '1',
      namedPools: 'FLU-PREM-NU',
      sharedTerms: 'STR-SW: guaranteed 5, cap 10',
    });
    expect(cells(await row('Okta Designers'))).toMatchObject({ source: 'Identity provider (SCIM)' });
  });

  it('offers a SCIM group only its pools and terms, with the server text for the rest', async () => {
    open(administrator, { 'POST /api/web/groups': [fromIdp], ...editorReads });
    await row('Okta Designers');
    await expect.poll(() => screen.getByRole('button', { name: 'Actions for Okta Designers' })).toBeEnabled();
    // The pools are read: the menu then offers Named pools.
    await expect
      .poll(async () => {
        await userEvent.click(screen.getByRole('button', { name: 'Actions for Okta Designers' }));
        return screen.queryByRole('menuitem', { name: 'Named pools', hidden: true });
      })
      .not.toBeNull();
    expect(screen.getByText(webDirectoryMessages.scimManaged)).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Rename', hidden: true })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Members', hidden: true })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Delete', hidden: true })).toBeNull();
  });

  it('shows a refused new group name in its dialog', async () => {
    const taken = webDirectoryMessages.groupNameTaken('Engineering');
    open(administrator, {
      'POST /api/web/groups': [engineering],
      'POST /api/web/groups/create': refused(409, taken),
      ...editorReads,
    });
    await row('Engineering');
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create group' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Group name' }), 'Engineering');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(taken);
  });

  it('shows the members change the server previews before saving it', async () => {
    const view = open(administrator, {
      'POST /api/web/groups': [engineering],
      'POST /api/web/groups/members': groupChange('adds 1 member; removes 0 members; assigns 1 named seat'),
      ...editorReads,
    });
    await row('Engineering');
    await expect.poll(() => view.calls).toContain('POST /api/web/users');
    await action('Engineering', 'Members');
    const dialog = await screen.findByRole('dialog', { name: 'Members of Engineering' });
    await userEvent.click(within(dialog).getByLabelText('Members'));
    await userEvent.click(await screen.findByRole('option', { name: 'Bob <bob@acme.test>', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByTestId('preview-text')).toHaveTextContent(
      'This change adds 1 member; removes 0 members; assigns 1 named seat. Save it?',
    );
    expect(count(view.calls, 'POST /api/web/groups/members')).toBe(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Members of Engineering' })).toBeNull();
    expect(count(view.calls, 'POST /api/web/groups/members')).toBe(2);
  });

  it('keeps a refused shared terms preview in its dialog, with Save off', async () => {
    const refusal = 'Structures has 20 seats; these terms guarantee 25.';
    const view = open(administrator, {
      'POST /api/web/groups': [engineering],
      'POST /api/web/pools/terms': refused(409, refusal),
      ...editorReads,
    });
    await row('Engineering');
    await expect.poll(() => view.calls).toContain('POST /api/web/pools');
    await action('Engineering', 'Shared terms');
    const dialog = await screen.findByRole('dialog', { name: 'Shared terms of Engineering' });
    const guaranteed = within(dialog).getByRole('textbox', { name: /Guaranteed seats/ });
    expect(guaranteed).toHaveValue('5');
    await userEvent.clear(guaranteed);
    await userEvent.type(guaranteed, '23');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('asks with the server preview before deleting a group', async () => {
    const view = open(administrator, {
      'POST /api/web/groups': [engineering],
      'POST /api/web/groups/delete': groupChange('deletes Engineering with 1 member; frees 1 named seat'),
      ...editorReads,
    });
    await row('Engineering');
    await action('Engineering', 'Delete');
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(confirm).toHaveTextContent(
      'This change deletes Engineering with 1 member; frees 1 named seat. Save it?',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'No' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Confirm' })).toBeNull();
    expect(count(view.calls, 'POST /api/web/groups/delete')).toBe(1);
  });

  it('shows a view-only user the groups without any write control', async () => {
    const view = open(viewer, { 'POST /api/web/groups': [engineering] });
    await row('Engineering');
    expect(screen.queryByRole('button', { name: 'Create group' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for Engineering' })).toBeNull();
    expect(view.calls).not.toContain('POST /api/web/users');
  });

  it('says when there are no groups', async () => {
    open(administrator, { 'POST /api/web/groups': [], ...editorReads });
    expect(await screen.findByText(webGroupsTexts.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create group' })).toBeInTheDocument();
  });

  it('sends an export-denied account to the notice', async () => {
    const view = open(administrator, {
      'POST /api/web/groups': refused(403, messages.exportDenied),
      ...editorReads,
    });
    await expect.poll(() => view.location()).toBe('/noaccess');
  });
});
