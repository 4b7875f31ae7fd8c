import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * Spec 000 §2.6 / §6: view-only users get this 600 px notice instead of an edit or confirm dialog.
 * It names the customer number so the user knows which account's rights are missing.
 */
export function showViewOnlyNotice(customerNumber: string): Promise<void> {
  return new Promise((resolve) => {
    const id = modals.open({
      title: 'View only',
      size: 600,
      onClose: () => resolve(),
      children: (
        <>
          <Text size="sm">
            You have view-only access to customer {customerNumber}. Changes are not allowed; please contact a
            Licensing Portal Administrator of this customer if you need to make changes.
          </Text>
          <Group justify="flex-end" mt="md">
            <Button onClick={() => modals.close(id)}>Ok</Button>
          </Group>
        </>
      ),
    });
  });
}
