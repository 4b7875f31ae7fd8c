import type { LeaseRecord } from '@lp/contract/leases/schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAccountPage, testAccount } from '../../../../test/account-page.tsx';
import { later, withFields } from '../../../../test/render.tsx';
import LeasesPage from './leases-page.tsx';

/*
 * /ssl (spec 002 §2, §4, §6; issue 21): the customers the page sends to a notice, the spinner while rows load,
 * how perpetuals and evaluations read. The browser test (e2e/tests/leases.spec.ts) keeps the tables' journeys
 * (values, filters, saved views); the filters' words are lease-filter.test.ts's, their server half
 * leases.api.test.ts's. The menu's rule is navigation.test.ts's ("shows
 * Leases/Perpetuals exactly when the page and the server allow it"); the server's refusals are
 * server/src/features/entitlements/leases.api.test.ts's; no selected customer (/noselectedcustomer) and an
 * export-blocked pick (/noaccess) are the shell's (e2e/tests/shell-notices.spec.ts, shell.spec.ts).
 */

const SPINNER = 'Getting Leases/Perpetuals Entitlements...';
const leasesCalls = (calls: string[]) => calls.filter((c) => c.includes('/api/fetchEntitlements'));

describe('leases page', () => {
  it('a customer of type Undefined goes to /notypecustomer and no leases are fetched', async () => {
    const view = renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: testAccount({ orgType: 'Undefined', isPortalEdit: true, hasSSL: 1 }),
    });
    expect(
      await screen.findByText('The selected customer needs to be either a direct or channel customer.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/notypecustomer');
    expect(screen.queryByTestId('leases-page')).toBeNull();
    expect(leasesCalls(view.calls)).toEqual([]);
  });

  it('a license generator without self-serve licensing goes to /nopermissions and no leases are fetched', async () => {
    const view = renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: testAccount({ isFNPLicenseGenerator: true, hasSSL: 1 }),
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    expect(view.location()).toBe('/nopermissions');
    expect(screen.queryByTestId('leases-page')).toBeNull();
    expect(leasesCalls(view.calls)).toEqual([]);
  });
});

const record = (
  r: Partial<LeaseRecord> & Pick<LeaseRecord, 'ActivationId' | 'ProductName'>,
): LeaseRecord => ({
  PartNumber: 'PN-1',
  LineItemQuantity: 5,
  StartDate: '2020-01-01',
  EndDate: '2099-12-31',
  LicenseModel: 'Named User',
  VersionDate: null,
  IsActivationPermanent: 'false',
  Type: '',
  EntitlementName: 'Line',
  EntitlementState: 'Deployed',
  meta_accountId: '1000123',
  Activated: 0,
  ...r,
});
const perpetual = record({
  ActivationId: 'ACT-PERP-1',
  ProductName: 'Perpetual Designer',
  EndDate: null,
  VersionDate: '2031-06-30',
  IsActivationPermanent: 'true',
});
const evaluation = record({ ActivationId: 'ACT-EVAL-1', ProductName: 'Trial Analyzer', Type: 'Evaluation' });
const leasesAccount = testAccount({ isPortalEdit: true, hasSSL: 1 });
const pageOf = (rows: LeaseRecord[]) => withFields(rows, { token: null });

/** The cell of a column in the row of an activation id (the grid renders each row once: no pinned columns). */
function cellOf(table: HTMLElement, activationId: string, colId: string) {
  const rows = [...table.querySelectorAll<HTMLElement>('.ag-row')].filter((row) =>
    row.querySelector('[col-id="entitlement"]')?.textContent?.endsWith(activationId),
  );
  expect(rows).toHaveLength(1);
  const cell = rows[0]?.querySelector<HTMLElement>(`[role="gridcell"][col-id="${colId}"]`);
  if (!cell) throw new Error(`No ${colId} cell for ${activationId}`);
  return cell;
}

const answersFor = (active: unknown) => ({
  'GET /api/featureflag/pref': [],
  'POST /api/fetchEntitlements/active': active,
  'POST /api/fetchEntitlementsActive/count': 2,
  'POST /api/fetchEntitlements/inactive': pageOf([]),
  'POST /api/fetchEntitlementsInactive/count': 0,
  'POST /api/fulfillments/count': {},
});

describe('leases tables', () => {
  it('the spinner shows while the rows load', async () => {
    let release: (value?: unknown) => void = () => {};
    const held = new Promise((resolve) => {
      release = resolve;
    });
    renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: leasesAccount,
      answers: answersFor(later(pageOf([perpetual, evaluation]), held)),
    });
    const active = await screen.findByRole('region', { name: 'Active Entitlements' });
    expect(await within(active).findByText(SPINNER)).toBeInTheDocument();
    release();
    await waitFor(() => expect(screen.queryByText(SPINNER)).toBeNull());
    const table = screen.getByRole('region', { name: 'Active Entitlements table' });
    expect(cellOf(table, 'ACT-EVAL-1', 'entitlement')).toHaveTextContent(/\S/);
  });

  it('perpetuals say PERMANENT with their maintenance date; evaluations are marked', async () => {
    renderAccountPage(<LeasesPage />, {
      path: '/ssl',
      account: leasesAccount,
      answers: answersFor(pageOf([perpetual, evaluation])),
    });
    const table = await screen.findByRole('region', { name: 'Active Entitlements table' });
    await waitFor(() => expect(table.querySelectorAll('.ag-row:not(.ag-row-loading)')).toHaveLength(2));
    expect(cellOf(table, 'ACT-PERP-1', 'remainingdays')).toHaveTextContent('PERMANENT');
    expect(cellOf(table, 'ACT-PERP-1', 'enddate')).toHaveTextContent('Maintenance ends on 2031-06-30');
    expect(cellOf(table, 'ACT-PERP-1', 'entitlement')).toHaveTextContent('Perpetual DesignerACT-PERP-1');
    expect(cellOf(table, 'ACT-EVAL-1', 'entitlement')).toHaveTextContent(
      'Trial Analyzer (Evaluation)ACT-EVAL-1',
    );
    expect(within(cellOf(table, 'ACT-EVAL-1', 'entitlement')).getByText(/\(Evaluation\)/)).toBeVisible();
    expect(cellOf(table, 'ACT-EVAL-1', 'remainingdays')).not.toHaveTextContent('PERMANENT');
  });
});
