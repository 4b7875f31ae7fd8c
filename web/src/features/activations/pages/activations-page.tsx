import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { customerDisplay } from '@lp/domain/customer-text';
import { permissionsFor } from '@lp/domain/policy';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { type SelectedCustomer, useCustomer } from '../../../app/customer-context.tsx';
import { clearPanels, hideSpinner, showSpinner, showSuccess } from '../../../components/panels.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { newOperationKey } from '../../../lib/operation-key.ts';
import {
  activationKeys,
  type HostChoice,
  hostCustomers,
  hostOverride,
  serversQuery,
} from '../api/activations.ts';
import { StepError, shownMessage } from '../api/fulfillment-steps.ts';
import { AddHostDialog, type NewHost } from '../components/add-host-dialog.tsx';
import { ChangesDialog } from '../components/changes-dialog.tsx';
import { CustomerTabs } from '../components/customer-tabs.tsx';
import { HostActivationsDialog } from '../components/host-activations-dialog.tsx';
import { OrderedEntitlements } from '../components/ordered-entitlements.tsx';
import { ServerBar } from '../components/server-bar.tsx';
import { runSavePlan } from '../run-save-plan.ts';
import { buildPlan, previewRequests } from '../save-plan.ts';
import { initialScreen, type SaveJob, screenReducer } from '../screen-state.ts';
import { assignedRows, hasErrors, hasSaveChanges, isDirty } from '../selection.ts';
import { useCustomerTabs } from '../use-customer-tabs.ts';

