import { customerDisplay } from '@lp/domain/customer-text';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { useCustomer } from '../../accounts/components/customer-context.tsx';
import { RequireCustomer } from '../../accounts/components/require-customer.tsx';

function ElasticHome() {
  const { customer } = useCustomer();
  return (
    <Stack>
      <Title order={1} size="h2">
        Elastic Licensing
      </Title>
      {customer ? <Text data-testid="selected-customer">{customerDisplay(customer)}</Text> : null}
      <Alert variant="light" color="blue" title="Coming soon">
        Elastic usage, entitlements and statements for this account are not available in this version of the
        portal yet.
      </Alert>
    </Stack>
  );
}

export function Component() {
  return (
    <RequireCustomer>
      <ElasticHome />
    </RequireCustomer>
  );
}
