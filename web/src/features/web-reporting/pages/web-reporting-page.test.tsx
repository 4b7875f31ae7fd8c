import { messages } from '@lp/contract/common/errors';
import type {
  HeatmapCell,
  PoolDenials,
  PoolUtilisation,
  ReclaimSeat,
} from '@lp/contract/web-reporting/schemas';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { byBody, later, refused } from '../../../../test/render.tsx';
import WebReportingPage, { webReportingTexts } from './web-reporting-page.tsx';

/*
 * /web-reporting (decision 071): the reports as the server answers them, the reclaim list's Unassign for
 * administrators and not for view-only users, the empty states and an export-denied account's notice. The numbers
 * are the server's (server/src/features/web-reporting/web-reporting.api.test.ts).
 */

const shared: PoolUtilisation = {
  partNumber: 'SW-1',
  productName: 'Mechanical - Shared Web',
  kind: 'shared',
  seats: 2,
  assigned: 0,
  activeUsers: 4,
  peakConcurrent: 3,
  days: [
    { day: '2026-11-26', seats: 2, peak: 3 },
    { day: '2026-11-27', seats: 2, peak: 1 },
  ],
  groups: [{ groupId: 'g-1', groupName: 'Design', guaranteed: 1, cap: 2, activeUsers: 2, peakConcurrent: 2 }],
};
const cells: HeatmapCell[] = Array.from({ length: 168 }, (_, i) => ({
  weekday: Math.floor(i / 24),
  hour: i % 24,
  started: i === 34 ? 2 : 0,
  active: i === 34 ? 3 : 0,
}));
const denials: PoolDenials[] = [
  {
    partNumber: 'SW-1',
    productName: 'Mechanical - Shared Web',
    seats: 2,
    total: 4,
    byReason: [
      { reason: 'pool-full', label: 'Pool full', count: 3 },
      { reason: 'group-cap', label: 'Group at its cap', count: 1 },
    ],
    seatsToAvoid: 2,
  },
];
const idle: ReclaimSeat = {
  partNumber: 'NU-1',
  productName: 'Fluids Premium - Named User',
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'fay@acme.example',
  name: 'Fay',
  assignedAt: '2026-08-01T00:00:00.000Z',
  viaGroup: null,
  lastSeen: null,
};
const throughGroup: ReclaimSeat = {
  ...idle,
  userId: '00000000-0000-4000-8000-000000000002',
  email: 'cy@acme.example',
  name: 'Cy',
  viaGroup: 'Design',
  lastSeen: '2026-10-01T10:00:00.000Z',
};

const administrator = testAccount({ hasNamedLicense: 1, isPortalEdit: true });
const viewer = testAccount({ hasNamedLicense: 1 });

const reports = (reclaim: ReclaimSeat[]) => ({
  'POST /api/web/reports/utilisation': [shared],
  'POST /api/web/reports/heatmap': cells,
  'POST /api/web/reports/denials': denials,
  'POST /api/web/reports/reclaim': { total: reclaim.length, seats: reclaim },
});
const open = (account: typeof administrator, answers: Record<string, unknown>) =>
  renderAccountPage(<WebReportingPage />, { path: '/web-reporting', account, answers });

