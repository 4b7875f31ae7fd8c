import type { HistoryRow } from '@lp/contract/activations/schemas';
import type { LicenseServer } from '@lp/contract/license-servers/schemas';
import { endText } from '@lp/domain/lease-entitlements';
import Papa from 'papaparse';
import { EXPORT_FILE_PREFIX } from '../../lib/export-file-prefix.ts';
import { type HostSection, modifiedByText } from './history-tree.ts';

/** Spec 002 §7: ANSYSActiveServers_{customer}.csv or ANSYSInactiveServers_{customer}.csv. */
export const historyCsvFileName = (section: HostSection, customerNumber: string) =>
  `${EXPORT_FILE_PREFIX}${section === 'active' ? 'Active' : 'Inactive'}Servers_${customerNumber}.csv`;

/** Spec 002 §7, verbatim. */
export const HISTORY_CSV_HEADER = [
  'Hostname (hostid)',
  'Time',
  'Modified by',
  'Action',
  'Product',
  'Entitlement',
  'Count',
  'Start Date',
  'End Date',
] as const;

export interface HostHistoryRows {
  host: LicenseServer;
  rows: readonly HistoryRow[];
}

/**
 * One line per grouped history row of every host, hosts in the page's order and rows as the server answers them
 * (newest group first). Hostname (hostid) is the host's display name ('licsrv01 (MAC_ADDRESS=…)'); Time is the
 * server's 'YYYY-MM-DD HH:mm:ss' UTC, the spec's date-time format, to the second (decision 033); Count is the
 * signed sum (negative for returned seats). papaparse quotes commas, quotes and line breaks, and defuses text a
 * spreadsheet would run as a formula (host names and modified-by come from users).
 */
export function historyCsv(hosts: readonly HostHistoryRows[]): string {
  const data = hosts.flatMap(({ host, rows }) =>
    rows.map((r) => [
      host.displayName,
      r.time,
      modifiedByText(r.modifiedBy),
      r.action,
      r.product,
      r.activationId,
      r.count,
      r.startDate,
      endText(r.endDate, r.versionDate),
    ]),
  );
  // As rows of one array, so a section without history is the header line alone (no trailing line break).
  return Papa.unparse([[...HISTORY_CSV_HEADER], ...data], { escapeFormulae: true, newline: '\r\n' });
}
