import { messages } from '@lp/contract/common/errors';
import type { WebUser } from '@lp/contract/web-directory/schemas';
import type { WebPoolUse } from '@lp/contract/web-seats/schemas';
import type { OpenWebSession } from '@lp/contract/web-sessions/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import WebUsersPage, { webUsersTexts } from './web-users-page.tsx';

/*
 * /web-assignments/users (decision 071 "Pages"): the directory grid, invite and CSV import with the server's
 * preview shown before Save, removal confirmed with the server's preview, sessions with Release, a refused
 * invitation shown in its dialog, view-only users without write controls, the empty state and an export-denied
 * account's notice. The server's halves (refusals, previews, view-only 403) are the web-directory, web-seats and
 * web-sessions API tests'.
 */

const ada: WebUser = {
  id: '7f1c2a4e-0000-4000-8000-000000000001',
  email: 'ada@acme.test',
  name: 'Ada Lovelace',
  source: 'manual',
  state: 'active',
  role: 'administrator',
  groups: [{ id: 'g-eng', name: 'Engineering' }],
  seats: [
    { partNumber: 'FLU-PREM-NU', groupId: null, groupName: null },
    { partNumber: 'STR-NU', groupId: 'g-eng', groupName: 'Engineering' },
  ],
  lastSeenAt: '2026-11-26T10:15:00.000Z',
  openSessions: 1,
};
const bob: WebUser = {
  id: '7f1c2a4e-0000-4000-8000-000000000002',
  email: 'bob@acme.test',
  name: 'Bob',
  source: 'csv',
  state: 'suspended',
  role: 'member',
  groups: [],
  seats: [],
  lastSeenAt: null,
  openSessions: 0,
};
const session: OpenWebSession = {
  leaseId: '5a0e7c1e-0000-4000-8000-00000000000a',
  userId: ada.id,
  email: ada.email,
  name: ada.name,
  partNumber: 'FLU-PREM-NU',
  seat: 'named',
  group: null,
  product: 'Fluids Web',
  client: 'browser',
  startedAt: '2026-11-27T08:00:00.000Z',
  lastHeartbeatAt: '2026-11-27T08:05:00.000Z',
  lastActivityAt: null,
};
const fluids: WebPoolUse = {
  partNumber: 'FLU-PREM-NU',
  productName: 'Fluids Premium',
  kind: 'named',
  seats: 10,
  start: '2026-01-01',
  end: null,
  policy: { heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 },
  assigned: 1,
  inUse: 1,
  peak30Days: 1,
  transfers: { used: 0, allowance: 10, text: 'Transfers in the last 30 days: 0 of 10' },
  groupTerms: [],
};
const structures: WebPoolUse = { ...fluids, partNumber: 'STR-NU', productName: 'Structures' };

const administrator = testAccount({ hasNamedLicense: 1, isPortalEdit: true });
const viewer = testAccount({ hasNamedLicense: 1 });
const TABLE = 'Web users table';

const open = (account: typeof administrator, answers: Record<string, unknown>) =>
  renderAccountPage(<WebUsersPage />, {
    path: '/web-assignments/users',
    account,
    answers: { 'GET /api/featureflag/pref': [], ...answers },
  });

/** The row showing `text`, once the saved view is on the grid (applying it draws the rows again). */
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

