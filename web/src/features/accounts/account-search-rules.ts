import type { AccountRow } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule } from '@lp/contract/query/schemas';
import { parseCustomerText } from '@lp/domain/customer-text';

/** Spec 000 §5, §9: filter debounce 1 s, search limit 100. "Too many" comes from the server's /api/config. */
export const ACCOUNT_SEARCH_DEBOUNCE_MS = 1000;
export const ACCOUNT_SEARCH_LIMIT = 100;

export type AccountSearchPlan =
  | { kind: 'none' }
  | { kind: 'invalid'; message: string }
  | { kind: 'search'; filter: FilterRule };

/** What to ask the server for the text in the top-bar box: "number (name)", a bare number, "(name)" or a name fragment. */
export function accountSearchPlan(text: string): AccountSearchPlan {
  if (!text.trim()) return { kind: 'none' };
  const parsed = parseCustomerText(text);
  if (!parsed || (!parsed.number && !parsed.name))
    return { kind: 'invalid', message: messages.invalidAccountFilter };
  if (parsed.number && parsed.name) {
    return {
      kind: 'search',
      filter: {
        condition: 'ALL',
        criteria: [
          { name: 'AccountID', method: 'EQUALS', value: parsed.number, casefold: true },
          { name: 'AccountName', method: 'CONTAINS', value: parsed.name, casefold: true },
        ],
      },
    };
  }
  const criterion = parsed.number
    ? { name: 'AccountID', method: 'CONTAINS' as const, value: parsed.number, casefold: true }
    : { name: 'AccountName', method: 'CONTAINS' as const, value: parsed.name as string, casefold: true };
  return { kind: 'search', filter: { condition: 'ANY', criteria: [criterion] } };
}

/**
 * The count decides before any rows are fetched: none, or too many to list. `max` is the server's
 * ACCOUNT_LIST_MAX (/api/config accountListMax), the most rows the account list will ever answer.
 */
export function accountCountMessage(count: number, max: number): string | null {
  if (count <= 0) return messages.noAccountFound;
  if (count >= max) return messages.tooManyAccounts;
  return null;
}

export const accountOptionText = (row: AccountRow) => `${row.AccountID} (${row.AccountName})`;
