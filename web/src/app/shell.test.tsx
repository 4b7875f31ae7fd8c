import { signedInHintCookie } from '@lp/contract/auth/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { accountInfo } from '@lp/domain/account-info-fixture';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../test/account-page.tsx';
import { later, refused, renderScreen, serveApi, withFields } from '../../test/render.tsx';
import { clearPanels } from '../components/panels.tsx';
import { ConfigContext } from '../lib/app-context.tsx';
import { writeSavedCustomer } from '../lib/local-store.ts';
import { GuardedShell } from './shell.tsx';

/*
 * The shell (spec 000 §2.3, §4.2, §8): its error panels close, and a customer change drops them and reloads the
 * page. The browser test (e2e/tests/shell-menu.spec.ts) keeps the menu, the user menu, the footer and the crumbs.
 */

const busops: CurrentUser = { email: 'busops@demo.example', name: 'Busops', roles: ['busops'] };
const ACME = { AccountID: '1000123', AccountName: 'Acme Aerospace Inc.' };
const NORTHWIND = { AccountID: '1000125', AccountName: 'Northwind Turbines Inc.' };
const infoOf = (a: typeof ACME) => ({
  customerNumber: a.AccountID,
  customerName: a.AccountName,
  info: accountInfo({ hasElastic: 1 }),
});

/** The page in the shell's outlet: counts how often it is mounted (a reload mounts it afresh). */
let mounts = 0;
function Probe() {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <p>Probe page</p>;
}

/** A page that needs no account (as the alerts), with a field the user types into. */
function Typing() {
  useEffect(() => {
    mounts += 1;
  }, []);
  return <input aria-label="Alert text" />;
}

/**
 * The shell at `path` showing `page`, for a signed-in user whose last account was Acme (the API answered by the
 * test's serveApi, set before).
 */
function renderShell(path: string, page: React.ReactNode) {
  // The server's hint that a session may exist: the shell then asks for the user (UserGate).
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the server's hint cookie would be set
  document.cookie = `${signedInHintCookie}=1`;
  writeSavedCustomer(ACME.AccountID);
  mounts = 0;
  renderScreen(
    <ConfigContext.Provider value={testConfig}>
      <Routes>
        <Route element={<GuardedShell />}>
          <Route path={path} element={page} />
        </Route>
      </Routes>
    </ConfigContext.Provider>,
    path,
  );
}

describe('shell', () => {
  // The worker's other test files share the document: the sign-in hint goes with this file.
  afterEach(() => {
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar, as the server's hint cookie would be set
    document.cookie = `${signedInHintCookie}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  });

  it('error panels are closable and a customer change clears them and reloads the page', async () => {
    clearPanels();
    const calls = serveApi({
      'GET /api/getUserDetails': busops,
      'GET /api/featureflag/features': {
        features: [{ name: 'demo', description: 'A demo feature', enabled: false, conflicts: [] }],
        enabled: [],
        overridable: true,
      },
      'POST /api/featureflag/features': refused(403, 'Refused by the test', 'FORBIDDEN'),
      'GET /api/getBuildInfo': withFields('', { err: null }),
      'GET /api/notifications': [],
      'POST /api/getaccounts/count': 1,
      'POST /api/getaccounts': withFields([NORTHWIND], { token: null }),
      [`GET /api/getaccountinfo/${ACME.AccountID}`]: infoOf(ACME),
      [`GET /api/getaccountinfo/${NORTHWIND.AccountID}`]: infoOf(NORTHWIND),
    });
    renderShell('/portalaccess', <Probe />);
    expect(await screen.findByText('Probe page', {}, { timeout: 20_000 })).toBeInTheDocument();
    const failApply = async () => {
      const menu = screen.getByRole('navigation', { name: 'Main menu' });
      await userEvent.click(await within(menu).findByRole('button', { name: 'Features' }));
      const dialog = await screen.findByRole('dialog', { name: 'Enabled Feature Flags' });
      await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    };
    await failApply();
    const panel = await screen.findByTestId('error-panel');
    expect(panel).toHaveTextContent('Refused by the test');
    await userEvent.click(within(panel).getByRole('button', { name: 'Close error message' }));
    await expect.poll(() => screen.queryByTestId('error-panel')).toBeNull();

    await failApply();
    expect(await screen.findByTestId('error-panel')).toBeInTheDocument();
    const before = mounts;
    const box = screen.getByRole('textbox', { name: 'Account' });
    await userEvent.click(box);
    await userEvent.paste('Northwind');
    await userEvent.click(
      await screen.findByRole(
        'option',
        { name: /Northwind Turbines Inc\./, hidden: true },
        { timeout: 5000 },
      ),
    );
    await expect.poll(() => (box as HTMLInputElement).value).toMatch(/Northwind Turbines Inc\./);
    await expect.poll(() => screen.queryByTestId('error-panel')).toBeNull();
    expect(calls).toContain(`GET /api/getaccountinfo/${NORTHWIND.AccountID}`);
    await expect.poll(() => mounts).toBe(before + 1);
  });

  it('the automatic first selection does not start afresh a page already in use: typed text stays', async () => {
    let release = () => {};
    const infoArrives = new Promise<void>((resolve) => {
      release = resolve;
    });
    serveApi({
      'GET /api/getUserDetails': busops,
      'GET /api/featureflag/features': { features: [], enabled: [], overridable: false },
      'GET /api/getBuildInfo': withFields('', { err: null }),
      'GET /api/notifications': [],
      'POST /api/getaccounts/count': 1,
      [`GET /api/getaccountinfo/${ACME.AccountID}`]: later(infoOf(ACME), infoArrives),
    });
    renderShell('/alerts', <Typing />);
    const field = await screen.findByRole('textbox', { name: 'Alert text' }, { timeout: 20_000 });
    await userEvent.type(field, 'Maintenance tonight');
    release();
    const box = screen.getByRole('textbox', { name: 'Account' });
    await expect.poll(() => (box as HTMLInputElement).value).toMatch(/Acme Aerospace Inc\./);
    expect(screen.getByRole('textbox', { name: 'Alert text' })).toHaveValue('Maintenance tonight');
    expect(mounts).toBe(1);
  });
});
