import { AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, Outlet, useLocation } from 'react-router';
import { AccountSearch } from '../features/accounts/components/account-search.tsx';
import { CustomerProvider, useCustomer } from '../features/accounts/components/customer-context.tsx';
import { HelpMenu, UserMenu } from '../features/user/components/user-menu.tsx';
import { UserGate } from './gates.tsx';
import logoUrl from './logo.svg';

function TopBar({ opened, toggle }: { opened: boolean; toggle: () => void }) {
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={opened}
          onClick={toggle}
          size="sm"
          aria-label={opened ? 'Collapse menu' : 'Expand menu'}
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
        <HelpMenu />
        <UserMenu />
      </Group>
    </Group>
  );
}

/** Minimal left menu for this stage; the full menu of spec 000 §2.3 comes with the next issue. */
function LeftMenu() {
  const location = useLocation();
  return (
    <nav aria-label="Main menu">
      <NavLink
        component={Link}
        to="/elastic/fromLeftMenu"
        label="Elastic Licensing"
        active={location.pathname.startsWith('/elastic')}
      />
    </nav>
  );
}

/** Changing the customer resets every account page: the outlet is keyed by the customer (spec 000 §4.2). */
function CustomerOutlet() {
  const { customer } = useCustomer();
  return <Outlet key={customer?.customerNumber ?? 'none'} />;
}

function Shell() {
  // Spec 000 §2.3 / §9: menu 240 px open, 40 px closed.
  const [opened, { toggle }] = useDisclosure(true);
  return (
    <AppShell header={{ height: 60 }} navbar={{ width: opened ? 240 : 40, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <TopBar opened={opened} toggle={toggle} />
      </AppShell.Header>
      <AppShell.Navbar p={opened ? 'xs' : 0}>{opened ? <LeftMenu /> : null}</AppShell.Navbar>
      <AppShell.Main>
        <CustomerOutlet />
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
