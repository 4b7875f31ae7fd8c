import type { TablePref } from '@lp/contract/prefs/schemas';
import type { StatementRecord } from '@lp/contract/statements/schemas';
import {
  type DayRange,
  DEFAULT_STATEMENT_PRESET,
  parseDay,
  presetDays,
  type StatementDatePreset,
  statementDatePresets,
} from '@lp/domain/dates';
import type { ExtraPref } from '../../components/saved-view-grid/use-saved-view.ts';

/** The statement's range: a named preset, or custom days (spec 001 §3 saved preference: dateRange or start/end). */
export type StatementRange = { preset: StatementDatePreset } | { from: string; to: string };

export const DEFAULT_RANGE: StatementRange = { preset: DEFAULT_STATEMENT_PRESET };

export const isDefaultRange = (r: StatementRange) => 'preset' in r && r.preset === DEFAULT_STATEMENT_PRESET;

export const rangeDays = (r: StatementRange, now: Date = new Date()): DayRange =>
  'preset' in r ? presetDays(r.preset, now) : { from: r.from, to: r.to };

export const rangeLabel = (r: StatementRange) => ('preset' in r ? r.preset : `${r.from} – ${r.to}`);

/**
 * Spec 001 §4 customer change: saved custom dates win, else the saved named range, else Last month. Saved
 * dates may carry a time ('YYYY-MM-DD HH:mm'); the statement works on their days.
 */
export function rangeFromPref(pref: TablePref | undefined): StatementRange {
  const from = pref?.startDate?.slice(0, 10);
  const to = pref?.endDate?.slice(0, 10);
  if (from && to && parseDay(from) && parseDay(to) && from <= to) return { from, to };
  const preset = statementDatePresets.find((p) => p === pref?.dateRange);
  return preset ? { preset } : DEFAULT_RANGE;
}

/** What the saved view keeps of the range; nothing while it is the default, so a reset view stays empty. */
export function rangePref(r: StatementRange): ExtraPref {
  if (isDefaultRange(r)) return {};
  return 'preset' in r ? { dateRange: r.preset } : { startDate: r.from, endDate: r.to };
}

/** A row of the purchase-order grid: a record, or the full-width detail row shown under an expanded record. */
export type PoRow = StatementRecord & { rowId: string; expanded?: boolean; detailOf?: string };

/** Rows get ids from their position in the answer (activation ids are unique per statement, the Overage row too). */
export const recordRowId = (r: StatementRecord) => `po:${r.ActivationId}`;

/**
 * The grid's rows: every record, each expanded one followed by its detail row. A detail row carries its
 * parent's fields, so column filters keep or drop the two together.
 */
export function poRows(records: readonly StatementRecord[], expanded: ReadonlySet<string>): PoRow[] {
  return records.flatMap((r): PoRow[] => {
    const rowId = recordRowId(r);
    if (!expanded.has(rowId)) return [{ ...r, rowId, expanded: false }];
    return [
      { ...r, rowId, expanded: true },
      { ...r, rowId: `${rowId}:detail`, detailOf: rowId },
    ];
  });
}

/** After any sort, puts each detail row right under its parent (AG Grid Community has no master/detail). */
export function keepDetailsUnderParents<T extends { data?: PoRow }>(nodes: T[]): T[] {
  const details = new Map<string, T>();
  for (const n of nodes) if (n.data?.detailOf) details.set(n.data.detailOf, n);
  const ordered: T[] = [];
  for (const n of nodes) {
    if (n.data?.detailOf) continue;
    ordered.push(n);
    const detail = n.data && details.get(n.data.rowId);
    if (detail) ordered.push(detail);
  }
  return ordered;
}
