import { customerDisplay } from '@lp/domain/customer-text';
import { permissionsFor } from '@lp/domain/policy';
import { Accordion, Stack, Text, Title } from '@mantine/core';
import { useCustomer, useCustomerOfType } from '../../../app/customer-context.tsx';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { LeasesTable } from '../components/leases-table.tsx';

const tables = [
  { split: 'active', title: 'Active Entitlements' },
  { split: 'inactive', title: 'Inactive Entitlements' },
] as const;

/**
 * /ssl, Leases/Perpetuals (spec 002 §2): two collapsible tables, Active and Inactive Entitlements. Routed inside
 * RequireCustomer (no selected customer: /noselectedcustomer; an export-blocked account is never selected:
 * /noaccess); a customer type other than Channel, Direct or Indirect goes to /notypecustomer (§6).
 */
export default function LeasesPage() {
  const { version } = useCustomer();
  const { roles } = useCurrentUser();
  const customer = useCustomerOfType((info) => !!info && permissionsFor(roles, info).customerTypeAllowed);
  if (!customer) return null;
  return (
    <Stack data-testid="leases-page">
      <Title order={1} size="h2">
        Leases/Perpetuals
      </Title>
      <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
      <Accordion multiple defaultValue={['active', 'inactive']} variant="separated" order={2}>
        {tables.map((t) => (
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
