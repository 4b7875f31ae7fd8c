import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner.tsx';
import { GuardedShell } from './shell.tsx';

/** Menu paths whose pages come with later issues (spec 000 §2.1); they show a plain "coming soon" page. */
const comingSoon = [
  'ssl',
  'entitlementsFSA',
  'activations',
  'activations-history',
  'web-assignments/*',
  'web-transactions',
  'web-reporting/*',
  'transactions/*',
  'statementv2',
  'emails',
  'emails/:id',
  'notifications',
  'notification-details/:id',
  'notifications-category/:category',
  'portalaccess',
  'whitelistips',
  'clscredentials',
];

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
      { path: 'elastic', lazy: () => import('../features/elastic/pages/elastic-page.tsx') },
      { path: 'elastic/fromLeftMenu', lazy: () => import('../features/elastic/pages/elastic-page.tsx') },
      ...comingSoon.map((path) => ({ path, lazy: () => import('./pages/coming-soon-page.tsx') })),
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
