import { messages } from '@lp/contract/common/errors';
import { customerDisplay } from '@lp/domain/customer-text';
import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { noticeState, useCustomer } from '../../../app/customer-context.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fsaContractsQuery, fsaHistoryQuery } from '../api/fsa.ts';
import { EntitlementsTab } from '../components/entitlements-tab.tsx';
import { HistoryTab } from '../components/history-tab.tsx';

/**
 * A refused read goes to /noaccess (export control) or /nopermissions like the other account pages (spec 002 §1);
 * any other failure is shown in the tab.
 */
function useRefusalRedirect(error: Error | null, customerNumber: string) {
  const navigate = useNavigate();
  const { version } = useCustomer();
  const refused = error instanceof ApiError && error.status === 403 ? error : null;
  useEffect(() => {
    if (!refused) return;
    const to = refused.err === messages.exportDenied ? '/noaccess' : '/nopermissions';
    navigate(to, { replace: true, state: noticeState(version, customerNumber) });
  }, [refused, navigate, version, customerNumber]);
}

/** The tab's content once its read is in; the spec's spinner while it loads. */
function Loaded<T>({ read, children }: { read: UseQueryResult<T>; children: (data: T) => React.ReactNode }) {
  if (read.data) return <>{children(read.data)}</>;
  if (read.isError) return <Alert color="red">{read.error.message}</Alert>;
  return <Spinner text={messages.fsaLoading} />;
}

function EntitlementsPanel({ customerNumber }: { customerNumber: string }) {
  const read = useQuery(fsaContractsQuery(customerNumber));
  useRefusalRedirect(read.error, customerNumber);
  return (
    <Loaded read={read}>
      {(contracts) => <EntitlementsTab customerNumber={customerNumber} contracts={contracts} />}
    </Loaded>
  );
}

function HistoryPanel({ customerNumber }: { customerNumber: string }) {
  const read = useQuery(fsaHistoryQuery(customerNumber));
  useRefusalRedirect(read.error, customerNumber);
  return <Loaded read={read}>{(rows) => <HistoryTab customerNumber={customerNumber} rows={rows} />}</Loaded>;
}

/**
 * /entitlementsFSA, Flexible Spending Account (spec 002 §2 "FSA page"): the Entitlements and History tabs.
 * Routed inside RequireCustomer (no selected customer: /noselectedcustomer; an export-blocked account is never
 * selected: /noaccess). A tab's grids mount when it is shown, so each loads its saved view as it appears.
 */
export default function FsaPage() {
  const { customer } = useCustomer();
  if (!customer) return null;
  const { customerNumber } = customer;
  return (
    <Stack data-testid="fsa-page">
      <Title order={1} size="h2">
        Flexible Spending Account
      </Title>
      <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
      <Tabs defaultValue="entitlements" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="entitlements">Entitlements</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="entitlements" pt="md">
          <EntitlementsPanel key={customerNumber} customerNumber={customerNumber} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <HistoryPanel key={customerNumber} customerNumber={customerNumber} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
