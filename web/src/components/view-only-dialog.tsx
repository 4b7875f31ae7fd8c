import { messages } from '@lp/contract/common/errors';
import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * The one view-only notice (spec 000 §2.6 and §6, spec 002 "View-only notice dialog"): 600 px, the customer
 * number and "You do not have enough permissions for such operation." with Ok. A view-only user gets it
 * instead of an edit or confirm dialog (decision 022).
 */
export function showViewOnlyNotice(customerNumber: string): Promise<void> {
  return new Promise((resolve) => {
    const id = modals.open({
      title: `Customer ${customerNumber}`,
      size: 600,
      onClose: () => resolve(),
      children: (
        <>
          <Text size="sm">{messages.noPermission}</Text>
          <Group justify="flex-end" mt="md">
            <Button onClick={() => modals.close(id)}>Ok</Button>
          </Group>
        </>
      ),
    });
  });
}
