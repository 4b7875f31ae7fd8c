import { customerDisplay } from '@lp/domain/customer-text';
import { Text, Title } from '@mantine/core';
import { useCustomer } from '../../accounts/components/customer-context.tsx';

export default function Page() {
  const { customer } = useCustomer();
  return (
    <>
      <Title order={1} size="h2">
        Elastic Licensing
      </Title>
      {customer ? <Text data-testid="selected-customer">{customerDisplay(customer)}</Text> : null}
    </>
  );
}
