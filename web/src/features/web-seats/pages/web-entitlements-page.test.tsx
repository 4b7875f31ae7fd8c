import { messages } from '@lp/contract/common/errors';
import type { WebPoolUse } from '@lp/contract/web-seats/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { refused } from '../../../../test/render.tsx';
import WebEntitlementsPage, { webEntitlementsTexts } from './web-entitlements-page.tsx';

/*
 * /web-assignments (decision 071 "Pages"): the pools grid, Edit policy with the server's refusal in the dialog,
 * view-only users without the action, the empty state and an export-denied account's notice. That the server
 * refuses view-only saves and export-denied reads is server/src/features/web-seats/web-seats.api.test.ts's.
 */

const policy = { heartbeatWindowSeconds: 300, idleTimeoutSeconds: 900, sessionsPerUser: 1 };
const fluids: WebPoolUse = {
  partNumber: 'FLU-PREM-NU',
  productName: 'Fluids Premium',
  kind: 'named',
  seats: 10,
  start: '2026-01-01',
  end: '2026-12-31',
  policy,
  assigned: 7,
  inUse: 4,
  peak30Days: 9,
  transfers: { used: 3, allowance: 10, text: 'Transfers in the last 30 days: 3 of 10' },
  groupTerms: [],
};
const structures: WebPoolUse = {
  partNumber: 'STR-SW',
  productName: 'Structures',
  kind: 'shared',
  seats: 25,
  start: '2026-03-01',
  end: null,
  policy: { heartbeatWindowSeconds: 90, idleTimeoutSeconds: 3600, sessionsPerUser: 2 },
  assigned: 0,
  inUse: 12,
  peak30Days: 21,
  transfers: { used: 0, allowance: 25, text: 'Transfers in the last 30 days: 0 of 25' },
  groupTerms: [{ groupId: 'g-eng', groupName: 'Engineering', guaranteed: 5, cap: 10 }],
};

/** The cells of a row, in column order, as the grid shows them. */
const cells = (row: HTMLElement) =>
  Object.fromEntries(
    [...row.querySelectorAll('[col-id]')].map((c) => [c.getAttribute('col-id'), c.textContent ?? '']),
  );

const administrator = testAccount({ hasNamedLicense: 1, isPortalEdit: true });
const viewer = testAccount({ hasNamedLicense: 1 });
const TABLE = 'Web seat pools table';

const open = (account: typeof administrator, answers: Record<string, unknown>) =>
  renderAccountPage(<WebEntitlementsPage />, {
    path: '/web-assignments',
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

describe('web entitlements page', () => {
  it('lists the pools with kind, seats, use, term, policy, transfers and group terms', async () => {
    open(administrator, { 'POST /api/web/pools': [fluids, structures] });
    expect(cells(await row('Fluids Premium'))).toMatchObject({
      partNumber: 'FLU-PREM-NU',
      kind: 'Named',
      seats: '10',
      assigned: '7',
      inUse: '4',
      peak30Days: '9',
      term: '2026-01-01 – 2026-12-31',
      policy: 'Heartbeat 5 min, idle 15 min, 1 session per user',
      transfers: 'Transfers in the last 30 days: 3 of 10',
      groupTerms: '',
    });
    expect(cells(await row('Structures'))).toMatchObject({
      kind: 'Shared',
      seats: '25',
      assigned: '',
      inUse: '12',
      peak30Days: '21',
      term: '2026-03-01 – permanent',
      policy: 'Heartbeat 90 s, idle 60 min, 2 sessions per user',
      transfers: '',
      groupTerms: 'Engineering: guaranteed 5, cap 10',
    });
    expect(screen.getByRole('button', { name: 'Export as csv' })).toBeInTheDocument();
  });

  it('keeps the dialog open with the server refusal when a save is refused', async () => {
    const view = open(administrator, {
      'POST /api/web/pools': [fluids],
      'POST /api/web/pools/policy': refused(403, messages.noPermission),
    });
    await row('Fluids Premium');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit policy of Fluids Premium' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit policy' });
    const sessions = within(dialog).getByRole('textbox', { name: 'Sessions per user' });
    await userEvent.clear(sessions);
    await userEvent.type(sessions, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(messages.noPermission);
    expect(view.calls).toContain('POST /api/web/pools/policy');
    expect(screen.getByRole('dialog', { name: 'Edit policy' })).toBeInTheDocument();
  });

  it('checks the bounds before saving and saves a policy within them', async () => {
    const view = open(administrator, {
      'POST /api/web/pools': [fluids],
      'POST /api/web/pools/policy': { ...fluids, policy: { ...policy, idleTimeoutSeconds: 1800 } },
    });
    await row('Fluids Premium');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit policy of Fluids Premium' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit policy' });
    const idle = within(dialog).getByRole('textbox', { name: 'Idle timeout (seconds)' });
    await userEvent.clear(idle);
    await userEvent.type(idle, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Idle timeout (seconds) must be a whole number from 60 to 86400.'),
    ).toBeInTheDocument();
    expect(view.calls).not.toContain('POST /api/web/pools/policy');
    await userEvent.clear(idle);
    await userEvent.type(idle, '1800');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expect.poll(() => screen.queryByRole('dialog', { name: 'Edit policy' })).toBeNull();
    expect(view.calls).toContain('POST /api/web/pools/policy');
  });

  it('shows a view-only user the pools without Edit policy', async () => {
    open(viewer, { 'POST /api/web/pools': [fluids] });
    await row('Fluids Premium');
    expect(screen.queryByRole('button', { name: /Edit policy/ })).toBeNull();
  });

  it('says when the account has no web seat pools', async () => {
    open(administrator, { 'POST /api/web/pools': [] });
    expect(await screen.findByText(webEntitlementsTexts.empty)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: TABLE })).toBeNull();
  });

  it('sends an export-denied account to the notice', async () => {
    const view = open(administrator, { 'POST /api/web/pools': refused(403, messages.exportDenied) });
    await expect.poll(() => view.location()).toBe('/noaccess');
  });
});
