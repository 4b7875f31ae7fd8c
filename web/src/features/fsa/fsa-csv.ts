import type { FsaHistoryRow } from '@lp/contract/fsa/schemas';
import { formatMoney } from '@lp/domain/fsa-pricing';
import Papa from 'papaparse';
import { EXPORT_FILE_PREFIX } from '../../lib/export-file-prefix.ts';

/** Spec 002 §7 "Exports": ANSYSOrderHistory_{date}_{customerNumber}.csv, the date as YYYY-MM-DD. */
export const fsaHistoryCsvFileName = (date: string, customerNumber: string) =>
  `${EXPORT_FILE_PREFIX}OrderHistory_${date}_${customerNumber}.csv`;

/** The History grid's column titles (spec 002 §2 "FSA order history screen"), the export's header row. */
export const FSA_HISTORY_COLUMNS = [
  'Entitlement',
  'FSA Contract',
  'Order Date',
  'Count',
  'Start Date',
  'Expiration Date',
  'Cost',
  'Currency',
  'Requester',
] as const;

/** The Entitlement column's one-line text: the product, then the entitlement id in parentheses. */
export const fsaEntitlementText = (row: FsaHistoryRow) => `${row.ansysproduct} (${row.entitlementId})`;

/**
 * One line per order line, in the order given (the grid's rows after its filter and sort). Cost as the page shows
 * it (2 decimals, thousands separators), so costs of 1,000 or more are quoted. papaparse quotes commas, quotes and
 * line breaks and defuses text a spreadsheet would run as a formula (product names and requesters come from users).
 */
export function fsaHistoryCsv(rows: readonly FsaHistoryRow[]): string {
  const data = rows.map((r) => [
    fsaEntitlementText(r),
    r.fsaId,
    r.orderdate,
    r.count,
    r.startdate,
    r.enddate ?? '',
    formatMoney(r.cost),
    r.currency,
    r.requester,
  ]);
  // As rows of one array, so an empty history is the header line alone.
  return Papa.unparse([[...FSA_HISTORY_COLUMNS], ...data], { escapeFormulae: true, newline: '\r\n' });
}
