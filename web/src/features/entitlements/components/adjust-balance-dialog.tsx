import { formatAmount } from '@lp/domain/amounts';
import type { EntitlementViewRow } from '@lp/domain/elastic-entitlements';
import { isBusops } from '@lp/domain/policy';
import { Alert, Button, Group, Modal, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useCallback, useState } from 'react';
import { showSuccess } from '../../../components/panels.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import {
  type AdjustmentFormValues,
  adjustmentLimits,
  adjustmentRequest,
  amountProblem,
  DEFAULT_ADJUSTMENT_PRODUCT,
} from '../adjustment.ts';
import { useAdjustBalance } from '../api/adjustments.ts';

interface DialogProps {
  customerNumber: string;
  row: EntitlementViewRow;
  onClose: () => void;
}

/** Amount (units; negative = credit), product and note; the server's refusal is shown in the form as it comes. */
function AdjustBalanceDialog({ customerNumber, row, onClose }: DialogProps) {
  const adjust = useAdjustBalance(customerNumber);
  const form = useForm<AdjustmentFormValues>({
    initialValues: { amount: '', product: DEFAULT_ADJUSTMENT_PRODUCT, note: '' },
    validate: { amount: amountProblem },
  });
  const { maxCredit, maxDebit } = adjustmentLimits(row.total, row.used);

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await adjust.mutateAsync(adjustmentRequest(customerNumber, row.activationId, values));
      showSuccess(`Balance of ${result.activationId} adjusted. Used: ${formatAmount(result.used)}.`);
      onClose();
    } catch {
      // The mutation keeps the error; it is shown in the form below.
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title="Adjust balance"
      size={500}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            <strong>{row.product}</strong> {row.activationId}: used {formatAmount(row.used)} of{' '}
            {formatAmount(row.total)} {row.currency}.
          </Text>
          <NumberInput
            label="Amount"
            // Mantine's dimmed description colour is below 4.5:1 on white.
            styles={{ description: { color: 'var(--mantine-color-gray-7)' } }}
            description={`Units. A negative amount is a credit (up to ${formatAmount(maxCredit)}); a positive amount is a debit (up to ${formatAmount(maxDebit)}).`}
            decimalScale={2}
            allowDecimal
            allowNegative
            thousandSeparator=","
            required
            data-autofocus
            {...form.getInputProps('amount')}
          />
          <TextInput label="Product" maxLength={100} {...form.getInputProps('product')} />
          <Textarea label="Note" maxLength={1000} autosize minRows={2} {...form.getInputProps('note')} />
          {adjust.error ? (
            <Alert color="red" variant="light" role="alert" data-testid="adjustment-error">
              {errorText(adjust.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={adjust.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={adjust.isPending}>
              Adjust balance
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * The busops row action of /elastic: `onAdjustBalance` is undefined for everyone else (the table then has no
 * such action), and `dialog` is the open form, if any.
 */
export function useBalanceAdjuster(customerNumber: string) {
  const { roles } = useCurrentUser();
  const [row, setRow] = useState<EntitlementViewRow | null>(null);
  const open = useCallback((r: EntitlementViewRow) => setRow(r), []);
  const close = useCallback(() => setRow(null), []);
  return {
    onAdjustBalance: isBusops(roles) ? open : undefined,
    dialog: row ? (
      <AdjustBalanceDialog key={row.activationId} customerNumber={customerNumber} row={row} onClose={close} />
    ) : null,
  };
}
