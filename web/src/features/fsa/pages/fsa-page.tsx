import { messages } from '@lp/contract/common/errors';
import { customerDisplay } from '@lp/domain/customer-text';
import { Alert, Stack, Tabs, Text, Title } from '@mantine/core';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { noticeState, useCustomer } from '../../../app/customer-context.tsx';
import { LeaveGuard } from '../../../components/leave-guard.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { fsaContractsQuery, fsaHistoryQuery } from '../api/fsa.ts';
import { EntitlementsTab } from '../components/entitlements-tab.tsx';
import { HistoryTab } from '../components/history-tab.tsx';
import { emptyOrderForm, type OrderForm, OrderTab } from '../components/order-tab.tsx';

/** Spec 002 §9: the FSA page has three tabs; the Order button advances the index by one, wrapping after three. */
const TABS = ['entitlements', 'order', 'history'] as const;
type FsaTab = (typeof TABS)[number];
const nextTab = (tab: FsaTab): FsaTab => TABS[(TABS.indexOf(tab) + 1) % TABS.length] as FsaTab;

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

function EntitlementsPanel({
  customerNumber,
  onOrder,
}: {
  customerNumber: string;
  onOrder: (entitlementId: string) => void;
}) {
  const read = useQuery(fsaContractsQuery(customerNumber));
  useRefusalRedirect(read.error, customerNumber);
  return (
    <Loaded read={read}>
      {(contracts) => (
        <EntitlementsTab customerNumber={customerNumber} contracts={contracts} onOrder={onOrder} />
      )}
    </Loaded>
  );
}

function OrderPanel(props: {
  customerNumber: string;
  customerName: string;
  form: OrderForm;
  setForm: (change: (form: OrderForm) => OrderForm) => void;
}) {
  const read = useQuery(fsaContractsQuery(props.customerNumber));
  useRefusalRedirect(read.error, props.customerNumber);
  return <Loaded read={read}>{(contracts) => <OrderTab {...props} contracts={contracts} />}</Loaded>;
}

function HistoryPanel({ customerNumber }: { customerNumber: string }) {
  const read = useQuery(fsaHistoryQuery(customerNumber));
  useRefusalRedirect(read.error, customerNumber);
  return <Loaded read={read}>{(rows) => <HistoryTab customerNumber={customerNumber} rows={rows} />}</Loaded>;
}

/**
 * The three tabs of one account. The order form lives here, so switching tabs keeps its lines; the page is keyed
 * by customer, so another account starts a fresh form. The History tab shows once the contracts are in (§2).
 */
function FsaTabs({ customerNumber, customerName }: { customerNumber: string; customerName: string }) {
  const [tab, setTab] = useState<FsaTab>('entitlements');
  const [form, setFormState] = useState<OrderForm>(emptyOrderForm);
  const contractsLoaded = useQuery(fsaContractsQuery(customerNumber)).isSuccess;
  const setForm = useCallback((change: (f: OrderForm) => OrderForm) => setFormState(change), []);
  const onOrder = useCallback((entitlementId: string) => {
    setFormState((f) =>
      f.contractId === entitlementId ? f : { contractId: entitlementId, lines: emptyOrderForm.lines },
    );
    setTab((t) => nextTab(t));
  }, []);
  return (
    <>
      <LeaveGuard when={form.lines.lines.length > 0} />
      <Tabs value={tab} onChange={(v) => setTab((v as FsaTab | null) ?? 'entitlements')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="entitlements">Entitlements</Tabs.Tab>
          <Tabs.Tab value="order">Order Products</Tabs.Tab>
          {contractsLoaded ? <Tabs.Tab value="history">History</Tabs.Tab> : null}
        </Tabs.List>
        <Tabs.Panel value="entitlements" pt="md">
          <EntitlementsPanel customerNumber={customerNumber} onOrder={onOrder} />
        </Tabs.Panel>
        <Tabs.Panel value="order" pt="md">
          <OrderPanel
            customerNumber={customerNumber}
            customerName={customerName}
            form={form}
            setForm={setForm}
          />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <HistoryPanel customerNumber={customerNumber} />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

/**
 * /entitlementsFSA, Flexible Spending Account (spec 002 §2 "FSA page"): Entitlements, Order Products and History.
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
      <FsaTabs key={customerNumber} customerNumber={customerNumber} customerName={customer.customerName} />
    </Stack>
  );
}
