import type { AccountInfo } from '@lp/contract/accounts/schemas';
import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { customerDisplay } from '@lp/domain/customer-text';
import { isExportBlocked, permissionsFor } from '@lp/domain/policy';
import { Alert, Button, Checkbox, Group, Loader, Select, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { type SelectedCustomer, useCustomer } from '../../../app/customer-context.tsx';
import { hideSpinner, showSpinner, showSuccess } from '../../../components/panels.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { getAccountInfo, getAccounts } from '../../accounts/api/accounts.ts';
import {
  activationKeys,
  type HostChoice,
  hostCustomers,
  hostOverride,
  serversQuery,
  tabQuery,
} from '../api/activations.ts';
import { newPlanKey, StepError, shownMessage } from '../api/fulfillment-steps.ts';
import { runSavePlan } from '../api/run-save-plan.ts';
import { AddHostDialog, type NewHost } from '../components/add-host-dialog.tsx';
import { AssociatedAccounts } from '../components/associated-accounts.tsx';
import { ChangesDialog } from '../components/changes-dialog.tsx';
import { EntitlementTables } from '../components/entitlement-tables.tsx';
import { HostActivationsDialog } from '../components/host-activations-dialog.tsx';
import { buildPlan, previewRequests, type SavePlan } from '../save-plan.ts';
import {
  assignedRows,
  hasErrors,
  hasSaveChanges,
  isDirty,
  type TabData,
  type TabSelection,
} from '../selection.ts';

/**
 * /activations, Activate Entitlements (spec 002 §2, §4, §6): pick a host (or add one), choose per customer tab
 * what to return and what to activate, confirm, and the save flow runs on the server's calls. Opened with
 * `?serverId={ids}` it selects that host; with `&action=rehost` as well it opens the add-server dialog in rehost
 * mode for it (decision 033). Not allowed (no activations right): the root.
 */
export default function ActivationsPage() {
  const { customer, version } = useCustomer();
  const { roles } = useCurrentUser();
  if (!customer) return null;
  if (customer.info && !permissionsFor(roles, customer.info).activationsAllowed)
    return <Navigate to="/" replace />;
  // A new top-bar customer starts the screen afresh (spec 002 §4: servers reset and reload).
  return <ActivationsScreen key={`${customer.customerNumber}-${version}`} customer={customer} />;
}

interface TabCustomer {
  customerNumber: string;
  customerName: string;
}

/** A host being added or rehosted to: used at once, saved by the first create (spec 002 §4). */
interface PendingHost {
  kind: 'new' | 'rehost';
  host: NewHost;
  /** Rehost: the host the seats leave */
  source?: LicenseServer;
}

const savedChoice = (s: LicenseServer): HostChoice => ({
  serverName: s.serverName,
  serverId: s.serverId,
  serverIdType: s.serverIdType,
  saved: s,
});

const hostLabel = (h: { serverName: string; serverId: string }) => `${h.serverName} (${h.serverId})`;

function ActivationsScreen({ customer }: { customer: SelectedCustomer }) {
  const cn = customer.customerNumber;
  const { roles } = useCurrentUser();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const servers = useQuery(serversQuery(cn));
  const [hostId, setHostId] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingHost | null>(null);
  const [dialog, setDialog] = useState<{ mode: 'new' | 'rehost'; source?: LicenseServer } | null>(null);
  const [viewing, setViewing] = useState(false);
  const [tabs, setTabs] = useState<TabCustomer[]>([
    { customerNumber: cn, customerName: customer.customerName },
  ]);
  const [activeTab, setActiveTab] = useState<string | null>(cn);
  const [selections, setSelections] = useState<Record<string, TabSelection>>({});
  const [borrowable, setBorrowable] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failedPlan, setFailedPlan] = useState<{ plan: SavePlan; email: boolean } | null>(null);
  const [confirming, setConfirming] = useState<{ plan: SavePlan; email: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [sharedWarning, setSharedWarning] = useState<string | null>(null);

  const serverList = servers.data ?? [];
  const saved = serverList.find((s) => s.serverId === hostId) ?? null;
  // The rows come from the saved host; in a rehost from its source, whose seats move.
  const dataHost: HostChoice | null = pending
    ? pending.source
      ? savedChoice(pending.source)
      : { ...pending.host, saved: null }
    : saved
      ? savedChoice(saved)
      : null;
  const target: HostChoice | null = pending ? { ...pending.host, saved: null } : dataHost;

  const infos = useQueries({
    queries: tabs.map((t) => ({
      queryKey: ['activations', 'info', t.customerNumber],
      queryFn: () => getAccountInfo(t.customerNumber),
      staleTime: 60_000,
    })),
  });
  const blockedOf = (index: number) => {
    const q = infos[index];
    if (q?.error instanceof ApiError && q.error.err === messages.exportDenied) return true;
    return !!q?.data && isExportBlocked(q.data.info.exportControlStatus);
  };
  const approved = tabs.filter((_, i) => !blockedOf(i));
  const tabData = useQueries({
    queries: tabs.map((t, i) => ({
      ...tabQuery(t.customerNumber, dataHost),
      enabled: !!dataHost && !blockedOf(i),
    })),
  });
  const dataOf = (customerNumber: string): TabData | undefined =>
    tabData[tabs.findIndex((t) => t.customerNumber === customerNumber)]?.data;
  const selectionOf = (customerNumber: string): TabSelection =>
    selections[customerNumber] ?? { assigned: {}, available: {} };
  const loadFailed = tabData.find((q) => q.isError);

  // Spec 002 §9 "Fetch errors after retries".
  const fetchError = servers.isError
    ? messages.unableFetchServers
    : loadFailed
      ? dataHost?.saved
        ? messages.unableFetchServerEntitlements(dataHost.serverId)
        : messages.unableFetchAvailable
      : null;
  const banner = error ?? fetchError;

  // Opened with ?serverId= (and action=rehost): select the host, or start its rehost.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current || !servers.data) return;
    opened.current = true;
    const wanted = params.get('serverId')?.toLowerCase();
    const host = wanted ? servers.data.find((s) => s.serverId === wanted) : undefined;
    if (!host) return;
    void chooseHost(host).then(() => {
      if (params.get('action') === 'rehost') void openDialog('rehost', host);
    });
    setParams({}, { replace: true });
  });

  const viewOnlyCustomer = useCallback(
    (customerNumbers: string[]) =>
      customerNumbers.find((c) => {
        const info: AccountInfo | undefined =
          infos[tabs.findIndex((t) => t.customerNumber === c)]?.data?.info ??
          (c === cn ? (customer.info ?? undefined) : undefined);
        return !info || permissionsFor(roles, info).viewOnly;
      }),
    [infos, tabs, cn, customer.info, roles],
  );

  async function chooseHost(host: LicenseServer | null) {
    setPending(null);
    setSelections({});
    setError(null);
    setFailedPlan(null);
    setSharedWarning(null);
    setHostId(host?.serverId ?? null);
    setBorrowable(host?.ansysborrowable ?? false);
    if (!host) {
      setTabs([{ customerNumber: cn, customerName: customer.customerName }]);
      setActiveTab(cn);
      return;
    }
    try {
      const [others, override] = await Promise.all([hostCustomers(cn, host), hostOverride(cn, host)]);
      const rest = others
        .filter((a) => a.AccountID !== cn)
        .map((a) => ({ customerNumber: a.AccountID, customerName: a.AccountName }));
      setTabs([{ customerNumber: cn, customerName: customer.customerName }, ...rest]);
      setActiveTab(cn);
      if (override.otherCustomers > 0)
        setSharedWarning(
          `Other customer numbers share this server: ${override.otherCustomers} account(s) you cannot see also use it. Their products stay on it.`,
        );
    } catch {
      setError(messages.unableFetchHostCustomers);
    }
  }

  async function openDialog(mode: 'new' | 'rehost', source?: LicenseServer) {
    if (viewOnlyCustomer([cn])) return showViewOnlyNotice(cn);
    setDialog({ mode, source });
  }

  function onHostSaved(host: NewHost) {
    const source = dialog?.mode === 'rehost' ? dialog.source : undefined;
    setDialog(null);
    setSelections({});
    setPending({ kind: source ? 'rehost' : 'new', host, source });
    if (source) setBorrowable(source.ansysborrowable);
  }

  const approvedTabs = approved.map((t) => ({
    ...t,
    data: dataOf(t.customerNumber) ?? { assigned: [], available: [] },
    selection: selectionOf(t.customerNumber),
  }));
  const loaded = approved.every((t) => !!dataOf(t.customerNumber));
  const anyErrors = approvedTabs.some((t) => hasErrors(t.data, t.selection));
  const anyChanges = !!pending?.source || approvedTabs.some((t) => hasSaveChanges(t.data, t.selection));
  const anyAssigned = approvedTabs.some((t) => assignedRows(t.data).some((r) => r.ansysactivated > 0));
  const dirty = !!pending || approvedTabs.some((t) => isDirty(t.data, t.selection));
  const canRun =
    !!target &&
    loaded &&
    !banner &&
    !busy &&
    !anyErrors &&
    (anyChanges || (!!dataHost?.saved && anyAssigned));
  const supportEmail = customer.info?.supportEmail.trim() ?? '';

  function planFor(email: boolean) {
    if (!target) return null;
    const plan = buildPlan({
      key: newPlanKey(),
      time: new Date().toISOString(),
      mode: pending?.source ? 'rehost' : 'default',
      target: {
        serverName: target.serverName,
        serverId: target.serverId,
        serverIdType: target.serverIdType,
        type: pending ? pending.kind : '',
        prevServer: pending?.source
          ? { serverId: pending.source.serverId, serverIdType: pending.source.serverIdType }
          : undefined,
      },
      source: pending?.source ? pending.source : saved,
      sourceShared: !!(pending?.source ?? saved)?.shared,
      tabs: approvedTabs,
    });
    return { plan, email };
  }

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: activationKeys.all });
  }

  async function run(job: { plan: SavePlan; email: boolean }) {
    const { plan } = job;
    setBusy(true);
    showSpinner(`processing 0/${plan.total} fulfillments`);
    try {
      const file = await runSavePlan(plan, {
        borrowable,
        email: job.email,
        onProgress: (done) => showSpinner(`processing ${done}/${plan.total} fulfillments`),
        refresh,
      });
      // The host the seats are on now (a new or rehost target is saved by now), with its tabs afresh.
      const fresh = await queryClient.fetchQuery(serversQuery(cn));
      const host = fresh.find((s) => s.serverId === plan.target.serverId) ?? null;
      await chooseHost(host);
      showSuccess(
        file
          ? `License file ${file.fileName} was generated${job.email ? ` and sent to ${supportEmail}` : ''}.`
          : `No products are activated on Host ID: ${hostLabel(plan.target)} any more.`,
      );
    } catch (e) {
      setFailedPlan(job);
      setError(e instanceof StepError ? e.message : shownMessage(messages.errorCreating, e));
    } finally {
      hideSpinner();
      setBusy(false);
    }
  }

  async function onGenerate(email: boolean) {
    const job = planFor(email);
    if (!job) return;
    if (job.plan.total === 0) return run(job);
    const viewOnly = viewOnlyCustomer(job.plan.customers.map((c) => c.customerNumber));
    if (viewOnly) return showViewOnlyNotice(viewOnly);
    setConfirming(job);
  }

  async function clearAndRetry() {
    setError(null);
    await refresh();
    if (failedPlan) await run(failedPlan);
  }

  function onCancel() {
    if (pending) {
      // Spec 002 §4: Cancel on a new or rehost server drops it and returns to the previous one.
      setPending(null);
      setSelections({});
      return;
    }
    setSelections({});
  }

  const save = anyChanges ? 'Save & ' : '';
  const pendingLabel = pending ? `New License Server: ${hostLabel(pending.host)}` : null;
  const serverOptions = useMemo(
    () => serverList.map((s) => ({ value: s.serverId, label: `${s.name} (${s.hostIdentifier}) ${s.state}` })),
    [serverList],
  );

  return (
    <Stack data-testid="activations-page">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Activate Entitlements
          </Title>
          <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
        </div>
        <Group>
          <Button variant="default" disabled={!dirty || busy} onClick={onCancel}>
            Cancel
          </Button>
          <Button disabled={!canRun} onClick={() => void onGenerate(false)}>
            {save}Generate
          </Button>
          <Button disabled={!canRun || !supportEmail} onClick={() => void onGenerate(true)}>
            {save}Email
          </Button>
        </Group>
      </Group>
      {banner ? (
        <Alert color="red" title="Error" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{banner}</Text>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() =>
                void (error ? clearAndRetry() : queryClient.refetchQueries({ queryKey: activationKeys.all }))
              }
            >
              Clear error and retry
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <Group align="flex-end">
        {pendingLabel ? (
          <Text fw={600} data-testid="pending-host">
            {pendingLabel}
            {pending?.source ? ` (rehost of ${hostLabel(pending.source)})` : ''}
          </Text>
        ) : (
          <Select
            label="Server"
            placeholder={servers.isPending ? 'Loading servers...' : 'Select a server'}
            searchable
            clearable
            nothingFoundMessage="No Server Found"
            data={serverOptions}
            value={hostId}
            disabled={busy}
            onChange={(value) => void chooseHost(serverList.find((s) => s.serverId === value) ?? null)}
            w={420}
            rightSection={servers.isPending ? <Loader size="xs" /> : undefined}
          />
        )}
        <Checkbox
          label="Borrowable"
          checked={borrowable}
          disabled={busy || !target}
          onChange={(e) => setBorrowable(e.currentTarget.checked)}
        />
        <Button variant="light" disabled={busy || !!pending} onClick={() => void openDialog('new')}>
          Add server
        </Button>
        {saved && !pending ? (
          <>
            <Button variant="light" disabled={busy} onClick={() => setViewing(true)}>
              View activations
            </Button>
            <Button variant="light" disabled={busy} onClick={() => void openDialog('rehost', saved)}>
              Rehost
            </Button>
          </>
        ) : null}
        <AssociatedAccountsWhenSeveral
          exclude={tabs.map((t) => t.customerNumber)}
          disabled={busy || !target}
          onPick={(a) => {
            setTabs((old) => [...old, { customerNumber: a.AccountID, customerName: a.AccountName }]);
            setActiveTab(a.AccountID);
          }}
        />
      </Group>
      {sharedWarning ? <Alert color="yellow">{sharedWarning}</Alert> : null}
      {target ? (
        <Tabs value={activeTab} onChange={setActiveTab} keepMounted={false}>
          <Tabs.List>
            {tabs.map((t) => (
              <Tabs.Tab
                key={t.customerNumber}
                value={t.customerNumber}
                rightSection={
                  // A tab may hold no second button (nested controls); keyboard and screen-reader users close
                  // a tab with the panel's 'Close tab' button, the pointer with this mark.
                  tabs.length > 1 ? (
                    <Text
                      component="span"
                      aria-hidden
                      c="gray.7"
                      onClick={(e) => {
                        e.stopPropagation();
                        closeTab(t.customerNumber);
                      }}
                    >
                      ×
                    </Text>
                  ) : null
                }
              >
                {t.customerNumber}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((t, i) => (
            <Tabs.Panel key={t.customerNumber} value={t.customerNumber} pt="md">
              {tabs.length > 1 ? (
                <Group justify="flex-end">
                  <Button
                    size="xs"
                    variant="subtle"
                    disabled={busy}
                    onClick={() => closeTab(t.customerNumber)}
                  >
                    Close tab {t.customerNumber}
                  </Button>
                </Group>
              ) : null}
              {blockedOf(i) ? (
                <Alert color="red">{messages.exportDenied}</Alert>
              ) : dataOf(t.customerNumber) ? (
                <EntitlementTables
                  customerNumber={t.customerNumber}
                  data={dataOf(t.customerNumber) as TabData}
                  selection={selectionOf(t.customerNumber)}
                  onSelectionChange={(next) => setSelections((old) => ({ ...old, [t.customerNumber]: next }))}
                  disabled={busy}
                />
              ) : tabData[i]?.isError ? null : (
                <Group gap="xs">
                  <Loader size="sm" />
                  <Text size="sm">Loading entitlements...</Text>
                </Group>
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : (
        <Text>Select a server, or add one, to activate entitlements on it.</Text>
      )}
      {dialog ? (
        <AddHostDialog
          opened
          mode={dialog.mode}
          customerNumber={cn}
          hosts={serverList}
          source={dialog.source}
          onCancel={() => setDialog(null)}
          onSave={onHostSaved}
        />
      ) : null}
      {confirming ? (
        <ChangesDialog
          opened
          mode={confirming.plan.mode}
          hostLabel={
            confirming.plan.source ? hostLabel(confirming.plan.source) : hostLabel(confirming.plan.target)
          }
          targetLabel={hostLabel(confirming.plan.target)}
          customers={confirming.plan.customers}
          sharedWarning={
            confirming.plan.group.length > 1
              ? `Customer numbers ${confirming.plan.group.join(', ')} share this server: its license file lists the products of all of them.`
              : sharedWarning
          }
          preview={previewRequests(confirming.plan)}
          onCancel={() => setConfirming(null)}
          onOk={() => {
            const job = confirming;
            setConfirming(null);
            void run(job);
          }}
        />
      ) : null}
      <HostActivationsDialog
        customerNumber={cn}
        host={viewing ? saved : null}
        onClose={() => setViewing(false)}
      />
    </Stack>
  );

  function closeTab(customerNumber: string) {
    setTabs((old) => (old.length > 1 ? old.filter((t) => t.customerNumber !== customerNumber) : old));
    setActiveTab((old) =>
      old === customerNumber
        ? (tabs.find((t) => t.customerNumber !== customerNumber)?.customerNumber ?? null)
        : old,
    );
  }
}

/** Spec 002 §2: the Associated Accounts search only when the user has more than one account (/api/accounts, limit 2). */
function AssociatedAccountsWhenSeveral(props: Parameters<typeof AssociatedAccounts>[0]) {
  const several = useQuery({
    queryKey: ['activations', 'several-accounts'],
    queryFn: async () => (await getAccounts({ limit: 2 })).length > 1,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return several.data ? <AssociatedAccounts {...props} /> : null;
}
