import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import { isExportBlocked, permissionsFor } from '@lp/domain/policy';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import type { SelectedCustomer } from '../../app/customer-context.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useCurrentUser } from '../../lib/app-context.tsx';
import { getAccountInfo } from '../accounts/api/accounts.ts';
import { type HostChoice, tabQuery } from './api/activations.ts';
import type { PlanTab } from './save-plan.ts';
import type { TabData, TabSelection } from './selection.ts';

export interface TabCustomer {
  customerNumber: string;
  customerName: string;
}

const NO_SELECTION: TabSelection = { assigned: {}, available: {} };
const NO_DATA: TabData = { assigned: [], available: [] };

/**
 * The customer tabs of /activations (spec 002 §2): one per active customer, the top-bar customer first; each with
 * its account info (export control, view-only), its rows on the host and the user's selection.
 */
export function useCustomerTabs(customer: SelectedCustomer, host: HostChoice | null) {
  const cn = customer.customerNumber;
  const { roles } = useCurrentUser();
  const first = { customerNumber: cn, customerName: customer.customerName };
  const [tabs, setTabs] = useState<TabCustomer[]>([first]);
  const [active, setActive] = useState<string | null>(cn);
  const [selections, setSelections] = useState<Record<string, TabSelection>>({});

  const infos = useQueries({
    queries: tabs.map((t) => ({
      queryKey: ['activations', 'info', t.customerNumber],
      queryFn: () => getAccountInfo(t.customerNumber),
      staleTime: 60_000,
    })),
  });
  /** Spec 002 §6: an export-blocked customer's tab shows the notice and has no rows. */
  const blocked = tabs.map((_, i) => {
    const q = infos[i];
    if (q?.error instanceof ApiError && q.error.err === messages.exportDenied) return true;
    return !!q?.data && isExportBlocked(q.data.info.exportControlStatus);
  });
  const rows = useQueries({
    queries: tabs.map((t, i) => ({ ...tabQuery(t.customerNumber, host), enabled: !!host && !blocked[i] })),
  });

  const indexOf = (customerNumber: string) => tabs.findIndex((t) => t.customerNumber === customerNumber);
  const dataOf = (customerNumber: string): TabData | undefined => rows[indexOf(customerNumber)]?.data;
  const selectionOf = (customerNumber: string) => selections[customerNumber] ?? NO_SELECTION;
  const approved = tabs.filter((_, i) => !blocked[i]);
  /** The approved tabs with their rows and selections, as the save plan reads them. */
  const planTabs: PlanTab[] = approved.map((t) => ({
    ...t,
    data: dataOf(t.customerNumber) ?? NO_DATA,
    selection: selectionOf(t.customerNumber),
  }));

  /** The first of these customers the user may only view (unknown info counts as view-only; the server decides). */
  const viewOnlyAmong = (customerNumbers: string[]) =>
    customerNumbers.find((c) => {
      const info: AccountInfo | undefined =
        infos[indexOf(c)]?.data?.info ?? (c === cn ? (customer.info ?? undefined) : undefined);
      return !info || permissionsFor(roles, info).viewOnly;
    });

  return {
    tabs,
    active,
    setActive,
    blocked,
    rows,
    dataOf,
    selectionOf,
    planTabs,
    loaded: approved.every((t) => !!dataOf(t.customerNumber)),
    /** A blocked tab's rows are never an error: it shows the notice (spec 002 §4 "empty lists"). */
    loadFailed: rows.some((q, i) => q.isError && !blocked[i]),
    /** Clear error and retry: fetch again every tab whose info or rows failed, even one disabled since. */
    retry: () => Promise.all([...infos, ...rows].filter((q) => q.isError).map((q) => q.refetch())),
    viewOnlyAmong,
    select: (customerNumber: string, next: TabSelection) =>
      setSelections((old) => ({ ...old, [customerNumber]: next })),
    resetSelections: () => setSelections({}),
    /** The host's customers become the tabs, the top-bar customer first. */
    reset: (others: TabCustomer[] = []) => {
      setTabs([first, ...others.filter((o) => o.customerNumber !== cn)]);
      setActive(cn);
    },
    add: (t: TabCustomer) => {
      setTabs((old) => (old.some((o) => o.customerNumber === t.customerNumber) ? old : [...old, t]));
      setActive(t.customerNumber);
    },
    close: (customerNumber: string) => {
      if (tabs.length < 2) return;
      setTabs((old) => old.filter((t) => t.customerNumber !== customerNumber));
      setActive((old) =>
        old === customerNumber
          ? (tabs.find((t) => t.customerNumber !== customerNumber)?.customerNumber ?? null)
          : old,
      );
    },
  };
}

export type CustomerTabsState = ReturnType<typeof useCustomerTabs>;
