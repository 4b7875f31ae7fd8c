import type { WebTransactionRow } from '@lp/contract/web-sessions/schemas';
import Papa from 'papaparse';

export interface CsvColumn {
  field: keyof WebTransactionRow;
  title: string;
}

/** WebTransactions_{customer}_{YYYY-MM-DD}.csv */
export const webTransactionsCsvFileName = (customerNumber: string, day: string) =>
  `WebTransactions_${customerNumber}_${day}.csv`;

/**
 * The shown columns in grid order, titled as in the grid. papaparse quotes what needs quoting and defuses text a
 * spreadsheet would run as a formula (e-mails and clients come from products and people: a leading = + - @).
 */
export function webTransactionsCsv(
  columns: readonly CsvColumn[],
  rows: readonly WebTransactionRow[],
): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => c.title),
      data: rows.map((row) => columns.map((c) => row[c.field] ?? '')),
    },
    { escapeFormulae: true, newline: '\r\n' },
  );
}
