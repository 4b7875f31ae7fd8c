import { AppShell, Burger, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Breadcrumbs } from '../components/breadcrumbs.tsx';
import { clearPanels, hideSpinner, PanelsHost } from '../components/panels.tsx';
import { Spinner } from '../components/spinner.tsx';
import { AccountSearch } from '../features/accounts/components/account-search.tsx';
import { AlertsBanner } from '../features/alerts/components/alerts-banner.tsx';
import { useFeatures } from '../features/featureflags/use-features.ts';
import { noticesQuery } from '../features/notices/api/notices.ts';
import { NoticesButton, NoticesPanel } from '../features/notices/components/notices-panel.tsx';
import { HelpMenu, UserMenu } from '../features/user/components/user-menu.tsx';
import { CustomerProvider, useCustomer } from './customer-context.tsx';
import { UserGate } from './gates.tsx';
import { LeftMenu } from './left-menu.tsx';
import logoUrl from './logo.svg';
import './shell.css';
import { breadcrumbs } from './navigation.ts';

/**
 * Widths (spec 000 §2.3, §9): the navigation is 240 px open and 40 px closed, and the content margin
 * follows it (Mantine's AppShell offsets the main area by the navbar width). The 70/300 pair of the
 * original shell belongs to its separate icon rail / side drawer, which this single navbar replaces.
 */
export const MENU_WIDTH_OPEN = 240;
export const MENU_WIDTH_CLOSED = 40;

/** Pages that show the notices panel (issue 13 §2). */
const NOTICE_PAGES = ['/elastic', '/elastic/fromLeftMenu', '/ssl', '/entitlementsFSA'];

function AccountNotices({ where }: { where: 'top-bar' | 'page' }) {
  const { customer } = useCustomer();
  const { pathname } = useLocation();
  if (!customer) return null;
  if (where === 'top-bar')
    return <NoticesButton key={customer.customerNumber} customerNumber={customer.customerNumber} />;
  if (!NOTICE_PAGES.includes(pathname)) return null;
  return <NoticesPanel key={customer.customerNumber} customerNumber={customer.customerNumber} />;
}

/**
 * On a page with the notices panel, true until the account's notices are known: the page waits for them, since a
 * panel arriving after the page pushed all of it down (layout shift 0.12 on /elastic, 0.31 on /ssl, issue 21).
 */
function useNoticesPending(pathname: string): boolean {
  const { customer } = useCustomer();
  const onPanelPage = !!customer && NOTICE_PAGES.includes(pathname);
  const read = useQuery({ ...noticesQuery(customer?.customerNumber ?? ''), enabled: onPanelPage });
  return onPanelPage && read.isPending;
}

function TopBar({ opened, toggle }: { opened: boolean; toggle: () => void }) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={opened}
          onClick={toggle}
          size="sm"
          aria-label={opened ? 'Collapse menu' : 'Expand menu'}
          aria-expanded={opened}
        />
        <Link
          to="/elastic"
          style={{ display: 'flex', alignItems: 'center', gap: 8, textDecoration: 'none', color: 'inherit' }}
        >
          <img src={logoUrl} alt="Licensing Portal home" width={32} height={32} />
          <Text fw={700} visibleFrom="sm">
            Licensing Portal
          </Text>
        </Link>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <AccountSearch />
        <AccountNotices where="top-bar" />
        <HelpMenu />
        <UserMenu />
      </Group>
    </Group>
  );
}

/**
 * Changing the customer resets and reloads every account page (spec 000 §4.2): the outlet is keyed by
 * the selection (choosing the same customer again counts too), cached account data is marked stale
 * and messages about the previous customer are dropped.
 */
function CustomerOutlet() {
  const { customer, version } = useCustomer();
  const { pathname } = useLocation();
  const noticesPending = useNoticesPending(pathname);
  const queryClient = useQueryClient();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (version === 0) return;
    clearPanels();
    hideSpinner();
    const keep = new Set([
      'client-config',
      'user-details',
      'featureflags',
      'build-info',
      'account-search',
      'alerts',
    ]);
    void queryClient.invalidateQueries({ predicate: (q) => !keep.has(String(q.queryKey[0])) });
  }, [version, queryClient]);
  // A change of account starts the page afresh, except the first account of all (the automatic selection at
  // start, or a pick after "refresh accounts", which already started it afresh): a page that needs no account
  // (the alerts) is then already in use, and remounting it under the user's typing emptied their fields.
  const [page, setPage] = useState({ version, hadCustomer: customer != null, key: 0 });
  if (page.version !== version)
    setPage({ version, hadCustomer: customer != null, key: page.hadCustomer ? page.key + 1 : page.key });
  // Held here, not above: this component stays mounted across a customer change, so that its effect sees it.
  if (noticesPending) return <Spinner text="Loading..." />;
  return <Outlet key={page.key} />;
}

/** A route whose feature is off shows "Page not found" inside the shell, so the menu stays usable. */
function RouteNotEnabled() {
  return (
    <Stack>
      <Title order={1} size="h2">
        Page not found
      </Title>
      <Text>The page you asked for does not exist or is not enabled.</Text>
    </Stack>
  );
}

function FeatureGatedOutlet() {
  const { pathname } = useLocation();
  const { loading, routeEnabled } = useFeatures();
  if (loading) return <Spinner text="Loading..." />;
  if (!routeEnabled(pathname)) return <RouteNotEnabled />;
  return <CustomerOutlet />;
}

function Shell() {
  const [opened, { toggle }] = useDisclosure(true);
  const { pathname } = useLocation();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: opened ? MENU_WIDTH_OPEN : MENU_WIDTH_CLOSED, breakpoint: 0 }}
      padding="md"
    >
      <a href="#main-content" className="lp-skip-link">
        Skip to main content
      </a>
      <AppShell.Header>
        <TopBar opened={opened} toggle={toggle} />
      </AppShell.Header>
      <AppShell.Navbar data-testid="left-menu" data-state={opened ? 'open' : 'closed'}>
        {opened ? <LeftMenu /> : null}
      </AppShell.Navbar>
      <AppShell.Main id="main-content" tabIndex={-1}>
        <div className="lp-no-print">
          <AlertsBanner />
          <Breadcrumbs crumbs={breadcrumbs(pathname)} />
          <PanelsHost />
          <AccountNotices where="page" />
        </div>
        <FeatureGatedOutlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** The guarded shell: signed-in user, selected customer, top bar and menu around the pages. */
export function GuardedShell() {
  return (
    <UserGate>
      <CustomerProvider>
        <Shell />
      </CustomerProvider>
    </UserGate>
  );
}
