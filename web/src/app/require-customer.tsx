import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
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
 */
function useAccountInUrl(customer: SelectedCustomer | null) {
  const { version, followLink, linkSync } = useCustomer();
  const location = useLocation();
  const navigate = useNavigate();
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
    const search = new URLSearchParams(location.search);
    search.set(ACCOUNT_PARAM, customer.customerNumber);
    navigate(
      { pathname: location.pathname, search: `?${search}`, hash: location.hash },
      { replace: true, state: location.state },
    );
  }, [customer, linked, location, version, followLink, linkSync, navigate]);
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
