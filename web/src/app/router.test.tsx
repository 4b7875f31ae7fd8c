import type { CurrentUser } from '@lp/contract/user/schemas';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  accountBox,
  pickAccount,
  portalAccount,
  renderPortal,
  useWholeAppTimeouts,
} from '../../test/portal.tsx';
import { later } from '../../test/render.tsx';
import { writeSavedCustomer } from '../lib/local-store.ts';

/*
 * The app's route table in the shell (spec 000 §2.1, §2.6, §4.2): unknown paths, /home, a failed sign-in and the
 * notice pages' return rules. The page behind /elastic is a stand-in: its own tests are beside it. The browser
 * keeps one notice journey (e2e/tests/shell-notices.spec.ts: the account list's refresh) and the export-blocked
 * pick (shell.spec.ts).
 */

vi.mock('../features/entitlements/pages/entitlements-page.tsx', () => ({
  default: () => <h1>Elastic Licensing</h1>,
}));

const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };
const northwind = portalAccount('1000125', 'Northwind Turbines Inc.', { hasElastic: 1 });
const contoso = portalAccount('1000127', 'Contoso Motors AG', { hasElastic: 1 });
const marine = portalAccount('1000128', 'Acme Marine B.V.', { orgType: 'Undefined' });
const research = portalAccount('1000129', 'Acme Research Labs LLC', { exportControlStatus: 'Denied' });
const tailspin = portalAccount('1000130', 'Tailspin Defense Systems Corp.', {
  exportControlStatus: 'Denied',
});

const noSelection = 'Please select a customer from the drop down menu at the top right.';
const exportText = 'Access to this customer is denied per Export Compliance restrictions.';
const onElastic = /^\/elastic(\?|$)/;

/** Waits until the router is at a path matching `where`. */
const arrivedAt = (view: { location: () => string }, where: RegExp) =>
  expect.poll(view.location, { timeout: 20_000 }).toMatch(where);

describe('routes', { timeout: 120_000 }, () => {
  useWholeAppTimeouts();

  it('unknown paths go to the 404 page and /home to the elastic page', async () => {
    const lost = renderPortal('/no/such/page', { user: busops, accounts: [northwind] });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(lost.location()).toBe('/error/404');
    lost.unmount();

    const home = renderPortal('/home', { user: busops, accounts: [northwind] });
    expect(await screen.findByRole('heading', { name: 'Elastic Licensing' })).toBeInTheDocument();
    await arrivedAt(home, onElastic);
  });

  it('a failed sign-in is shown with a way to try again, without going to sign-in by itself', async () => {
    // The server returns a failed sign-in to /?signin=failed, without a session.
    const { calls } = renderPortal('/?signin=failed', { user: busops, signedIn: false });
    expect(await screen.findByRole('heading', { name: 'Sign-in failed' })).toBeInTheDocument();
    expect(screen.getByText('The sign-in did not complete. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/api/auth/login?returnTo=%2Felastic',
    );
    expect(window.location.search).toBe('?signin=failed');
    expect(calls).toEqual([]);
  });

  it('/noselectedcustomer asks for a customer and returns to /elastic once one is chosen', async () => {
    // The automatic selection's account info is held back, so the page opens with no customer.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const view = renderPortal('/noselectedcustomer', {
      user: busops,
      accounts: [northwind],
      answers: {
        [`GET /api/getaccountinfo/${northwind.AccountID}`]: later(
          { customerNumber: northwind.AccountID, customerName: northwind.AccountName, info: northwind.info },
          held,
        ),
      },
    });
    expect(await screen.findByText(noSelection)).toBeInTheDocument();
    await expect.poll(() => view.calls).toContain(`GET /api/getaccountinfo/${northwind.AccountID}`);
    expect(view.location()).toBe('/noselectedcustomer');
    release();
    await arrivedAt(view, onElastic);
  });

  it('/notypecustomer names the provider and returns once the customer is direct, channel or indirect', async () => {
    const accounts = [marine, research, contoso];
    // The last choice (a customer of no type) is restored on opening the notice by its URL.
    writeSavedCustomer(marine.AccountID);
    const first = renderPortal('/notypecustomer', { user: busops, accounts, fresh: false });
    expect(
      await screen.findByText(
        'The selected customer needs to be either a direct or channel customer. Please contact Vendor support to correct the customer type.',
      ),
    ).toBeInTheDocument();
    await expect.poll(() => accountBox().value).toBe('1000128 (Acme Marine B.V.)');
    expect(first.location()).toBe('/notypecustomer');
    // An export-blocked customer: no return to /elastic, the export notice instead.
    await pickAccount('Acme Research', /Acme Research Labs LLC/);
    await arrivedAt(first, /^\/noaccess$/);
    expect(await screen.findByText(exportText)).toBeInTheDocument();
    first.unmount();

    const again = renderPortal('/notypecustomer', { user: busops, accounts, fresh: false });
    await expect.poll(() => accountBox().value).toBe('1000128 (Acme Marine B.V.)');
    await pickAccount('Contoso', /Contoso Motors AG/);
    await arrivedAt(again, onElastic);
  });

  it('/noaccess returns to /elastic when an account with an empty export status is chosen', async () => {
    const view = renderPortal('/elastic', { user: busops, accounts: [northwind, tailspin, contoso] });
    await expect.poll(() => accountBox().value).toBe('1000125 (Northwind Turbines Inc.)');
    await pickAccount('Tailspin', /Tailspin Defense Systems Corp\./);
    await arrivedAt(view, /^\/noaccess$/);
    expect(await screen.findByText(exportText)).toBeInTheDocument();
    // Contoso: an empty export status and elastic entitlements (without them /elastic goes on to /ssl).
    await pickAccount('Contoso', /Contoso Motors AG/);
    await arrivedAt(view, onElastic);
    await expect.poll(() => accountBox().value).toBe('1000127 (Contoso Motors AG)');
  });

  it('/nopermissions stays for the same customer and returns when a different one is chosen', async () => {
    writeSavedCustomer(northwind.AccountID);
    const view = renderPortal('/nopermissions', {
      user: busops,
      accounts: [northwind, contoso],
      fresh: false,
    });
    expect(
      await screen.findByText('You do not have enough permissions to view this page.'),
    ).toBeInTheDocument();
    await expect.poll(() => accountBox().value).toBe('1000125 (Northwind Turbines Inc.)');
    // The page is not in the breadcrumb map: no crumbs on notice pages.
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).toBeNull();
    expect(view.location()).toBe('/nopermissions');
    await pickAccount('Contoso', /Contoso Motors AG/);
    await arrivedAt(view, onElastic);
  });
});
