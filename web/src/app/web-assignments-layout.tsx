import { customerDisplay } from '@lp/domain/customer-text';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { ScimProvisioningPanel } from '../features/scim/components/scim-provisioning-panel.tsx';
import { useCustomer } from './customer-context.tsx';

/** The three views of /web-assignments (decision 071 "Pages"); each is a sub-path, so the crumbs follow it (§2.4). */
const views = [
  { value: 'entitlements', label: 'Entitlements' },
  { value: 'users', label: 'Users' },
  { value: 'groups', label: 'Groups' },
] as const;

/**
 * /web-assignments: the title, the selected account and the tabs over the sub-path's page. The index shows
 * Entitlements; choosing a tab goes to its sub-path, keeping the account in the URL.
 */
export function Component() {
  const { customer } = useCustomer();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const current = views.find((v) => pathname.split('/')[2] === v.value)?.value ?? 'entitlements';
  return (
    <Stack data-testid="web-assignments-page">
      <Title order={1} size="h2">
        Web Assignments
      </Title>
      {customer ? <Text data-testid="selected-customer">{customerDisplay(customer)}</Text> : null}
      <Tabs
        value={current}
        onChange={(value) => value && navigate({ pathname: `/web-assignments/${value}`, search })}
      >
        <Tabs.List>
          {views.map((v) => (
            <Tabs.Tab key={v.value} value={v.value}>
              {v.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
      {/* Provisioning fills the directory the Users view shows, so its tokens live under it (issue 24 §3). */}
      {current === 'users' && customer ? (
        <ScimProvisioningPanel key={customer.customerNumber} customerNumber={customer.customerNumber} />
      ) : null}
    </Stack>
  );
}
