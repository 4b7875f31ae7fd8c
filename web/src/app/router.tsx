import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner.tsx';
import { RequireCustomer } from './require-customer.tsx';
import { GuardedShell } from './shell.tsx';

type PageModule = Promise<{ default: ComponentType }>;

/** A lazily loaded page with a default export; account pages need a selected customer (§4.2). */
const page =
  (load: () => PageModule, { account }: { account: boolean }) =>
  async () => {
    const { default: Page } = await load();
    return {
      Component: account
        ? () => (
            <RequireCustomer>
              <Page />
            </RequireCustomer>
          )
        : Page,
    };
  };

const notice =
  (
    name:
      | 'NoSelectedCustomerPage'
      | 'NoCustomerPage'
      | 'NoAccessPage'
      | 'NoPermissionsPage'
      | 'NoTypeCustomerPage',
  ) =>
  async () => {
    const pages = await import('../features/accounts/pages/notice-pages.tsx');
    return { Component: pages[name] };
  };

const loading = <Spinner fullScreen text="Loading..." />;

export const routes: RouteObject[] = [
  { path: 'error/:code', lazy: () => import('./pages/error-page.tsx'), hydrateFallbackElement: loading },
  { path: 'home', element: <Navigate to="/" replace /> },
  {
    path: '/',
    element: <GuardedShell />,
    // Shown while the first page's lazy chunk loads.
    hydrateFallbackElement: loading,
    children: [
      { index: true, element: <Navigate to="/elastic" replace /> },
      ...['elastic', 'elastic/fromLeftMenu'].map((path) => ({
        path,
        lazy: page(() => import('../features/entitlements/pages/entitlements-page.tsx'), { account: true }),
      })),
      {
        path: 'ssl',
        lazy: page(() => import('../features/leases/pages/leases-page.tsx'), { account: true }),
      },
      {
        path: 'activations',
        lazy: page(() => import('../features/activations/pages/activations-page.tsx'), { account: true }),
      },
      {
        path: 'activations-history',
        lazy: page(() => import('../features/activations/pages/activations-history-page.tsx'), {
          account: true,
        }),
      },
      {
        path: 'entitlementsFSA',
        lazy: page(() => import('../features/fsa/pages/fsa-page.tsx'), { account: true }),
      },
      {
        path: 'statementv2',
        lazy: page(() => import('../features/statements/pages/statement-page.tsx'), { account: true }),
      },
      {
        path: 'transactions',
        lazy: page(() => import('../features/transactions/pages/transactions-page.tsx'), { account: true }),
      },
      {
        path: 'clscredentials',
        lazy: page(() => import('../features/credentials/pages/credentials-page.tsx'), { account: true }),
      },
      {
        path: 'web-assignments',
        lazy: () => import('./web-assignments-layout.tsx'),
        children: [
          // Deeper segments show their tab's page (the crumbs still name each one, spec 000 §2.4).
          ...[{ index: true }, { path: 'entitlements/*' }].map((route) => ({
            ...route,
            lazy: page(() => import('../features/web-seats/pages/web-entitlements-page.tsx'), {
              account: true,
            }),
          })),
          {
            path: 'users/*',
            lazy: page(() => import('../features/web-directory/pages/web-users-page.tsx'), { account: true }),
          },
          {
            path: 'groups/*',
            lazy: page(() => import('../features/web-directory/pages/web-groups-page.tsx'), {
              account: true,
            }),
          },
        ],
      },
      {
        path: 'web-transactions',
        lazy: page(() => import('../features/web-sessions/pages/web-transactions-page.tsx'), {
          account: true,
        }),
      },
      {
        // Spec 000 §2.1: /web-reporting has one child route; every sub-path shows the reports.
        path: 'web-reporting/*',
        lazy: page(() => import('../features/web-reporting/pages/web-reporting-page.tsx'), { account: true }),
      },
      {
        path: 'emails',
        lazy: page(() => import('../features/emails/pages/emails-page.tsx'), { account: true }),
      },
      {
        path: 'emails/:id',
        lazy: page(() => import('../features/emails/pages/email-detail-page.tsx'), { account: true }),
      },
      {
        path: 'notifications',
        lazy: page(() => import('../features/alerts/pages/notifications-page.tsx'), { account: false }),
      },
      {
        path: 'notifications-category/:category',
        lazy: page(() => import('../features/alerts/pages/notifications-category-page.tsx'), {
          account: false,
        }),
      },
      {
        path: 'notification-details/:id',
        lazy: page(() => import('../features/alerts/pages/notification-details-page.tsx'), {
          account: false,
        }),
      },
      {
        path: 'notifications-admin',
        lazy: page(() => import('../features/alerts/pages/alerts-admin-page.tsx'), { account: false }),
      },
      {
        path: 'portalaccess',
        lazy: page(() => import('../features/portal-access/pages/portal-access-page.tsx'), {
          account: true,
        }),
      },
      {
        path: 'whitelistips',
        lazy: page(() => import('../features/ip-rules/pages/whitelist-ips-page.tsx'), { account: true }),
      },
      {
        path: 'api-tokens',
        lazy: page(() => import('../features/api-tokens/pages/api-tokens-page.tsx'), { account: false }),
      },
      {
        path: 'audit-log',
        lazy: page(() => import('../features/audit/pages/audit-log-page.tsx'), { account: true }),
      },
      { path: 'noselectedcustomer', lazy: notice('NoSelectedCustomerPage') },
      { path: 'nocustomer', lazy: notice('NoCustomerPage') },
      { path: 'noaccess', lazy: notice('NoAccessPage') },
      { path: 'nopermissions', lazy: notice('NoPermissionsPage') },
      { path: 'notypecustomer', lazy: notice('NoTypeCustomerPage') },
    ],
  },
  { path: '*', element: <Navigate to="/error/404" replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
