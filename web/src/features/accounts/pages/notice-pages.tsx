import { isExportBlocked } from '@lp/domain/policy';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type NoticeState, noticeState, useCustomer } from '../../../app/customer-context.tsx';
import { NoticePage } from '../../../components/notice.tsx';
import { useConfig } from '../../../lib/app-context.tsx';

/** Spec 000 §2.6 texts and return rules. Each page goes to /elastic once its condition is gone. */
function useReturnWhen(condition: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (condition) navigate('/elastic', { replace: true });
  }, [condition, navigate]);
}

/**
 * The selection this notice was opened for, kept in the history state: the page remounts whenever
 * the customer changes (the shell keys its outlet by the selection), so a ref would forget it. A
 * page opened directly (typed URL, reload) records the selection once the automatic one has run.
 * Null until known: no return rule fires before that.
 */
function useOpenedFor(): { version: number; customerNumber?: string; openedByUrl: boolean } | null {
  const { version, customer, ready } = useCustomer();
  const location = useLocation();
  const navigate = useNavigate();
  const given = (location.state ?? {}) as NoticeState;
  const known = given.noticeVersion !== undefined;
  useEffect(() => {
    if (known || !ready) return;
    // The first entry of the history (key "default") was typed or bookmarked; the app's own redirects
    // always carry a notice state.
    const openedByUrl = location.key === 'default';
    navigate(`${location.pathname}${location.search}`, {
      replace: true,
      state: { ...(location.state ?? {}), ...noticeState(version, customer?.customerNumber), openedByUrl },
    });
  }, [known, ready, navigate, location, version, customer]);
  return known
    ? {
        version: given.noticeVersion ?? 0,
        customerNumber: given.customerNumber,
        openedByUrl: !!given.openedByUrl,
      }
    : null;
}

/**
 * Whether the page's return condition may apply: once a customer is set after the app sent the user here,
 * or at once when the page was opened by URL (spec 000 §2.6: the condition alone decides; issue 8 §3).
 */
function useNewChoice() {
  const { version } = useCustomer();
  const openedFor = useOpenedFor();
  return !!openedFor && (openedFor.openedByUrl || version !== openedFor.version);
}

export function NoSelectedCustomerPage() {
  const { customer } = useCustomer();
  useReturnWhen(!!customer);
  return (
    <NoticePage title="No customer selected">
      Please select a customer from the drop down menu at the top right.
    </NoticePage>
  );
}

export function NoTypeCustomerPage() {
  const { customer } = useCustomer();
  const { providerName } = useConfig();
  const chosen = useNewChoice();
  const type = customer?.info?.orgType;
  // Only a newly chosen customer returns: an indirect customer sent here by the e-mails page (which needs
  // channel or direct) must see the notice instead of bouncing straight back.
  useReturnWhen(chosen && (type === 'Channel' || type === 'Direct' || type === 'Indirect'));
  return (
    <NoticePage title="Customer type">
      The selected customer needs to be either a direct or channel customer. Please contact {providerName}{' '}
      support to correct the customer type.
    </NoticePage>
  );
}

/**
 * Opening /noaccess with this state shows the support-coordinator text instead of the export one
 * (spec 000 §2.6: accounts that need a support coordinator).
 */
export const ascNoticeReason = { reason: 'asc' } as const;

export function NoAccessPage() {
  const { customer } = useCustomer();
  const chosen = useNewChoice();
  const location = useLocation();
  const asc = (location.state as { reason?: string } | null)?.reason === ascNoticeReason.reason;
  useReturnWhen(chosen && !!customer && !isExportBlocked(customer.info?.exportControlStatus));
  return (
    <NoticePage title="Access denied">
      {asc
        ? 'You must be an ASC (Support Coordinator) to access the account for this customer number, please contact your sales representative.'
        : 'Access to this customer is denied per Export Compliance restrictions.'}
    </NoticePage>
  );
}

export function NoPermissionsPage() {
  const { customer } = useCustomer();
  const openedFor = useOpenedFor();
  useReturnWhen(!!openedFor && !!customer && customer.customerNumber !== openedFor.customerNumber);
  return <NoticePage title="No permission">You do not have enough permissions to view this page.</NoticePage>;
}

export function NoCustomerPage() {
  return (
    <NoticePage title="No customer account">
      Your user is not linked to any customer account. Please contact your Licensing Portal Administrator to
      be given access.
    </NoticePage>
  );
}
