import { activationsApi } from '@lp/contract/activations/api';
import type { ActivationRow, HistoryRow } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import { licenseFilesApi } from '@lp/contract/license-files/api';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { licenseFileName } from '@lp/domain/license-file';
import { type QueryClient, type UseQueryResult, useQueries, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { call } from '../../../lib/call.ts';
import { saveTextFile } from '../../../lib/save-file.ts';
import { callMultipart } from '../../../lib/upload.ts';
import type { HostHistoryRows } from '../history-csv.ts';
import { chunked, type HostHistory, hostKeyOf, wantedHosts } from '../history-tree.ts';
import { activationKeys, hostCustomers, hostOverride, serversQuery } from './activations.ts';

/** The calls of /activations-history (spec 002 §7 "history page calls" and "Exports"; decision 033). */

const root = (customerNumber: string) => ['activations-history', customerNumber] as const;
export const historyKeys = {
  /** Everything the page holds for the account (refreshed after a write and on clear-and-retry, dropped on leaving). */
  all: root,
  history: (customerNumber: string, hostKey: string) =>
    [...root(customerNumber), 'history', hostKey] as const,
  entitlements: (customerNumber: string, hostKey: string) =>
    [...root(customerNumber), 'entitlements', hostKey] as const,
};

/**
 * After a write: the hosts (their states changed) and every history the page shows, and what /activations holds
 * (the same hosts list and their rows), so neither page shows the host as it was.
 */
export const refreshHistoryPage = (queryClient: QueryClient, customerNumber: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: activationKeys.all }),
    queryClient.invalidateQueries({ queryKey: historyKeys.all(customerNumber) }),
  ]);

/**
 * POST /api/fulfillments/servers: the account's hosts, the same cached list /activations uses; fetched again
 * each time the page opens (a save on /activations changes host states).
 */
export const useHosts = (customerNumber: string) =>
  useQuery({ ...serversQuery(customerNumber), refetchOnMount: 'always' });

const hostIdOf = (host: LicenseServer) => ({ hostId: host.serverId, hostIdType: host.serverIdType });
const sameHost = (answer: { hostId: string; hostIdType: string }, host: LicenseServer) =>
  answer.hostId.toLowerCase() === host.serverId.toLowerCase() &&
  answer.hostIdType.toUpperCase() === host.serverIdType.toUpperCase();

/** The rows the answer holds for each host, in the hosts' order; a host the answer leaves out has none. */
const rowsPerHost = (
  hosts: readonly LicenseServer[],
  data: { hostId: string; hostIdType: string; rows: HistoryRow[] }[],
): { host: LicenseServer; rows: HistoryRow[] }[] =>
  hosts.map((host) => ({ host, rows: data.find((d) => sameHost(d, host))?.rows ?? [] }));

/** Spec 002 §9: the history page fetches the history of at most 5 hosts in one call (its batches of 5). */
export const HISTORY_BATCH = 5;

/**
 * POST /api/fulfillments/history, batched: hosts asked for within the same task (the section's pre-fetch, or
 * several expanded at once) go out together, at most HISTORY_BATCH per call; each caller gets its host's rows.
 */
export function createHistoryLoader(customerNumber: string, batch = HISTORY_BATCH) {
  type Pending = { host: LicenseServer; resolve: (rows: HistoryRow[]) => void; reject: (e: unknown) => void };
  let queue: Pending[] = [];
  const run = async (part: Pending[]) => {
    try {
      const answer = await call(activationsApi.history, {
        customerNumber,
        hostIds: part.map((p) => hostIdOf(p.host)),
      });
      const rows = rowsPerHost(
        part.map((p) => p.host),
        answer.data,
      );
      part.forEach((p, i) => {
        p.resolve(rows[i].rows);
      });
    } catch (e) {
      for (const p of part) p.reject(e);
    }
  };
  const flush = () => {
    const pending = queue;
    queue = [];
    for (const part of chunked(pending, batch)) void run(part);
  };
  return (host: LicenseServer) =>
    new Promise<HistoryRow[]>((resolve, reject) => {
      // The queries of one render start one after the other in the same task: the next task sends them.
      if (queue.length === 0) setTimeout(flush, 0);
      queue.push({ host, resolve, reject });
    });
}

const toHostHistory = (result: UseQueryResult<HistoryRow[]>): HostHistory =>
  result.isSuccess
    ? { status: 'ready', rows: result.data }
    : result.isError
      ? { status: 'error', message: messages.errorHistory }
      : { status: 'loading' };

/**
 * The history of a section's hosts that the page needs: the first five (pre-fetched, spec 002 §9) and every
 * expanded one (fetched lazily when expanded). Each host's rows are cached on their own, so collapsing and
 * expanding again does not fetch again.
 */
