import type { AccountInfo } from '@lp/contract/accounts/schemas';
import type { CurrentUser } from '@lp/contract/user/schemas';
import { accountInfo } from '@lp/domain/account-info-fixture';
import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { CustomerProvider } from '../src/app/customer-context.tsx';
import { clearPanels, hideSpinner, PanelsHost } from '../src/components/panels.tsx';
import { NoPermissionsPage, NoTypeCustomerPage } from '../src/features/accounts/pages/notice-pages.tsx';
import { type AppConfig, ConfigContext, UserContext } from '../src/lib/app-context.tsx';
import { writeSavedCustomer } from '../src/lib/local-store.ts';
import { renderScreen, serveApi } from './render.tsx';

/** The configuration the shell would have loaded (GET /api/config). */
export const testConfig: AppConfig = {
  environment: 'dev',
  apiUrl: '',
  editprofileurl: 'https://idp.test/profile',
  supportRequesturl: 'https://support.test/request',
  documentationUrl: 'https://docs.test',
  privacyUrl: 'https://privacy.test',
  production: false,
  productName: 'Licensing Portal',
  providerName: 'Vendor',
  loginUrl: '/api/auth/login',
  logoutUrl: '/api/auth/logout',
  elasticTermsUrl: 'https://terms.test',
  accountListMax: 100,
};

export interface TestAccount {
  customerNumber: string;
  customerName: string;
  info: AccountInfo;
}

/** An account for a page test: a Direct customer with nothing set, plus the given info flags. */
export const testAccount = (info: Partial<AccountInfo> = {}, customerNumber = '1000123'): TestAccount => ({
  customerNumber,
  customerName: 'Acme Test Inc.',
  info: accountInfo(info),
});

/** A customer user; its rights on the account come from the account's info flags (isPortalEdit…). */
export const customerUser: CurrentUser = { email: 'user@acme.test', name: 'Test User', roles: ['user'] };

/**
 * Renders an account page (`ui`, routed at `route`) at `path` as the shell does once `account` is selected for
 * `user`: the selection, the panels and the notice pages a page sends the user to (/nopermissions,
 * /notypecustomer) are the app's own; the API is stubbed with `answers` (serveApi) plus the account's selection
 * (count and info). Returns the render with `location()` and the calls made.
 */
export function renderAccountPage(
  ui: ReactNode,
  {
    path,
    route = path.split('?')[0] ?? path,
    account,
    user = customerUser,
    answers = {},
  }: {
    path: string;
    route?: string;
    account: TestAccount;
    user?: CurrentUser;
    answers?: Record<string, unknown>;
  },
) {
  // The selection is restored from the last choice, as on a reload: no account list is read.
  localStorage.clear();
  writeSavedCustomer(account.customerNumber);
  // The panels are one store for the whole app: an earlier test's messages are not this page's.
  clearPanels();
  hideSpinner();
  const calls = serveApi({
    'POST /api/getaccounts/count': 1,
    [`GET /api/getaccountinfo/${account.customerNumber}`]: account,
    ...answers,
  });
  const view = renderScreen(
    <ConfigContext.Provider value={testConfig}>
      <UserContext.Provider value={user}>
        <CustomerProvider>
          <PanelsHost />
          <Routes>
            <Route path={route} element={ui} />
            <Route path="/nopermissions" element={<NoPermissionsPage />} />
            <Route path="/notypecustomer" element={<NoTypeCustomerPage />} />
          </Routes>
        </CustomerProvider>
      </UserContext.Provider>
    </ConfigContext.Provider>,
    path,
  );
  return { ...view, calls };
}
