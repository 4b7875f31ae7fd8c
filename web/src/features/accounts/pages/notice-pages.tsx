import { isExportBlocked } from '@lp/domain/policy';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { NoticePage } from '../../../components/notice.tsx';
import { useConfig } from '../../../lib/app-context.tsx';
import { type NoticeState, useCustomer } from '../components/customer-context.tsx';

/** Spec 000 §2.6 texts and return rules. Each page goes to /elastic once its condition is gone. */
function useReturnWhen(condition: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (condition) navigate('/elastic', { replace: true });
  }, [condition, navigate]);
}

/** The selection this notice was opened for: from the history state, else the one shown when it opened. */
function useOpenedFor() {
  const { version, customer } = useCustomer();
  const location = useLocation();
  const given = (location.state ?? {}) as NoticeState;
  const atOpen = useRef({ version, customerNumber: customer?.customerNumber });
  return {
    version: given.noticeVersion ?? atOpen.current.version,
    customerNumber: given.customerNumber ?? atOpen.current.customerNumber,
  };
}

/** True once a customer is set after this page opened. */
function useNewChoice() {
  const { version } = useCustomer();
  return version !== useOpenedFor().version;
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
  const type = customer?.info?.orgType;
  useReturnWhen(type === 'Channel' || type === 'Direct' || type === 'Indirect');
  return (
    <NoticePage title="Customer type">
      The selected customer needs to be either a direct or channel customer. Please contact {providerName}{' '}
      support to correct the customer type.
    </NoticePage>
  );
}

export function NoAccessPage() {
  const { customer } = useCustomer();
  const chosen = useNewChoice();
  useReturnWhen(chosen && !!customer && !isExportBlocked(customer.info?.exportControlStatus));
  return (
    <NoticePage title="Access denied">
      Access to this customer is denied per Export Compliance restrictions.
    </NoticePage>
  );
}

export function NoPermissionsPage() {
  const { customer } = useCustomer();
  const openedFor = useOpenedFor();
  useReturnWhen(!!customer && customer.customerNumber !== openedFor.customerNumber);
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
