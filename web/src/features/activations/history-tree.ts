import type { HistoryRow } from '@lp/contract/activations/schemas';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { AUTOMATED_ACTION } from '@lp/domain/entitlements';

/**
 * The /activations-history tree (spec 002 §2, decision 033) as flat grid rows: AG Grid Community has no tree data,
 * so each host is a row followed, when expanded, by its grouped history rows (or one status row while they load,
 * when there are none, or when the fetch failed). Column filters and sorts apply to history rows only; host and
 * status rows always stay, and `treeOrder` puts every history row back under its host after a sort.
 */

export type HostSection = 'active' | 'inactive';

/** What is known of one host's history. */
export type HostHistory =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; rows: HistoryRow[] };

export interface HostGridRow {
  kind: 'host';
  id: string;
  hostKey: string;
  /** The host's place in the section (name, id, type order): host rows never move */
  order: number;
  host: LicenseServer;
  expanded: boolean;
}
export interface HistoryGridRow {
  kind: 'history';
  id: string;
  hostKey: string;
  row: HistoryRow;
}
export interface StatusGridRow {
  kind: 'status';
  id: string;
  hostKey: string;
  text: string;
  loading: boolean;
}
export type TreeRow = HostGridRow | HistoryGridRow | StatusGridRow;

export const LOADING_TEXT = 'Loading...';
export const NO_HISTORY_TEXT = 'No activation history for this host.';

/** One key per host: its ids and their types (what every host call names it by). */
export const hostKeyOf = (host: Pick<LicenseServer, 'serverId' | 'serverIdType'>) =>
  `${host.serverId}|${host.serverIdType}`;

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Spec 002 §4: hosts in the history page are sorted by name, then id, then type. */
export const compareHostsByName = (a: LicenseServer, b: LicenseServer) =>
  compareText(a.name, b.name) ||
  compareText(a.serverId, b.serverId) ||
  compareText(a.serverIdType, b.serverIdType);

/**
 * Which section a host belongs to (decision 033): Active hosts under Active Servers; Inactive and Unknown (a host
 * added but never activated on: nothing to view, download or deactivate, only to delete) under Inactive Servers.
 */
export const sectionOf = (host: LicenseServer): HostSection =>
  host.state === 'Active' ? 'active' : 'inactive';

/** The section's hosts in the page's order. */
export const hostsOfSection = (hosts: readonly LicenseServer[], section: HostSection) =>
  hosts.filter((h) => sectionOf(h) === section).sort(compareHostsByName);

/** Spec 002 §3: the state is shown in lower case in the history page. */
export const stateText = (host: LicenseServer) => host.state.toLowerCase();

/** Spec 002 §4 "Activation history grouping": an empty modified-by is an automated action. */
export const modifiedByText = (modifiedBy: string) =>
  modifiedBy.trim() === '' ? AUTOMATED_ACTION : modifiedBy;

/**
 * Spec 002 §2 "Dates are shown as yyyy-MM-dd H:mm": the server's 'YYYY-MM-DD HH:mm:ss' (UTC, like every date in
 * the portal: decision 033) without seconds and without the hour's leading zero. Anything else is shown as it is.
 */
export function historyTimeText(time: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})/.exec(time);
  return m ? `${m[1]} ${Number(m[2])}:${m[3]}` : time;
}

/**
 * The grid rows of one section: each host, and under each expanded host its history rows (newest group first, as
 * the server answers) or one status row.
 */
export function flattenTree(
  hosts: readonly LicenseServer[],
  expanded: ReadonlySet<string>,
  history: ReadonlyMap<string, HostHistory>,
): TreeRow[] {
  const rows: TreeRow[] = [];
  hosts.forEach((host, order) => {
    const hostKey = hostKeyOf(host);
    const isOpen = expanded.has(hostKey);
    rows.push({ kind: 'host', id: `host:${hostKey}`, hostKey, order, host, expanded: isOpen });
    if (!isOpen) return;
    const known = history.get(hostKey) ?? { status: 'loading' };
    if (known.status === 'ready' && known.rows.length > 0) {
      known.rows.forEach((row, index) => {
        rows.push({ kind: 'history', id: `row:${hostKey}:${index}`, hostKey, row });
      });
      return;
    }
    const text =
      known.status === 'loading' ? LOADING_TEXT : known.status === 'error' ? known.message : NO_HISTORY_TEXT;
    rows.push({
      kind: 'status',
      id: `status:${hostKey}`,
      hostKey,
      text,
      loading: known.status === 'loading',
    });
  });
  return rows;
}

/**
 * Puts rows back in tree order after the grid sorted or filtered them: hosts in their own order, each followed by
 * its status row and then its history rows in the order they came (the column sort's order). Rows whose host is
 * not in the list are dropped.
 */
export function treeOrder<T>(items: readonly T[], rowOf: (item: T) => TreeRow | undefined): T[] {
  const hosts: { item: T; row: HostGridRow }[] = [];
  const children = new Map<string, T[]>();
  for (const item of items) {
    const row = rowOf(item);
    if (!row) continue;
    if (row.kind === 'host') {
      hosts.push({ item, row });
      continue;
    }
    const list = children.get(row.hostKey) ?? [];
    if (row.kind === 'status') list.unshift(item);
    else list.push(item);
    children.set(row.hostKey, list);
  }
  hosts.sort((a, b) => a.row.order - b.row.order);
  return hosts.flatMap(({ item, row }) => [item, ...(children.get(row.hostKey) ?? [])]);
}

/** Spec 002 §9: the page pre-fetches the history of at most 5 hosts per section. */
export const PREFETCH_HOSTS = 5;

/** The hosts whose history is wanted: the first few of the section and every expanded one. */
export function wantedHosts(hosts: readonly LicenseServer[], expanded: ReadonlySet<string>): LicenseServer[] {
  return hosts.filter((h, index) => index < PREFETCH_HOSTS || expanded.has(hostKeyOf(h)));
}

/** Splits a list in pieces of at most `size`, in order. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
