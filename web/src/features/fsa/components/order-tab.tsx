import { messages } from '@lp/contract/common/errors';
import type { FsaContract } from '@lp/contract/fsa/schemas';
import { formatDate } from '@lp/domain/dates';
import { formatMoney } from '@lp/domain/fsa-pricing';
import { isBusops, permissionsFor } from '@lp/domain/policy';
import { Alert, Button, Group, Menu, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { useCustomer } from '../../../app/customer-context.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { newOperationKey } from '../../../lib/operation-key.ts';
import { fsaProductsQuery, orderFsaEntitlements } from '../api/fsa.ts';
import { contractLabel, defaultContractId, offeredContracts, orderContext } from '../order-contracts.ts';
import {
  addManualLine,
  addStandardLine,
  afterOrder,
  emptyOrderLines,
  type OrderContext,
  type OrderLinesState,
  orderRequest,
  orderView,
} from '../order-lines.ts';
import { type OrderChoice, OrderConfirmDialog } from './order-confirm-dialog.tsx';
import { OrderLinesTable } from './order-lines-table.tsx';

/** The Order Products form, kept by the page so switching tabs does not drop the lines. */
export interface OrderForm {
  /** The contract picked in the autocomplete or with an Order button; null = the default */
  contractId: string | null;
  lines: OrderLinesState;
}
export const emptyOrderForm: OrderForm = { contractId: null, lines: emptyOrderLines };

interface Props {
  customerNumber: string;
  customerName: string;
  contracts: FsaContract[];
  form: OrderForm;
  setForm: (change: (form: OrderForm) => OrderForm) => void;
}

/** The outcome shown above the lines: a partial failure, a refused order (its error JSON) or a network error. */
function orderFailure(e: unknown): string {
  if (e instanceof ApiError && e.status !== 0) return JSON.stringify({ status: 'FAILURE', err: e.err });
  return `${messages.fsaOrderNetworkError}${e instanceof Error ? e.message : String(e)}`;
}

function AddProduct({
  ctx,
  busops,
  disabled,
  update,
}: {
  ctx: OrderContext;
  busops: boolean;
  disabled: boolean;
  update: (change: (s: OrderLinesState) => OrderLinesState) => void;
}) {
  if (!busops)
    return (
      <Button variant="light" disabled={disabled} onClick={() => update((s) => addStandardLine(s, ctx))}>
        Add product
      </Button>
    );
  return (
    <Menu position="bottom-start">
      <Menu.Target>
        <Button variant="light" disabled={disabled}>
          Add product
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => update((s) => addStandardLine(s, ctx))}>Standard product</Menu.Item>
        <Menu.Item onClick={() => update((s) => addManualLine(s, ctx))}>Manual entry</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * Order Products (spec 002 §2 "FSA order creation screen", §4, §5; issue 12 §3): a contract, priced lines, Total
 * Cost and Available, then the confirmation dialog and POST /api/entitlements. The form prices with the server's
 * pricing module, and the server prices again and draws under the contract lock; its answer per line decides.
 */
export function OrderTab({ customerNumber, customerName, contracts, form, setForm }: Props) {
  const user = useCurrentUser();
  const { customer, reloadInfo } = useCustomer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const today = formatDate(new Date());
  const busops = isBusops(user.roles);
  const permissions = customer?.info ? permissionsFor(user.roles, customer.info) : null;

  const offered = useMemo(() => offeredContracts(contracts, today), [contracts, today]);
  const contractId = defaultContractId(offered, form.contractId);
  const contract = offered.find((c) => c.entitlementId === contractId);
  const products = useQuery({
    ...fsaProductsQuery(customerNumber, contractId ?? ''),
    enabled: contract?.hasProducts === true,
  });
  const ctx = useMemo(
    () => (contract && products.data ? orderContext(contract, products.data, today, busops) : null),
    [contract, products.data, today, busops],
  );
  const noProducts =
    contract !== undefined &&
    (!contract.hasProducts || (products.data !== undefined && products.data.length === 0));

  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // One key per set of lines: a retry of the same lines (after a network error) cannot order them twice.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key exactly when the lines change
  const orderKey = useMemo(() => newOperationKey(), [form.lines.lines, contractId]);

  const update = (change: (s: OrderLinesState) => OrderLinesState) =>
    setForm((f) => ({ ...f, lines: change(f.lines) }));
  const reset = () => {
    setForm((f) => ({ ...f, lines: emptyOrderLines }));
    setFailure(null);
  };
  const chooseContract = (id: string | null) => {
    if (!id || id === contractId) return;
    setForm(() => ({ contractId: id, lines: emptyOrderLines }));
    setFailure(null);
  };

  const view = ctx ? orderView(form.lines, ctx) : null;

  const orderNow = () => {
    if (permissions?.viewOnly !== false) return showViewOnlyNotice(customerNumber);
    setConfirming(true);
  };

  const submit = async (choice: OrderChoice) => {
    setConfirming(false);
    if (!ctx || !contract) return;
    const body = orderRequest(form.lines, ctx, {
      orderKey,
      customerNumber,
      customerName,
      orderId: contract.orderId,
      poNumber: contract.poNumber,
      busopsEmails: contract.busopsEmails,
    });
    if (!body) return;
    setBusy(true);
    setFailure(null);
    try {
      const results = await orderFsaEntitlements(body);
      // The order changes the account's entitlements: every cached read of the account is stale (the
      // contracts' balances here, the leases and activations pages).
      await queryClient.invalidateQueries({ predicate: (q) => q.queryKey.includes(customerNumber) });
      if (results.every((r) => r.status === 'SUCCESS')) {
        // Rendered before leaving: the unsaved-lines guard must see the emptied form, or it holds the navigation.
        flushSync(reset);
        notifications.show({ color: 'green', message: messages.fsaCreated });
        if (choice === 'activate') {
          // An account's first leases open /activations: its flags must say so before the page checks them.
          if (!permissions?.activationsAllowed) await reloadInfo();
          // /activations names the new lines (decision 049): the ids the server gave them.
          const entitlementIds = results.flatMap((r) => (r.entitlementId ? [r.entitlementId] : []));
          navigate('/activations', { state: { ordered: { customerNumber, entitlementIds } } });
        }
      } else {
        setForm((f) => ({ ...f, lines: afterOrder(f.lines, ctx, results).state }));
        setFailure(messages.fsaSomeNotCreated);
      }
    } catch (e) {
      setFailure(orderFailure(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack pos="relative" data-testid="fsa-order">
      {busy ? <Spinner text={messages.fsaCreating} overlay /> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={reset} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={orderNow} disabled={busy || !view?.canOrder}>
          Order Now
        </Button>
      </Group>
      <Select
        label="FSA Contract"
        placeholder={offered.length === 0 ? 'No contract can be ordered against' : 'Select a contract'}
        searchable
        data={offered.map((c) => ({ value: c.entitlementId, label: contractLabel(c) }))}
        value={contractId}
        onChange={chooseContract}
        allowDeselect={false}
        nothingFoundMessage="No contract found"
        disabled={busy}
        maw={420}
      />
      {failure ? (
        <Alert color="red" data-testid="order-failure">
          {failure}
        </Alert>
      ) : null}
      {noProducts ? (
        <Alert color="red" data-testid="no-products">
          {messages.fsaNoProducts}
        </Alert>
      ) : null}
      {products.isError ? <Alert color="red">{products.error.message}</Alert> : null}
      {contract?.hasProducts && !products.data && !products.isError ? (
        <Spinner text={messages.fsaLoading} />
      ) : null}
      {ctx && view && !noProducts ? (
        <>
          <OrderLinesTable ctx={ctx} view={view} update={update} disabled={busy} />
          <Group justify="space-between" align="flex-start">
            <AddProduct ctx={ctx} busops={busops} disabled={busy || !view.canAddLine} update={update} />
            <Stack gap={2} align="flex-end" data-testid="order-summary">
              <Text size="sm">
                Total Cost: <b data-testid="order-total">{view.total}</b> {ctx.contract.currency}
              </Text>
              <Text size="sm" c={view.overBalance ? 'red' : undefined}>
                Available: <b data-testid="order-available">{view.available}</b> {ctx.contract.currency}
              </Text>
              <Text size="xs">
                Balance before this order: {formatMoney(ctx.contract.remainingCents)} {ctx.contract.currency}
              </Text>
            </Stack>
          </Group>
          <OrderConfirmDialog
            opened={confirming}
            title="Confirm FSA order"
            contractId={ctx.contract.entitlementId}
            view={view}
            canActivate={permissions?.fsaActivation === true}
            onClose={() => setConfirming(false)}
            onChoose={submit}
          />
        </>
      ) : null}
    </Stack>
  );
}
