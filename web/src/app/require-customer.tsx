import { Navigate } from 'react-router';
import { Spinner } from '../components/spinner.tsx';
import { noticeState, useCustomer } from './customer-context.tsx';

const LOADING = 'Loading...';

/** Account-scoped pages need a selected customer (spec 000 §4.2): else /noselectedcustomer. */
export function RequireCustomer({ children }: { children: React.ReactNode }) {
  const { customer, ready, notice, version } = useCustomer();
  if (!customer && !ready) return <Spinner text={LOADING} />;
  if (!customer)
    return <Navigate to={notice ?? '/noselectedcustomer'} replace state={noticeState(version)} />;
  return <>{children}</>;
}
