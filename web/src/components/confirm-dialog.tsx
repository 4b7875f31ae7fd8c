import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Spec 000 §2.6: "Confirm" with a message, No and Yes; resolves true only on Yes. Width 350 px (§9). */
export function confirmDialog(message: React.ReactNode): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: 'Confirm',
      size: 350,
      children: <Text size="sm">{message}</Text>,
      labels: { confirm: 'Yes', cancel: 'No' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