/**
 * /activations, Activate Entitlements (spec 002 §2, §4, §6): pick a host (or add one), choose per customer tab
 * what to return and what to activate, confirm, and the save flow runs on the server's calls. Opened with
 * `?serverId={ids}` it selects that host; with `&action=rehost` as well it opens the add-server dialog in rehost
 * mode for it (decision 034). Not allowed (no activations right): the root.
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

const savedChoice = (s: LicenseServer): HostChoice => ({
  serverName: s.serverName,
  serverId: s.serverId,
  serverIdType: s.serverIdType,
  saved: s,
});

const hostLabel = (h: { serverName: string; serverId: string }) => `${h.serverName} (${h.serverId})`;

function ActivationsScreen({ customer }: { customer: SelectedCustomer }) {
  const cn = customer.customerNumber;
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const servers = useQuery(serversQuery(cn));
  const [state, dispatch] = useReducer(screenReducer, initialScreen);
  const { phase, hostId, pending, borrowable, sharedWarning, dialog } = state;
  const busy = phase.kind === 'running';
  const failedJob = phase.kind === 'failed' ? phase.job : null;
  const error = phase.kind === 'failed' ? phase.message : state.hostError;
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

  const tabs = useCustomerTabs(customer, dataHost);

  // Spec 002 §9 "Fetch errors after retries".
  const fetchError = servers.isError
    ? messages.unableFetchServers
    : tabs.loadFailed
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

  async function chooseHost(host: LicenseServer | null) {
    tabs.resetSelections();
    dispatch({ type: 'hostChosen', host });
    if (!host) return tabs.reset();
    try {
      const [others, override] = await Promise.all([hostCustomers(cn, host), hostOverride(cn, host)]);
      tabs.reset(others.map((a) => ({ customerNumber: a.AccountID, customerName: a.AccountName })));
      if (override.otherCustomers > 0)
        dispatch({
          type: 'hostShared',
          warning: `Other customer numbers share this server: ${override.otherCustomers} account(s) you cannot see also use it. Their products stay on it.`,
        });
    } catch {
      dispatch({ type: 'hostAccountsFailed', message: messages.unableFetchHostCustomers });
    }
  }

  async function openDialog(mode: 'new' | 'rehost', source?: LicenseServer) {
    if (tabs.viewOnlyAmong([cn])) return showViewOnlyNotice(cn);
    dispatch({ type: 'dialogOpened', mode, source });
  }

  function onHostSaved(host: NewHost) {
    clearPanels();
    tabs.resetSelections();
    dispatch({ type: 'hostAdded', host });
  }

  const approvedTabs = tabs.planTabs;
  const loaded = tabs.loaded;
  const anyErrors = approvedTabs.some((t) => hasErrors(t.data, t.selection));
  // Borrowable goes into the host's file: changing it on a saved host is a change to save (decision 048).
  const borrowableChanged = !pending && !!saved && borrowable !== saved.ansysborrowable;
  const anyChanges =
    !!pending?.source || borrowableChanged || approvedTabs.some((t) => hasSaveChanges(t.data, t.selection));
  const anyAssigned = approvedTabs.some((t) => assignedRows(t.data).some((r) => r.ansysactivated > 0));
  const dirty = !!pending || borrowableChanged || approvedTabs.some((t) => isDirty(t.data, t.selection));
  const canRun =
    !!target &&
    loaded &&
    !banner &&
    !busy &&
    !anyErrors &&
    (anyChanges || (!!dataHost?.saved && anyAssigned));
  const supportEmail = customer.info?.supportEmail.trim() ?? '';

  function planFor(email: boolean): SaveJob | null {
    if (!target) return null;
    const plan = buildPlan({
      key: newOperationKey(),
      mode: pending?.source ? 'rehost' : 'default',
      target: {
        serverName: target.serverName,
        serverId: target.serverId,
        serverIdType: target.serverIdType,
        type: pending ? pending.kind : '',
        portNumber: pending?.host.portNumber,
        prevServer: pending?.source
          ? { serverId: pending.source.serverId, serverIdType: pending.source.serverIdType }
          : undefined,
      },
      // The host seats are returned from: the saved host itself, a rehost's source; none for a new host.
      source: pending ? (pending.source ?? null) : saved,
      sourceShared: !!(pending ? pending.source : saved)?.shared,
      tabs: approvedTabs,
      borrowable,
      savedBorrowable: pending ? null : (saved?.ansysborrowable ?? null),
    });
    return { plan, email };
  }

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: activationKeys.all });
  }

  async function run(job: SaveJob) {
    const { plan } = job;
    dispatch({ type: 'run', job });
    // The last save's message gives way to this one's.
    clearPanels();
    showSpinner(`processing 0/${plan.total} fulfillments`);
    try {
      const file = await runSavePlan(plan, {
        email: job.email,
        onProgress: (done, step) =>
          showSpinner(`${step ? `${step} ` : ''}processing ${done}/${plan.total} fulfillments`),
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
      dispatch({ type: 'runSucceeded' });
    } catch (e) {
      dispatch({
        type: 'runFailed',
        message: e instanceof StepError ? e.message : shownMessage(messages.errorCreating, e),
      });
    } finally {
      hideSpinner();
    }
  }

  async function onGenerate(email: boolean) {
    const job = planFor(email);
    if (!job) return;
    if (job.plan.total === 0 && !job.plan.borrowableChanged) return run(job);
    const viewOnly = tabs.viewOnlyAmong(job.plan.customers.map((c) => c.customerNumber));
    if (viewOnly) return showViewOnlyNotice(viewOnly);
    dispatch({ type: 'confirm', job });
  }

  async function clearAndRetry() {
    const job = failedJob;
    dispatch({ type: 'retry' });
    await refresh();
    if (job) await run(job);
    // The other error is the host's customers that did not load: ask for them again.
    else if (saved) await chooseHost(saved);
  }

  /** Fetch errors: ask again for what failed (a disabled query is not refetched by the query client). */
  async function retryFetch() {
    await Promise.all([servers.isError ? servers.refetch() : null, tabs.retry()]);
  }

  function onCancel() {
    dispatch({ type: 'cancelled', savedBorrowable: saved?.ansysborrowable ?? false });
    tabs.resetSelections();
  }

  const save = anyChanges ? 'Save & ' : '';
  const pendingLabel = pending
    ? `New License Server: ${hostLabel(pending.host)}${pending.source ? ` (rehost of ${hostLabel(pending.source)})` : ''}`
    : null;

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
          <Button
            disabled={!canRun || !supportEmail}
            aria-describedby={supportEmail ? undefined : 'no-support-email'}
            onClick={() => void onGenerate(true)}
          >
            {save}Email
          </Button>
        </Group>
      </Group>
      {supportEmail ? null : (
        // Why Email stays off, in the words the server refuses it with (decision 048).
        <Text id="no-support-email" size="sm" ta="right">
          {messages.noSupportEmail}
        </Text>
      )}
      <OrderedEntitlements customerNumber={cn} />
      {anyErrors ? (
        <Text size="sm" c="red.9" ta="right">
          Correct the activated counts marked below to save.
        </Text>
      ) : null}
      {banner ? (
        <Alert color="red" title="Error" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{banner}</Text>
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => void (error ? clearAndRetry() : retryFetch())}
            >
              Clear error and retry
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <ServerBar
        servers={serverList}
        loading={servers.isPending}
        value={hostId}
        pendingLabel={pendingLabel}
        busy={busy}
        hasHost={!!target}
        borrowable={borrowable}
        tabCustomers={tabs.tabs.map((t) => t.customerNumber)}
        onChoose={(host) => {
          // The last save's message is about the host left behind (issue 21).
          clearPanels();
          void chooseHost(host);
        }}
        onBorrowable={(value) => dispatch({ type: 'borrowableSet', value })}
        onAdd={() => void openDialog('new')}
        onView={() => dispatch({ type: 'viewingSet', value: true })}
        onRehost={() => saved && void openDialog('rehost', saved)}
        onAssociate={(a) => tabs.add({ customerNumber: a.AccountID, customerName: a.AccountName })}
      />
      {sharedWarning ? <Alert color="yellow">{sharedWarning}</Alert> : null}
      {target ? (
        <CustomerTabs state={tabs} busy={busy} />
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
          onCancel={() => dispatch({ type: 'dialogClosed' })}
          onSave={onHostSaved}
        />
      ) : null}
      {phase.kind === 'confirming' ? (
        <ChangesDialog
          opened
          mode={phase.job.plan.mode}
          hostLabel={hostLabel(phase.job.plan.source ?? phase.job.plan.target)}
          targetLabel={hostLabel(phase.job.plan.target)}
          customers={phase.job.plan.customers}
          sharedWarning={
            phase.job.plan.group.length > 1
              ? `Customer numbers ${phase.job.plan.group.join(', ')} share this server: its license file lists the products of all of them.`
              : sharedWarning
          }
          hostChange={
            phase.job.plan.borrowableChanged
              ? `Borrowable will be turned ${phase.job.plan.borrowable ? 'on' : 'off'} for Host ID: ${hostLabel(phase.job.plan.target)}.`
              : null
          }
          preview={previewRequests(phase.job.plan)}
          onCancel={() => dispatch({ type: 'confirmCancelled' })}
          onOk={() => void run(phase.job)}
        />
      ) : null}
      <HostActivationsDialog
        customerNumber={cn}
        host={state.viewing ? saved : null}
        onClose={() => dispatch({ type: 'viewingSet', value: false })}
      />
    </Stack>
  );
}
