import type { UsageRow } from '@lp/contract/transactions/schemas';
import { type DateRange, formatDate } from '@lp/domain/dates';
import Papa from 'papaparse';

export interface CsvColumn {
  field: keyof UsageRow;
  title: string;
}

/** Spec 001 §9: ElasticLicensingUsageTransactions_{customer}_{from}_{to}.csv with dates YYYY-MM-DD. */
export const usageCsvFileName = (customerNumber: string, period: DateRange) =>
  `ElasticLicensingUsageTransactions_${customerNumber}_${formatDate(period.from)}_${formatDate(period.to)}.csv`;

/**
 * The visible columns in grid order, titled as in the grid. papaparse quotes what needs quoting (commas,
 * quotes, line breaks) and, since user and host names come from license servers, defuses text that a
 * spreadsheet would run as a formula (a leading = + - @ gets a quote; numbers are left alone).
 */
export function usageCsv(columns: readonly CsvColumn[], rows: readonly UsageRow[]): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => c.title),
      data: rows.map((row) => columns.map((c) => row[c.field] ?? '')),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
}
