import type { ActivationRow } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { customerDisplay } from '@lp/domain/customer-text';
import { permissionsFor } from '@lp/domain/policy';
import { Accordion, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { type SelectedCustomer, useCustomer } from '../../../app/customer-context.tsx';
import { useViewOnly } from '../../../app/use-view-only.ts';
import { hideSpinner, showSpinner, showSuccess } from '../../../components/panels.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { showViewOnlyNotice } from '../../../components/view-only-dialog.tsx';
import { useCurrentUser } from '../../../lib/app-context.tsx';
import { newOperationKey } from '../../../lib/operation-key.ts';
import { useStagedMount } from '../../../lib/use-staged-mount.ts';
import {
  deactivateSharedGroup,
  removeHost,
  returnFulfillments,
  StepError,
  shownMessage,
} from '../api/fulfillment-steps.ts';
import {
  downloadLicenseFiles,
  fetchHostEntitlements,
  historyKeys,
  refreshHistoryPage,
  useHosts,
} from '../api/history.ts';
import { ChangesDialog } from '../components/changes-dialog.tsx';
import { HistoryErrorBanner } from '../components/history-error-banner.tsx';
import type { HostActions } from '../components/history-grid.tsx';
import { HistorySection } from '../components/history-section.tsx';
import { HostActivationsDialog } from '../components/host-activations-dialog.tsx';
import { VerifyLicenseDialog } from '../components/verify-license-dialog.tsx';
import { type HostSection, hostsOfSection } from '../history-tree.ts';

/** Spec 002 §2 "Activations history": the page's spinner texts. */
export const historySpinners = {
  loading: 'Getting Activations History...',
  returning: 'Returning fulfillments...',
  deactivating: 'Deactivating...',
  downloading: 'Downloading license file...',
  removing: 'Removing host...',
} as const;
const READING_HOST = 'Loading...';

const newPlan = () => ({ planKey: newOperationKey() });

const sections: { section: HostSection; title: string }[] = [
  { section: 'active', title: 'Active Servers' },
  { section: 'inactive', title: 'Inactive Servers' },
];

/**
 * A change of a host to confirm: deactivate (return everything, empty its shared group) or delete. The plan key is
 * fixed when the dialog opens: clear-and-retry runs a failed plan again with the same operation keys, so the server
 * replays the batches it saved and does only the rest (decision 029); each request carries the time it is sent,
 * which the key does not cover (decision 063).
 */
type HostChange = ({ mode: 'deactivate'; rows: ActivationRow[] } | { mode: 'delete' }) & {
  host: LicenseServer;
  planKey: string;
};

/** Every live seat of the account on the host, as returns (negative counts). */
const returnsOf = (rows: ActivationRow[]) =>
  rows.flatMap((r) =>
    r.fulfillments
      .filter((f) => f.FulfillCount > 0)
      .map((f) => ({ id: f.FulfillmentID, count: -f.FulfillCount })),
  );

/** The preview call takes at most 500 returns; beyond that the dialog shows the lines without the file changes. */
const PREVIEW_MAX = 500;

/**
 * /activations-history, Manage Activations (spec 002 §2, §4 "Host lifecycle", §7, §8; decision 033): the account's
 * hosts in two collapsible sections, Active Servers and Inactive Servers, each a tree grid of hosts and their
 * grouped activation history with CSV export and saved views; per host view, download, rehost, deactivate or
 * delete; and Verify a license file. Not allowed (no activations right): the root, like /activations.
 */
export default function ActivationsHistoryPage() {
  const { customer, version } = useCustomer();
  const { roles } = useCurrentUser();
  if (!customer) return null;
  if (customer.info && !permissionsFor(roles, customer.info).activationsAllowed)
    return <Navigate to="/" replace />;
  // A new top-bar customer starts the page afresh: its expanded hosts and dialogs belong to the old one.
  return <HistoryScreen key={`${customer.customerNumber}-${version}`} customer={customer} />;
}

function HistoryScreen({ customer }: { customer: SelectedCustomer }) {
  const cn = customer.customerNumber;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewOnly = useViewOnly();
  const hosts = useHosts(cn);
  // Active Servers, then Inactive Servers, each grid in a task of its own once the hosts are in.
  const mounted = useStagedMount(hosts.data ? sections.length : 1);
  const [error, setError] = useState<string | null>(null);
  const [viewing, setViewing] = useState<LicenseServer | null>(null);
  const [change, setChange] = useState<HostChange | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [failedPlan, setFailedPlan] = useState<HostChange | null>(null);

  // Leaving the page drops its history: the next visit shows what /activations may have changed since.
  useEffect(() => () => queryClient.removeQueries({ queryKey: historyKeys.all(cn) }), [queryClient, cn]);
  useEffect(() => () => hideSpinner(), []);

  const fetchError = hosts.isError ? messages.unableFetchServers : null;
  const banner = error ?? fetchError;
  const run = useCallback(
    async (plan: HostChange, work: () => Promise<void>) => {
      try {
        await work();
        const host = `${plan.host.serverName} (${plan.host.serverId})`;
        showSuccess(
          plan.mode === 'delete'
            ? `Host ${host} was removed.`
            : `Host ${host} was deactivated: its products were returned.`,
        );
      } catch (e) {
        setFailedPlan(plan);
        setError(e instanceof StepError ? e.message : shownMessage(messages.errorReturning, e));
      } finally {
        hideSpinner();
        await refreshHistoryPage(queryClient, cn);
      }
    },
    [queryClient, cn],
  );

  const actions = useMemo<Omit<HostActions, 'toggle'>>(
    () => ({
      view: setViewing,
      download: async (host) => {
        showSpinner(historySpinners.downloading);
        try {
          await downloadLicenseFiles(cn, host);
        } catch (e) {
          setError(shownMessage(messages.errorLicenseFile, e));
        } finally {
          hideSpinner();
        }
      },
      rehost: (host) => {
        if (viewOnly) return void showViewOnlyNotice(cn);
        // /activations runs the rehost: it selects the host and opens the add-server dialog in rehost mode.
        navigate(`/activations?${new URLSearchParams({ serverId: host.serverId, action: 'rehost' })}`);
      },
      deactivate: async (host) => {
        if (viewOnly) return void showViewOnlyNotice(cn);
        showSpinner(READING_HOST);
        try {
          const rows = await fetchHostEntitlements(cn, host);
          setChange({ mode: 'deactivate', host, rows, ...newPlan() });
        } catch {
          setError(messages.unableFetchServerEntitlements(host.serverId));
        } finally {
          hideSpinner();
        }
      },
      remove: (host) => {
        if (viewOnly) return void showViewOnlyNotice(cn);
        setChange({ mode: 'delete', host, ...newPlan() });
      },
    }),
    [cn, viewOnly, navigate],
  );

  const confirm = (plan: HostChange) => {
    setChange(null);
    const ref = { customerNumber: cn, hostId: plan.host.serverId, hostIdType: plan.host.serverIdType };
    if (plan.mode === 'delete')
      return run(plan, async () => {
        showSpinner(historySpinners.removing);
        await removeHost(ref, plan.planKey);
      });
    return run(plan, async () => {
      showSpinner(historySpinners.returning);
      await returnFulfillments({
        customerNumber: cn,
        customerName: customer.customerName,
        items: returnsOf(plan.rows),
        lifecycle: 'deactivate',
        planKey: plan.planKey,
      });
      showSpinner(historySpinners.deactivating);
      await deactivateSharedGroup(ref, plan.planKey);
    });
  };

  /** Spec 002 §8: clearing the error runs a failed deactivate or delete again; otherwise it reloads the data. */
  const clearAndRetry = () => {
    setError(null);
    setFailedPlan(null);
    if (failedPlan) void confirm(failedPlan);
    else void refreshHistoryPage(queryClient, cn);
  };

  const bySection = useMemo(
    () => ({
      active: hostsOfSection(hosts.data ?? [], 'active'),
      inactive: hostsOfSection(hosts.data ?? [], 'inactive'),
    }),
    [hosts.data],
  );
  const changeReturns = change?.mode === 'deactivate' ? returnsOf(change.rows) : [];

  return (
    <Stack data-testid="activations-history-page">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Manage Activations
        </Title>
        <Button variant="default" onClick={() => setVerifying(true)}>
          Verify a license file
        </Button>
      </Group>
      <Text data-testid="selected-customer">{customerDisplay(customer)}</Text>
      {banner ? <HistoryErrorBanner message={banner} onRetry={clearAndRetry} /> : null}
      {hosts.isPending ? (
        <Spinner text={historySpinners.loading} />
      ) : hosts.isError ? null : (
        <Accordion multiple defaultValue={['active', 'inactive']} variant="separated" order={2}>
          {sections.slice(0, mounted).map(({ section, title }) => (
            <Accordion.Item key={section} value={section}>
              <Accordion.Control>{title}</Accordion.Control>
              <Accordion.Panel>
                <HistorySection
                  customerNumber={cn}
                  section={section}
                  title={title}
                  hosts={bySection[section]}
                  actions={actions}
                  onError={setError}
                />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      <HostActivationsDialog customerNumber={cn} host={viewing} onClose={() => setViewing(null)} />
      {change ? (
        <ChangesDialog
          opened
          mode={change.mode}
          hostLabel={change.host.displayName}
          customers={[
            {
              customerNumber: cn,
              customerName: customer.customerName,
              deactivate:
                change.mode === 'deactivate'
                  ? change.rows.map((row) => ({ row, count: row.ansysactivated }))
                  : [],
              activate: [],
            },
          ]}
          sharedWarning={
            change.host.shared
              ? 'Other customer numbers share this license server: only the products of this account change.'
              : null
          }
          preview={
            change.mode === 'deactivate' && changeReturns.length > 0 && changeReturns.length <= PREVIEW_MAX
              ? [
                  {
                    customerNumber: cn,
                    serverId: change.host.serverId,
                    serverIdType: change.host.serverIdType,
                    customers: [{ customerNumber: cn, returns: changeReturns, creates: [] }],
                  },
                ]
              : null
          }
          onCancel={() => setChange(null)}
          onOk={() => void confirm(change)}
        />
      ) : null}
      <VerifyLicenseDialog opened={verifying} onClose={() => setVerifying(false)} />
    </Stack>
  );
}