describe('web users page', () => {
  it('lists the people with source, state, role, groups, seats, last seen and open sessions', async () => {
    open(administrator, { 'POST /api/web/users': [ada, bob] });
    expect(cells(await row('ada@acme.test'))).toMatchObject({
      name: 'Ada Lovelace',
      source: 'Invited',
      state: 'Active',
      role: 'Administrator',
      groups: 'Engineering',
      directSeats: 'FLU-PREM-NU',
      inheritedSeats: 'STR-NU (Engineering)',
      lastSeen: '2026-11-26 10:15:00',
      openSessions: '1',
    });
    expect(cells(await row('bob@acme.test'))).toMatchObject({ source: 'CSV import', state: 'Suspended' });
  });

  it('invites people after showing the server preview, and Save sends the previewed list', async () => {
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/users/invite': {
        preview: true,
        text: 'invites 2 users',
        invited: ['carol@acme.test', 'dan@acme.test'],
        restored: [],
        unchanged: [],
        groupsCreated: [],
        membershipsAdded: 0,
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Invite users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite users' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /E-mail addresses/ }),
      'carol@acme.test, dan@acme.test',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByTestId('preview-text')).toHaveTextContent(
      'This change invites 2 users. Save it?',
    );
    expect(count(view.calls, 'POST /api/web/users/invite')).toBe(1);
    await userEvent.click(save);
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Invite users' })).toBeNull();
    expect(count(view.calls, 'POST /api/web/users/invite')).toBe(2);
  });

  it('shows a refused invitation in its dialog and saves nothing', async () => {
    const refusal = '"carol@" is not an e-mail address.';
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/users/invite': refused(400, refusal),
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Invite users' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite users' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /E-mail addresses/ }), 'carol@');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(count(view.calls, 'POST /api/web/users/invite')).toBe(1);
  });

  it('imports a CSV file once its preview is shown', async () => {
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/users/import': {
        preview: true,
        text: 'invites 1 user; creates 1 group; adds 1 group membership',
        invited: ['erin@acme.test'],
        restored: [],
        unchanged: [],
        groupsCreated: ['Design'],
        membershipsAdded: 1,
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import users from CSV' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await userEvent.upload(
      input,
      new File(['email,name,groups\nerin@acme.test,Erin,Design\n'], 'people.csv', { type: 'text/csv' }),
    );
    const preview = within(dialog).getByRole('button', { name: 'Preview' });
    await expect.poll(() => preview).toBeEnabled();
    await userEvent.click(preview);
    expect(await within(dialog).findByTestId('preview-text')).toHaveTextContent(
      'This change invites 1 user; creates 1 group; adds 1 group membership. Save it?',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Import users from CSV' })).toBeNull();
    expect(count(view.calls, 'POST /api/web/users/import')).toBe(2);
  });

  it('asks with the server preview before removing a person', async () => {
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/users/remove': {
        preview: true,
        text: 'removes 1 user; frees 2 named seats; ends 1 session',
        users: 1,
        seatsFreed: 2,
        sessionsEnded: 1,
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for ada@acme.test' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Remove', hidden: true }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(confirm).toHaveTextContent(
      'This change removes 1 user; frees 2 named seats; ends 1 session. Save it?',
    );
    expect(count(view.calls, 'POST /api/web/users/remove')).toBe(1);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await expect.poll(() => count(view.calls, 'POST /api/web/users/remove')).toBe(2);
  });

  it('assigns a named seat after the server preview', async () => {
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/pools': [fluids, structures],
      'POST /api/web/seats/assign': {
        preview: true,
        text: 'assigns 1 user to Structures',
        assigned: 0,
        unassigned: 0,
        madeDirect: 1,
        keptThroughGroup: 0,
        transfers: 0,
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for ada@acme.test' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Assign seat', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign a seat to ada@acme.test' });
    await userEvent.click(within(dialog).getByLabelText('Named pool'));
    // Ada holds Fluids directly: only Structures (held through a group) is offered.
    expect(screen.queryByRole('option', { name: /Fluids Premium/, hidden: true })).toBeNull();
    await userEvent.click(
      await screen.findByRole('option', { name: 'Structures (STR-NU), held through a group', hidden: true }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(confirm).toHaveTextContent('This change assigns 1 user to Structures. Save it?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await expect.poll(() => count(view.calls, 'POST /api/web/seats/assign')).toBe(2);
  });

  it('transfers a direct seat to another person after the server preview, showing the allowance', async () => {
    const carol: WebUser = {
      ...bob,
      id: '7f1c2a4e-0000-4000-8000-000000000003',
      email: 'carol@acme.test',
      name: 'Carol',
      state: 'active',
    };
    const view = open(administrator, {
      'POST /api/web/users': [ada, bob, carol],
      'POST /api/web/pools': [fluids, structures],
      'POST /api/web/seats/transfer': {
        preview: true,
        text: 'removes 1 user from Fluids Premium; assigns 1 user to Fluids Premium',
        assigned: 1,
        unassigned: 1,
        madeDirect: 0,
        keptThroughGroup: 0,
        transfers: 1,
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Actions for ada@acme.test' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Transfer seat', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Transfer a seat of ada@acme.test' });
    // Ada's one direct seat is chosen; the pool's allowance is the server's sentence.
    expect(await within(dialog).findByText('Transfers in the last 30 days: 0 of 10')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByLabelText('To'));
    // Suspended Bob cannot take a seat: only Carol is offered.
    expect(screen.queryByRole('option', { name: /bob@acme.test/, hidden: true })).toBeNull();
    await userEvent.click(
      await screen.findByRole('option', { name: 'Carol <carol@acme.test>', hidden: true }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Transfer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Confirm' });
    expect(confirm).toHaveTextContent(
      'This change removes 1 user from Fluids Premium; assigns 1 user to Fluids Premium. Save it?',
    );
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes' }));
    await expect.poll(() => count(view.calls, 'POST /api/web/seats/transfer')).toBe(2);
  });

  it('releases an open session', async () => {
    const view = open(administrator, {
      'POST /api/web/users': [ada],
      'POST /api/web/sessions': [session],
      'POST /api/web/sessions/release': {
        leaseId: session.leaseId,
        outcome: 'admin-released',
        endedAt: '2026-11-27T08:06:00.000Z',
      },
    });
    await row('ada@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Open sessions of ada@acme.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open sessions of ada@acme.test' });
    await userEvent.click(
      await within(dialog).findByRole('button', {
        name: 'Release session of FLU-PREM-NU started 2026-11-27 08:00:00',
      }),
    );
    await expect.poll(() => count(view.calls, 'POST /api/web/sessions/release')).toBe(1);
    expect(await screen.findByText('Session released.')).toBeInTheDocument();
  });

  it('shows a view-only user the directory and sessions without any write control', async () => {
    open(viewer, { 'POST /api/web/users': [ada], 'POST /api/web/sessions': [session] });
    await row('ada@acme.test');
    expect(screen.queryByRole('button', { name: 'Invite users' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import CSV' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Actions for ada@acme.test' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Open sessions of ada@acme.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open sessions of ada@acme.test' });
    expect(await within(dialog).findByText('browser')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Release/ })).toBeNull();
  });

  it('says when the directory is empty and still offers the invitation', async () => {
    open(administrator, { 'POST /api/web/users': [] });
    expect(await screen.findByText(webUsersTexts.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invite users' })).toBeInTheDocument();
  });

  it('sends an export-denied account to the notice', async () => {
    const view = open(administrator, { 'POST /api/web/users': refused(403, messages.exportDenied) });
    await expect.poll(() => view.location()).toBe('/noaccess');
  });
});
