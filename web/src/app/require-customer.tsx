import { useEffect } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Spinner } from '../components/spinner.tsx';
import {
  ACCOUNT_PARAM,
  accountInUrl,
  noticeState,
  type SelectedCustomer,
  useCustomer,
} from './customer-context.tsx';

const LOADING = 'Loading...';

/**
 * Keeps the selected account in the URL of account pages (issue 21). Whichever changed last wins: a new selection
 * (top bar) rewrites the URL in place; a new location naming another account (Back, a link) selects that account.
 * The rewrite edits the current history entry only (no navigation), so a page that sends the user elsewhere while
 * it opens (a notice page) is not overridden.
 */
function useAccountInUrl(customer: SelectedCustomer | null) {
  const { version, followLink, linkSync } = useCustomer();
  const location = useLocation();
  const linked = accountInUrl(location.search);
  useEffect(() => {
    if (!customer) return;
    const synced = linkSync.current;
    linkSync.current = { key: location.key, version };
    if (linked === customer.customerNumber) return;
    if (linked && synced.key !== location.key && synced.version === version) {
      void followLink(linked);
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.set(ACCOUNT_PARAM, customer.customerNumber);
    window.history.replaceState(window.history.state, '', url);
  }, [customer, linked, location, version, followLink, linkSync]);
}

/** Account-scoped pages need a selected customer (spec 000 §4.2): else /noselectedcustomer. */
export function RequireCustomer({ children }: { children: React.ReactNode }) {
  const { customer, ready, notice, version } = useCustomer();
  useAccountInUrl(customer);
  if (!customer && !ready) return <Spinner text={LOADING} />;
  if (!customer)
    return <Navigate to={notice ?? '/noselectedcustomer'} replace state={noticeState(version)} />;
  return <>{children}</>;
}
