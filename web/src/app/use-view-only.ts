import { permissionsFor } from '@lp/domain/policy';
import { useCurrentUser } from '../lib/app-context.tsx';
import { useCustomer } from './customer-context.tsx';

/**
 * Whether the user may only view the selected account. Without the account's info flags the page cannot tell
 * edit rights: it stays read-only (the server decides anyway).
 */
export function useViewOnly(): boolean {
  const { customer } = useCustomer();
  const user = useCurrentUser();
  return customer?.info ? permissionsFor(user.roles, customer.info).viewOnly : true;
}
