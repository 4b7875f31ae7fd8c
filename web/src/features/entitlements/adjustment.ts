import type { AdjustmentRequest } from '@lp/contract/cls/schemas';

/**
 * The busops "Adjust balance" form of /elastic (docs/decisions/013-elastic-ledger.md): what the browser checks
 * before sending, and the request it sends. The ledger's own limits (remaining balance, used amount) are the
 * server's to enforce; its messages are shown as they come.
 */

export const DEFAULT_ADJUSTMENT_PRODUCT = 'Balance Adjustment';

export const adjustmentTexts = {
  amountMissing: 'Enter an amount in units.',
  amountZero: 'The amount must not be zero.',
} as const;

export interface AdjustmentFormValues {
  /** Mantine's NumberInput answers '' while empty and a string while a number is half typed ('-'). */
  amount: number | string;
  product: string;
  note: string;
}

const toCents = (units: number) => Math.round(units * 100);

/** Null when the amount can be sent: a finite, non-zero number of units. */
export function amountProblem(amount: number | string): string | null {
  const units = typeof amount === 'number' ? amount : amount.trim() === '' ? Number.NaN : Number(amount);
  if (!Number.isFinite(units)) return adjustmentTexts.amountMissing;
  if (toCents(units) === 0) return adjustmentTexts.amountZero;
  return null;
}

/** The request body; a blank product falls back to the default label, texts are trimmed. */
export function adjustmentRequest(
  customerNumber: string,
  activationId: string,
  values: AdjustmentFormValues,
): AdjustmentRequest {
  return {
    customerNumber,
    activationId,
    amount: Number(values.amount),
    product: values.product.trim() || DEFAULT_ADJUSTMENT_PRODUCT,
    note: values.note.trim(),
  };
}

/** How far the entitlement can move: a credit gives back at most what was used, a debit draws at most the rest. */
export function adjustmentLimits(total: number, used: number): { maxCredit: number; maxDebit: number } {
  const usedCents = Math.max(0, toCents(used));
  return {
    maxCredit: usedCents / 100,
    maxDebit: Math.max(0, toCents(total) - usedCents) / 100,
  };
}
