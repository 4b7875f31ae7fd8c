import { type WebPool, type WebPoolPolicy, webPoolPolicyLimits } from '@lp/contract/web-seats/schemas';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { showSuccess } from '../../../components/panels.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useSavePoolPolicy } from '../api/web-seats.ts';

type Field = keyof WebPoolPolicy;
type Values = Record<Field, number | string>;

const fields: Array<{ name: Field; label: string }> = [
  { name: 'heartbeatWindowSeconds', label: 'Heartbeat window (seconds)' },
  { name: 'idleTimeoutSeconds', label: 'Idle timeout (seconds)' },
  { name: 'sessionsPerUser', label: 'Sessions per user' },
];

/** The contract's bounds, said as the server says them. */
const withinLimits = (name: Field, label: string) => (value: number | string) => {
  const { min, max } = webPoolPolicyLimits[name];
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
    ? null
    : `${label} must be a whole number from ${min} to ${max}.`;
};

const validate = Object.fromEntries(fields.map((f) => [f.name, withinLimits(f.name, f.label)])) as Record<
  Field,
  (value: number | string) => string | null
>;

/** Edit policy of one pool: the bounds from the contract; the server's refusal is shown in the dialog as it comes. */
export function PolicyDialog({
  customerNumber,
  pool,
  onClose,
}: {
  customerNumber: string;
  pool: WebPool;
  onClose: () => void;
}) {
  const save = useSavePoolPolicy(customerNumber);
  const form = useForm<Values>({ initialValues: { ...pool.policy }, validate });

  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({ partNumber: pool.partNumber, policy: values as WebPoolPolicy });
      showSuccess(`Policy of ${pool.productName} saved.`);
      onClose();
    } catch {
      // The mutation keeps the error; it is shown in the dialog below.
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title="Edit policy"
      size={500}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            <strong>{pool.productName}</strong> ({pool.partNumber})
          </Text>
          {fields.map((f, i) => {
            const { min, max } = webPoolPolicyLimits[f.name];
            return (
              <NumberInput
                key={f.name}
                label={f.label}
                description={`From ${min} to ${max}.`}
                styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
                min={min}
                max={max}
                // A number out of bounds is said, not silently changed.
                clampBehavior="none"
                allowDecimal={false}
                allowNegative={false}
                required
                data-autofocus={i === 0 ? true : undefined}
                {...form.getInputProps(f.name)}
              />
            );
          })}
          {save.error ? (
            <Alert color="red" variant="light" role="alert">
              {errorText(save.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