describe('web reporting page', () => {
  it('shows utilisation, the heat map, denials and the unused seats', async () => {
    open(administrator, reports([idle, throughGroup]));
    const pool = await screen.findByRole('region', { name: 'Utilisation of Mechanical - Shared Web' });
    expect(pool).toHaveTextContent('Seats: 2');
    expect(pool).toHaveTextContent('Active users: 4');
    expect(pool).toHaveTextContent('Peak concurrent: 3');
    const groups = within(pool).getByRole('table', { name: 'Groups of Mechanical - Shared Web' });
    expect(within(groups).getByRole('row', { name: /Design/ })).toHaveTextContent('Design122');
    expect(
      await screen.findByLabelText('Tuesday 10:00–10:59 UTC: 3 sessions open, 2 started'),
    ).toBeInTheDocument();
    const byPool = await screen.findByRole('table', { name: 'Denials by pool' });
    expect(within(byPool).getByRole('row', { name: /Mechanical/ })).toHaveTextContent(
      'Mechanical - Shared Web24Pool full: 3, Group at its cap: 12',
    );
    const unused = await screen.findByRole('table', { name: 'Unused named seats' });
    expect(within(unused).getByRole('row', { name: /cy@acme/ })).toHaveTextContent('Through group Design');
    expect(within(unused).getByRole('row', { name: /fay@acme/ })).toHaveTextContent('never');
  });

  it('unassigns a direct seat in one click and reads the list again', async () => {
    const view = open(administrator, {
      ...reports([idle]),
      'POST /api/web/seats/unassign': {
        preview: false,
        text: 'removes 1 user from Fluids Premium - Named User',
        assigned: 0,
        unassigned: 1,
        madeDirect: 0,
        keptThroughGroup: 0,
        transfers: 0,
      },
    });
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Unassign fay@acme.example from Fluids Premium - Named User',
      }),
    );
    await expect.poll(() => view.calls.filter((c) => c === 'POST /api/web/seats/unassign')).toHaveLength(1);
    await expect
      .poll(() => view.calls.filter((c) => c === 'POST /api/web/reports/reclaim').length)
      .toBeGreaterThan(1);
  });

  it('shows a view-only user the unused seats without Unassign', async () => {
    open(viewer, reports([idle]));
    const unused = await screen.findByRole('table', { name: 'Unused named seats' });
    expect(within(unused).getByRole('row', { name: /fay@acme/ })).toHaveTextContent('Direct');
    expect(screen.queryByRole('button', { name: /Unassign/ })).toBeNull();
  });

  it('switches the reclaim window and says when every seat was used', async () => {
    const view = open(administrator, reports([]));
    expect(await screen.findByText(webReportingTexts.noReclaim(30))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: '90 days' }));
    expect(await screen.findByText(webReportingTexts.noReclaim(90))).toBeInTheDocument();
    expect(view.calls.filter((c) => c === 'POST /api/web/reports/reclaim')).toHaveLength(2);
  });

  it('says when the account has no web seat pools', async () => {
    open(administrator, { ...reports([]), 'POST /api/web/reports/utilisation': [] });
    expect(await screen.findByText(webReportingTexts.noPools)).toBeInTheDocument();
  });

  it('sends an export-denied account to the notice', async () => {
    const denied = refused(403, messages.exportDenied);
    const view = open(administrator, {
      'POST /api/web/reports/utilisation': denied,
      'POST /api/web/reports/heatmap': denied,
      'POST /api/web/reports/denials': denied,
      'POST /api/web/reports/reclaim': denied,
    });
    await expect.poll(() => view.location(), { timeout: 20_000 }).toBe('/noaccess');
  });

  it('shows the heat map of the pool chosen, or of all pools', async () => {
    const named: PoolUtilisation = {
      ...shared,
      partNumber: 'NU-1',
      productName: 'Fluids Premium - Named User',
      kind: 'named',
      groups: [],
    };
    // Monday 09:00 has 5 sessions in the named pool, Tuesday 10:00 3 in all pools.
    const ofPool = (body: unknown) =>
      (body as { partNumber?: string }).partNumber === 'NU-1'
        ? cells.map((c) => ({ ...c, active: c.weekday === 0 && c.hour === 9 ? 5 : 0 }))
        : cells;
    open(administrator, {
      ...reports([]),
      'POST /api/web/reports/utilisation': [shared, named],
      'POST /api/web/reports/heatmap': byBody(ofPool),
    });
    expect(
      await screen.findByLabelText('Tuesday 10:00–10:59 UTC: 3 sessions open, 2 started'),
    ).toBeInTheDocument();
    const pool = screen.getByRole('combobox', { name: 'Pool' });
    expect(pool).toHaveValue('All pools');
    await userEvent.click(pool);
    await userEvent.click(
      await screen.findByRole('option', { name: 'Fluids Premium - Named User (NU-1)', hidden: true }),
    );
    expect(
      await screen.findByLabelText('Monday 09:00–09:59 UTC: 5 sessions open, 0 started'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Tuesday 10:00–10:59 UTC: 3 sessions/)).toBeNull();
    await userEvent.click(pool);
    await userEvent.click(await screen.findByRole('option', { name: 'All pools', hidden: true }));
    expect(
      await screen.findByLabelText('Tuesday 10:00–10:59 UTC: 3 sessions open, 2 started'),
    ).toBeInTheDocument();
  });

  it('offers no pool choice when the account has one pool', async () => {
    open(administrator, reports([]));
    await screen.findByLabelText('Tuesday 10:00–10:59 UTC: 3 sessions open, 2 started');
    expect(screen.queryByRole('combobox', { name: 'Pool' })).toBeNull();
  });

  it('pages a long list of unused seats, 100 at a time, with the count', async () => {
    const many: ReclaimSeat[] = Array.from({ length: 250 }, (_, i) => ({
      ...idle,
      userId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      email: `person${String(i).padStart(3, '0')}@acme.example`,
    }));
    // A gate the test opens: answers wait on it while `held`.
    let held = false;
    let waiting: (() => void)[] = [];
    const release = () => {
      held = false;
      for (const go of waiting) go();
      waiting = [];
    };
    const gate = {
      // biome-ignore lint/suspicious/noThenProperty: a thenable the stubbed API awaits on each call
      then: (go: () => void) => (held ? waiting.push(go) : go()),
    } as unknown as Promise<void>;
    const view = open(administrator, {
      ...reports([]),
      'POST /api/web/reports/reclaim': later(
        byBody((body) => {
          const { offset, limit } = body as { offset: number; limit: number };
          return { total: many.length, seats: many.slice(offset, offset + limit) };
        }),
        gate,
      ),
    });
    const unused = await screen.findByRole('table', { name: 'Unused named seats' });
    expect(screen.getByText('1–100 of 250 unused seats')).toBeInTheDocument();
    expect(within(unused).getAllByRole('row')).toHaveLength(101);
    expect(within(unused).getByRole('row', { name: /person000@/ })).toBeInTheDocument();
    // Page 3 is held: page 1 stays on screen, dimmed and busy, its own range named and its buttons off.
    held = true;
    await userEvent.click(screen.getByRole('button', { name: 'Page 3 of unused seats' }));
    await expect.poll(() => unused.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('1–100 of 250 unused seats')).toBeInTheDocument();
    expect(
      within(unused).getByRole('button', {
        name: 'Unassign person000@acme.example from Fluids Premium - Named User',
      }),
    ).toBeDisabled();
    release();
    expect(await screen.findByText('201–250 of 250 unused seats')).toBeInTheDocument();
    expect(unused).toHaveAttribute('aria-busy', 'false');
    expect(within(unused).getAllByRole('row')).toHaveLength(51);
    expect(within(unused).getByRole('row', { name: /person249@/ })).toBeInTheDocument();
    expect(within(unused).queryByRole('row', { name: /person000@/ })).toBeNull();
    // Another window starts at its first page.
    await userEvent.click(screen.getByRole('radio', { name: '60 days' }));
    expect(await screen.findByText('1–100 of 250 unused seats')).toBeInTheDocument();
    expect(view.calls.filter((c) => c === 'POST /api/web/reports/reclaim')).toHaveLength(3);
  });
});
