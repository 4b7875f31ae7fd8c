import type { AuditRow } from '@lp/contract/audit/schemas';
import Papa from 'papaparse';

/** AuditLog_{customer or AllAccounts}_{YYYY-MM-DD}.csv */
export const auditCsvFileName = (customerNumber: string | null, day: string) =>
  `AuditLog_${customerNumber ?? 'AllAccounts'}_${day}.csv`;

const json = (fields: Record<string, unknown> | null) => (fields ? JSON.stringify(fields) : '');

/**
 * One line per entry, the changed fields as JSON. papaparse quotes what needs quoting and defuses text a
 * spreadsheet would run as a formula (actors and object ids come from users).
 */
export function auditCsv(rows: readonly AuditRow[], withAccount: boolean): string {
  const columns: [string, (r: AuditRow) => string][] = [
    ['Time (UTC)', (r) => r.time],
    ...(withAccount
      ? [['Account', (r: AuditRow) => r.account ?? ''] as [string, (r: AuditRow) => string]]
      : []),
    ['Actor', (r) => r.actor],
    ['Actor type', (r) => r.actorKind],
    ['Action', (r) => r.action],
    ['Object type', (r) => r.objectType],
    ['Object', (r) => r.objectId],
    ['Before', (r) => json(r.before)],
    ['After', (r) => json(r.after)],
    ['Request id', (r) => r.requestId ?? ''],
    ['Client address', (r) => r.clientIp ?? ''],
  ];
  return Papa.unparse(
    { fields: columns.map(([title]) => title), data: rows.map((r) => columns.map(([, value]) => value(r))) },
    { escapeFormulae: true, newline: '\r\n' },
  );
}