export function useSectionHistory(
  customerNumber: string,
  hosts: readonly LicenseServer[],
  expanded: ReadonlySet<string>,
) {
  const load = useMemo(() => createHistoryLoader(customerNumber), [customerNumber]);
  const wanted = wantedHosts(hosts, expanded);
  const keys = wanted.map(hostKeyOf).join('\n');
  const combine = useCallback(
    (results: UseQueryResult<HistoryRow[]>[]) => {
      const list = keys ? keys.split('\n') : [];
      const history = new Map<string, HostHistory>(list.map((key, i) => [key, toHostHistory(results[i])]));
      return { history, failed: results.some((r) => r.isError) };
    },
    [keys],
  );
  return useQueries({
    queries: wanted.map((host) => ({
      queryKey: historyKeys.history(customerNumber, hostKeyOf(host)),
      queryFn: () => load(host),
      staleTime: Number.POSITIVE_INFINITY,
    })),
    combine,
  });
}

/** Spec 002 §9: the export asks for 10 hosts per fetch round. */
export const EXPORT_ROUND = 10;

/** POST /api/fulfillments/servers/export: every history row of these hosts, in rounds of 10 hosts. */
export async function fetchExportHistory(
  customerNumber: string,
  hosts: readonly LicenseServer[],
): Promise<HostHistoryRows[]> {
  const out: HostHistoryRows[] = [];
  for (const part of chunked(hosts, EXPORT_ROUND)) {
    const answer = await call(activationsApi.exportHistory, { customerNumber, hostIds: part.map(hostIdOf) });
    out.push(...rowsPerHost(part, answer.data));
  }
  return out;
}

/** POST /api/fulfillments/entitlements: the account's entitlements activated on the host. */
export const fetchHostEntitlements = async (
  customerNumber: string,
  host: LicenseServer,
): Promise<ActivationRow[]> =>
  (
    await call(activationsApi.hostEntitlements, {
      customerNumber,
      serverId: host.serverId,
      serverIdType: host.serverIdType,
    })
  ).data;

/** One account's lines on a host, as the view dialog lists them. */
interface AccountLines {
  account: { AccountID: string; AccountName: string };
  rows: ActivationRow[];
}

/**
 * The view dialog's lines (decision 049): on a shared host those of every account on it the user may see (the
 * accounts /api/fulfillments/customers names, each read through its own account gate), the current account first,
 * and how many other accounts share the host unseen. Always fetched again when the dialog opens (another page may
 * have changed them).
 */
export function useHostEntitlements(customerNumber: string, host: LicenseServer | null) {
  return useQuery({
    queryKey: historyKeys.entitlements(customerNumber, host ? hostKeyOf(host) : ''),
    queryFn: async (): Promise<{ accounts: AccountLines[]; hidden: number }> => {
      const h = host!;
      if (!h.shared) {
        const rows = await fetchHostEntitlements(customerNumber, h);
        return { accounts: [{ account: { AccountID: customerNumber, AccountName: '' }, rows }], hidden: 0 };
      }
      const [visible, override] = await Promise.all([
        hostCustomers(customerNumber, h),
        hostOverride(customerNumber, h),
      ]);
      const ordered = [
        ...visible.filter((a) => a.AccountID === customerNumber),
        ...visible.filter((a) => a.AccountID !== customerNumber),
      ];
      const rows = await Promise.all(ordered.map((a) => fetchHostEntitlements(a.AccountID, h)));
      return {
        accounts: ordered.map((account, i) => ({ account, rows: rows[i] })),
        hidden: override.otherCustomers,
      };
    },
    enabled: host !== null,
    staleTime: 0,
  });
}

/**
 * Download license file: the host's merged file (POST /api/fulfillments/download, named
 * license_{customerNumber}_{serverId}.lic like the server names it) and, for a shared host, its `_shared.lic`
 * files (POST /api/fulfillments/license).
 */
export async function downloadLicenseFiles(customerNumber: string, host: LicenseServer): Promise<void> {
  const ids = { customerNumber, serverId: host.serverId, serverIdType: host.serverIdType };
  const merged = await call(licenseFilesApi.download, ids);
  const shared = host.shared ? (await call(licenseFilesApi.license, ids)).shared : [];
  saveTextFile(merged, licenseFileName(customerNumber, host.serverId), 'text/plain');
  for (const file of shared) saveTextFile(file.text, file.fileName, 'text/plain');
}

/** POST /api/license-files/verify (multipart): every feature line of the file checked against the published keys. */
export const verifyLicenseFile = async (file: File) =>
  (await callMultipart(licenseFilesApi.verify, {}, { file })).data;
