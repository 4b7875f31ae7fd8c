import type { ElasticEntitlementRecord } from '@lp/contract/entitlements/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { later } from '../../../../test/render.tsx';
import EntitlementsPage from './entitlements-page.tsx';

/*
 * /elastic (spec 001 §2.1, §7; decisions 013, 022): an account without elastic entitlements, the view-only user's
 * tables and statement e-mail, who gets the balance adjustment, and a reset made while an earlier save of the
 * view is on its way. The browser tests (e2e/tests/entitlements.spec.ts,
 * staff-elastic.spec.ts) keep the numbers, the filters and saved views, the e-mail sent and busops' adjustment.
 */

const record = (over: Partial<ElasticEntitlementRecord> = {}): ElasticEntitlementRecord => ({
  ActivationId: 'ELASTIC-CURRENT',
  LicenseModel: 'Elastic-AEU',
  EntitlementState: 'Deployed',
  StartDate: '2020-01-01',
  EndDate: '2099-12-31',
  Currency: 'USD',
  Used: 250,
  LineItemQuantity: 1000,
  PONumber: 'PO-1',
  CustomAttributes: { Product: 'Elastic Units (AEU)', Count: 1000, RateTableVersion: '2025.2.1' },
  ...over,
});
const records = [
  record(),
  record({ ActivationId: 'ELASTIC-EXPIRED', StartDate: '2020-01-01', EndDate: '2021-12-31' }),
  record({ ActivationId: 'ELASTIC-NEXT', StartDate: '2099-12-31', EndDate: '2100-12-31' }),
];

const viewer = testAccount({ hasElastic: 1 });
const administrator = testAccount({ hasElastic: 1, isPortalEdit: true });
const support: CurrentUser = { email: 'support@demo.example', name: 'Support', roles: ['support'] };
const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };

const openElastic = (account = viewer, answer: ElasticEntitlementRecord[] = records, user?: CurrentUser) =>
  renderAccountPage(<EntitlementsPage />, {
    path: '/elastic',
    route: '/elastic',
    account,
    user,
    answers: { 'POST /api/getEntitlements': answer, 'GET /api/featureflag/pref': [] },
  });

const table = (title: string) => screen.findByRole('region', { name: `${title} table` }, { timeout: 20_000 });
const rowIds = (grid: HTMLElement) => [
  ...new Set([...grid.querySelectorAll('.ag-row[row-id]')].map((r) => r.getAttribute('row-id'))),
];

