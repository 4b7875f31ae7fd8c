import type { ActivationRow } from '@lp/contract/activations/schemas';
import { endText } from '@lp/domain/lease-entitlements';
import { Text } from '@mantine/core';

/** Spec 002 §3: an activation as every activations table names it: product in bold ('(Evaluation)' after an evaluation's) over the activation id. */
export function EntitlementText({ row }: { row: ActivationRow }) {
  return (
    <>
      <Text size="sm" fw={700} lh={1.3}>
        {row.ansysproduct}
        {row.isEval ? ' (Evaluation)' : ''}
      </Text>
      <Text size="xs" lh={1.3}>
        {row.activationid}
      </Text>
    </>
  );
}

/** Spec 002 §4: the end date, or for a perpetual 'Maintenance ends on {versiondate}' (one rule: `endText`). */
export const expirationText = (row: ActivationRow) => endText(row.enddate, row.versiondate);
