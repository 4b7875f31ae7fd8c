import type { CurrentUser } from '@lp/contract/user/schemas';

/**
 * Local storage items of the app. `currentUser` is only the route guard's cache (spec 000 §3, §2.1):
 * the server stays the authority and is asked on every start.
 */
const CURRENT_USER = 'currentUser';
const SELECTED_CUSTOMER = 'selectedCustomer';

/** A structural check instead of the zod schema keeps zod out of the first-render bundle. */
function isCurrentUser(v: unknown): v is CurrentUser {
  if (typeof v !== 'object' || v === null) return false;
  const u = v as Record<string, unknown>;
  return (
    typeof u.email === 'string' &&
    typeof u.name === 'string' &&
    Array.isArray(u.roles) &&
    u.roles.every((r) => typeof r === 'string')
  );
}

export function readCurrentUser(): CurrentUser | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CURRENT_USER) ?? 'null');
    return isCurrentUser(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function writeCurrentUser(user: CurrentUser) {
  localStorage.setItem(CURRENT_USER, JSON.stringify(user));
}

/** The customer the user chose last, restored on the next start instead of the first account. */
export const readSavedCustomer = (): string | null => localStorage.getItem(SELECTED_CUSTOMER);
export const writeSavedCustomer = (customerNumber: string) =>
  localStorage.setItem(SELECTED_CUSTOMER, customerNumber);
export const clearSavedCustomer = () => localStorage.removeItem(SELECTED_CUSTOMER);
