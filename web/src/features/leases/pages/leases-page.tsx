import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { customerDisplay } from '@lp/domain/customer-text';
import { mayViewLeases, permissionsFor } from '@lp/domain/policy';
import { Accordion, Stack, Text, Title } from '@mantine/core';
import { Navigate } from 'react-router';
import { noticeState, useCustomer, useCustomerOfType } from '../../../app/customer-context.tsx';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { useStagedMount } from '../../../lib/use-staged-mount.ts';
import { LeasesTable } from '../components/leases-table.tsx';

const tables = [
  { split: 'active', title: 'Active Entitlements' },
  { split: 'inactive', title: 'Inactive Entitlements' },
] as const;

/**
 * /ssl, Leases/Perpetuals (spec 002 §2): two collapsible tables, Active and Inactive Entitlements. Routed inside
 * RequireCustomer (no selected customer: /noselectedcustomer; an export-blocked account is never selected:
 * /noaccess); a customer type other than Channel, Direct or Indirect goes to /notypecustomer (§6), one without
 * self-serve licensing to /nopermissions (`mayViewLeases`, as the menu and the server).
 */
export default function LeasesPage() {
  const { version } = useCustomer();
  const { roles } = useCurrentUser();
  const customer = useCustomerOfType((info) => !!info && permissionsFor(roles, info).customerTypeAllowed);
  // Active, then Inactive Entitlements, each grid in a task of its own (decision 053).
  const mounted = useStagedMount(customer ? tables.length : 1);
  if (!customer) return null;
  // The menu's and the server's rule (issue 21): a customer whose self-serve licensing is off never sees the page.
  if (!mayViewLeases(permissionsFor(roles, customer.info as AccountInfo)))
    return <Navigate to="/nopermissions" replace state={noticeState(version, customer.customerNumber)} />;
  return (
    <Stack data-testid="leases-page">
      <Title order={1} size="h2">
        Leases/Perpetuals
      </Title>
      <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
      <Accordion multiple defaultValue={['active', 'inactive']} variant="separated" order={2}>
        {tables.slice(0, mounted).map((t) => (
          <Accordion.Item key={t.split} value={t.split}>
            <Accordion.Control>{t.title}</Accordion.Control>
            <Accordion.Panel>
              <LeasesTable
                customerNumber={customer.customerNumber}
                version={version}
                split={t.split}
                title={t.title}
              />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
