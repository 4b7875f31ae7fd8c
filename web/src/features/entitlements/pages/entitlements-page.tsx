import { messages } from '@lp/contract/common/errors';
import { customerDisplay } from '@lp/domain/customer-text';
import { classifyEntitlements, type EntitlementViewRow } from '@lp/domain/elastic-entitlements';
import { Accordion, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { type SelectedCustomer, useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { confirmDialog } from '../../../components/confirm-dialog.tsx';
import { hideSpinner, showError, showSpinner, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { errorText } from '../../../lib/api-client.ts';
import { useConfig } from '../../../lib/app-context.tsx';
import { useStagedMount } from '../../../lib/use-staged-mount.ts';
import {
  elasticDeviceQuery,
  entitlementsQuery,
  type StatementPeriod,
  sendStatementEmail,
} from '../api/entitlements.ts';
import { useBalanceAdjuster } from '../components/adjust-balance-dialog.tsx';
import { EntitlementsTable } from '../components/entitlements-table.tsx';

export const SENDING_SPINNER = 'Sending email...';
export const confirmStatementEmail = (period: StatementPeriod, server: string, activationId: string) =>
  `Are you sure you want to send a ${period} Statement email for this entitlement? Server ID: ${server}, Activation ID: ${activationId}`;

function Entitlements({ customer }: { customer: SelectedCustomer }) {
  const { customerNumber, customerName } = customer;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { elasticTermsUrl } = useConfig();
  const entitlements = useQuery(entitlementsQuery(customerNumber, customerName));
  // Asked when a statement e-mail needs it, not on load: an account without an elastic server answers 404, an
  // error line nobody caused (issue 21).
  const { data: device, refetch: refetchDevice } = useQuery({
    ...elasticDeviceQuery(customerNumber, customerName),
    enabled: false,
  });
  const adjuster = useBalanceAdjuster(customerNumber);
  const viewOnly = useViewOnly();
  const lists = useMemo(
    () => (entitlements.data ? classifyEntitlements(entitlements.data) : null),
    [entitlements.data],
  );
  const empty = !!lists && lists.active.length + lists.inactive.length === 0;
  // Active, then Inactive Entitlements, each grid in a task of its own once the list is in (decision 053).
  const mounted = useStagedMount(lists ? 2 : 1);

  // Spec 001 §2.1: an account without elastic entitlements has nothing to show here.
  useEffect(() => {
    if (empty && pathname.startsWith('/elastic')) navigate('/ssl', { replace: true });
  }, [empty, pathname, navigate]);

  // Spec 001 §8: a failure shows nothing; the error is only logged.
  useEffect(() => {
    if (entitlements.error) console.warn('Error', entitlements.error);
  }, [entitlements.error]);

  const sendStatement = useCallback(
    async (period: StatementPeriod, row: EntitlementViewRow) => {
      // Sending is an account write: view-only users get the notice instead of the confirmation.
      if (viewOnly) return showViewOnlyNotice(customerNumber);
      let server: string;
      try {
        // The server is looked up at the first e-mail (kept for the next ones).
        server = device?.deviceId ?? (await refetchDevice({ throwOnError: true })).data?.deviceId ?? '';
      } catch (e) {
        showError(`${messages.emailNotSent} ${errorText(e)}`);
        return;
      }
      if (!(await confirmDialog(confirmStatementEmail(period, server, row.activationId)))) return;
      showSpinner(SENDING_SPINNER);
      try {
        await sendStatementEmail(period, {
          customerid: customerNumber,
          customername: customerName,
          server,
          activationid: row.activationId,
          date: new Date().toISOString(),
        });
        showSuccess(messages.emailSent);
      } catch (e) {
        showError(`${messages.emailNotSent} ${errorText(e)}`);
      } finally {
        hideSpinner();
      }
    },
    [customerNumber, customerName, device, refetchDevice, viewOnly],
  );
  const onSendStatement = useCallback(
    (period: StatementPeriod, row: EntitlementViewRow) => void sendStatement(period, row),
    [sendStatement],
  );

  if (entitlements.isPending) return <Spinner text="Loading..." />;
  if (!lists || empty) return null;
  const tables = [
    { value: 'active', title: 'Active Entitlements', tableName: 'activeEntitlements', rows: lists.active },
    {
      value: 'inactive',
      title: 'Inactive Entitlements',
      tableName: 'inActiveEntitlements',
      rows: lists.inactive,
    },
  ] as const;
  return (
    <Accordion multiple defaultValue={['active', 'inactive']} variant="separated" order={2}>
      {tables.slice(0, mounted).map((t) => (
        <Accordion.Item key={t.value} value={t.value}>
          <Accordion.Control>{t.title}</Accordion.Control>
          <Accordion.Panel>
            <EntitlementsTable
              customerNumber={customerNumber}
              tableName={t.tableName}
              title={t.title}
              rows={t.rows}
              termsUrl={elasticTermsUrl}
              onSendStatement={onSendStatement}
              onAdjustBalance={adjuster.onAdjustBalance}
            />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
      {adjuster.dialog}
    </Accordion>
  );
}

/** /elastic and /elastic/fromLeftMenu (spec 001 §2.1), inside RequireCustomer. */
export default function EntitlementsPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  return (
    <Stack data-testid="entitlements-page">
      <Title order={1} size="h2">
        Elastic Licensing
      </Title>
      <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
      <Entitlements customer={customer} />
    </Stack>
  );
}