describe('elastic entitlements page', () => {
  it('an account without elastic entitlements goes to /ssl', async () => {
    const view = openElastic(administrator, []);
    await expect.poll(() => view.location()).toBe('/ssl');
    expect(view.calls).toContain('POST /api/getEntitlements');
  });

  it('a view-only user sees both tables', async () => {
    const view = openElastic();
    const active = await table('Active Entitlements');
    const inactive = await table('Inactive Entitlements');
    await expect.poll(() => rowIds(active)).toEqual(['ELASTIC-CURRENT']);
    await expect.poll(() => rowIds(inactive).sort()).toEqual(['ELASTIC-EXPIRED', 'ELASTIC-NEXT']);
    expect(view.location()).toBe('/elastic');
  });

  it('a view-only user asking for a statement e-mail gets the 600 px view-only notice and nothing is sent', async () => {
    const view = openElastic();
    const active = await table('Active Entitlements');
    const inactive = await table('Inactive Entitlements');
    await expect.poll(() => rowIds(inactive).length, { timeout: 20_000 }).toBe(2);
    await userEvent.click(
      within(active).getByRole('button', { name: 'Statement e-mails for ELASTIC-CURRENT' }),
    );
    // The menu is open; jsdom has no layout, so Mantine keeps the dropdown of a size-less target undisplayed.
    await userEvent.click(
      await screen.findByRole('menuitem', { name: 'Send weekly statement', hidden: true }),
    );
    const notice = await screen.findByRole('dialog', { name: 'Customer 1000123' });
    expect(notice).toHaveTextContent('You do not have enough permissions for such operation.');
    // Mantine sets the modal's width from its size, in rem: 37.5 rem is 600 px (spec 000 §2.6).
    expect(notice.closest<HTMLElement>('.mantine-Modal-root')?.style.getPropertyValue('--modal-size')).toBe(
      'calc(37.5rem * var(--mantine-scale))',
    );
    expect(screen.queryByRole('dialog', { name: 'Confirm' })).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Ok' }));
    await expect.poll(() => screen.queryByRole('dialog')).toBeNull();
    // Neither the server's lookup nor the e-mail: only the page's own reads were made.
    expect(new Set(view.calls)).toEqual(
      new Set([
        'POST /api/getaccounts/count',
        'GET /api/getaccountinfo/1000123',
        'POST /api/getEntitlements',
        'GET /api/featureflag/pref',
      ]),
    );
  });

  it('busops adjust balances; neither a customer administrator nor view-only support can', async () => {
    const staff = openElastic(viewer, records, busops);
    const grid = await table('Active Entitlements');
    expect(
      await within(grid).findByRole('button', { name: 'Adjust balance of ELASTIC-CURRENT' }),
    ).toBeInTheDocument();
    staff.unmount();

    for (const [account, user] of [
      [administrator, undefined],
      [viewer, support],
    ] as const) {
      const { unmount } = openElastic(account, records, user);
      const active = await table('Active Entitlements');
      await within(active).findByRole('button', { name: 'Statement e-mails for ELASTIC-CURRENT' });
      expect(screen.queryByRole('button', { name: /^Adjust balance/ })).toBeNull();
      unmount();
    }
  });

  it('a reset made while an earlier save is still on its way is the view the server keeps', async () => {
    let release: (value?: unknown) => void = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    renderAccountPage(<EntitlementsPage />, {
      path: '/elastic',
      account: viewer,
      answers: {
        'POST /api/getEntitlements': records,
        // The saved view sorts the Inactive table by start date and filters it to the expired entitlement.
        'GET /api/featureflag/pref': [
          {
            customerNumber: '1000123',
            tableName: 'inActiveEntitlements',
            sortModel: [{ colId: 'startDate', sort: 'desc' }],
            filterModel: { remainingDays: { filterType: 'text', type: 'equals', filter: 'expired' } },
          },
        ],
        // Every save is held until released: the first one is still on its way when the reset is made.
        'POST /api/featureflag/pref': later(null, held),
      },
    });
    // The saves as the server would receive them, in the order they were sent.
    const served = globalThis.fetch;
    const saves: unknown[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).endsWith('/api/featureflag/pref'))
        saves.push(JSON.parse(String(init.body)));
      return served(input, init);
    });
    const inactive = await table('Inactive Entitlements');
    const section = screen.getByRole('region', { name: 'Inactive Entitlements' });
    await expect.poll(() => rowIds(inactive), { timeout: 20_000 }).toEqual(['ELASTIC-EXPIRED']);

    // A first change of the view (its filter cleared, its sort kept) is saved, and held.
    await userEvent.click(within(section).getByRole('button', { name: 'Clear filters' }));
    await expect.poll(() => rowIds(inactive).length).toBe(2);
    await expect.poll(() => saves.length, { timeout: 5_000 }).toBe(1);
    expect(saves[0]).toMatchObject({ tables: [{ sortModel: [{ colId: 'startDate', sort: 'desc' }] }] });
    // The reset is made while that save is on its way: it is sent only once the first has its answer.
    await userEvent.click(within(section).getByRole('button', { name: 'Reset view' }));
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Reset view' })).toBeDisabled());
    expect(saves).toHaveLength(1);
    release();
    await expect.poll(() => saves.length, { timeout: 5_000 }).toBe(2);
    // The last view the server receives is the reset: the table's defaults, nothing else.
    expect(saves[1]).toEqual({ tables: [{ customerNumber: '1000123', tableName: 'inActiveEntitlements' }] });
    expect(rowIds(inactive).sort()).toEqual(['ELASTIC-EXPIRED', 'ELASTIC-NEXT']);
    expect(within(section).getByRole('button', { name: 'Clear filters' })).toBeDisabled();
  });
});
