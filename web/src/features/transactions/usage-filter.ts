import type { TablePref } from '@lp/contract/prefs/schemas';
import type { Criterion, FilterRule } from '@lp/contract/query/schemas';
import { parseDatePrefix } from '@lp/domain/date-prefix';
import {
  type DateRange,
  DEFAULT_TRANSACTION_PRESET,
  dayRange,
  formatDateTime,
  formatInstant,
  presetRange,
  type TransactionDatePreset,
  transactionDatePresets,
  wholeDays,
} from '@lp/domain/dates';

/**
 * The transactions table's own rules (spec 001 §2.3, §4, §5): its period, the Active Sessions toggle and
 * the column filters, turned into the generic filter rule of spec 000 §3.
 */

/** A named range, or custom whole days 'YYYY-MM-DD'. */
export type UsagePeriod =
  | { kind: 'preset'; preset: TransactionDatePreset }
  | { kind: 'custom'; from: string; to: string };

export const DEFAULT_PERIOD: UsagePeriod = { kind: 'preset', preset: DEFAULT_TRANSACTION_PRESET };

export const isDefaultPeriod = (p: UsagePeriod) =>
  p.kind === 'preset' && p.preset === DEFAULT_TRANSACTION_PRESET;

/** The instants a period covers: from 00:00:00.000 of its first day to 23:59:59.999 of its last (UTC). */
export function periodBounds(period: UsagePeriod, now: Date = new Date()): DateRange {
  if (period.kind === 'preset') return wholeDays(presetRange(period.preset, now));
  const from = dayRange(period.from);
  const to = dayRange(period.to);
  if (!from || !to) return wholeDays(presetRange(DEFAULT_TRANSACTION_PRESET, now));
  return { from: from.from, to: to.to };
}

/**
 * Bounds as the filter sends them: 'YYYY-MM-DD HH:mm:ss' and 'YYYY-MM-DD HH:mm:ss.SSS' compare as text in
 * the same order as the rows' 'YYYY-MM-DD HH:mm:ss', so the data service can also narrow in memory.
 */
const boundsValue = (r: DateRange): [string, string] => [formatDateTime(r.from), formatInstant(r.to)];

/** Spec 001 §3 saved preference: a preset name, or start and end dates for a custom period. */
export function periodFromPref(pref: TablePref | undefined): UsagePeriod {
  if (pref?.startDate && pref.endDate) {
    const from = pref.startDate.slice(0, 10);
    const to = pref.endDate.slice(0, 10);
    if (dayRange(from) && dayRange(to) && from <= to) return { kind: 'custom', from, to };
  }
  const named = transactionDatePresets.find((p) => p === pref?.dateRange);
  return named ? { kind: 'preset', preset: named } : DEFAULT_PERIOD;
}

/** What the table saves beside the grid view; nothing while period and toggle are at their defaults. */
export function periodPref(period: UsagePeriod, activeOnly: boolean): Partial<TablePref> {
  const range: Partial<TablePref> = isDefaultPeriod(period)
    ? {}
    : period.kind === 'preset'
      ? { dateRange: period.preset }
      : { startDate: period.from, endDate: period.to };
  return activeOnly ? { ...range, activeOnly: true } : range;
}

/** Column filter models of this table (saved as they are in the view's filterModel). */
export type TextFilterModel = { filterType: 'text'; type: 'contains' | 'equals'; filter: string };
export type NumberFilterModel = { filterType: 'number'; type: 'equals'; filter: number | null };
/** Typed date (spec 001 §5) and/or From/To 'YYYY-MM-DD HH:mm:ss'. */
export type DateFilterModel = { filterType: 'dateRange'; text?: string; from?: string; to?: string };
/** The multi-select filter dialog's choice. */
export type ValuesFilterModel = { filterType: 'values'; values: (string | number)[] };
export type UsageFilterModel = TextFilterModel | NumberFilterModel | DateFilterModel | ValuesFilterModel;

/** 'YYYY-MM-DDTHH:mm(:ss)' of a datetime-local input as the filter's 'YYYY-MM-DD HH:mm:ss'. */
export function fromLocalInput(value: string): string | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?$/.exec(value);
  return m ? `${m[1]} ${m[2]}${m[3] ?? ':00'}` : undefined;
}

function dateCriteria(name: string, m: DateFilterModel): Criterion[] {
  const criteria: Criterion[] = [];
  const text = m.text?.trim();
  if (text) {
    const parsed = parseDatePrefix(text);
    criteria.push(
      parsed.kind === 'range'
        ? { name, method: 'DATERANGE', value: boundsValue(parsed.range) }
        : // Not a date prefix: passed through unchanged, as a match on the displayed text.
          { name, method: 'CONTAINS', value: parsed.text, tostring: true, casefold: true },
    );
  }
  // The inputs are whole seconds: From starts at .000, To ends at .999 of its second.
  if (m.from) criteria.push({ name, method: '>=', value: m.from });
  if (m.to) criteria.push({ name, method: '<=', value: `${m.to}.999` });
  return criteria;
}

function columnCriteria(name: string, m: UsageFilterModel): Criterion[] {
  switch (m.filterType) {
    case 'text':
      if (!m.filter) return [];
      return [{ name, method: m.type === 'equals' ? 'EQUALS' : 'CONTAINS', value: m.filter, casefold: true }];
    case 'number':
      // Spec 001 §5: numbers filter by exact equality; an unparsable value is dropped.
      return typeof m.filter === 'number' && Number.isFinite(m.filter)
        ? [{ name, method: 'EQUALS', value: m.filter }]
        : [];
    case 'dateRange':
      return dateCriteria(name, m);
    case 'values':
      return [{ name, method: 'ARRAY_CONTAINS', value: m.values }];
  }
}

/** The table's criteria: its period on StartTime, Active sessions only when toggled. */
export function tableCriteria(bounds: DateRange, activeOnly: boolean): Criterion[] {
  const period: Criterion = { name: 'StartTime', method: 'DATERANGE', value: boundsValue(bounds) };
  return activeOnly ? [period, { name: 'Active', method: 'EQUALS', value: true }] : [period];
}

/** Column filters (keyed by column id = field name) ANDed with the table criteria. */
export function usageFilterRule(
  model: Record<string, unknown> | null | undefined,
  extra: Criterion[],
  disabled: ReadonlySet<string> = new Set(),
): FilterRule {
  const criteria = [...extra];
  for (const [name, m] of Object.entries(model ?? {})) {
    if (!disabled.has(name)) criteria.push(...columnCriteria(name, m as UsageFilterModel));
  }
  return { condition: 'ALL', criteria };
}

/** Columns whose filter the Active Sessions toggle disables (spec 001 §2.3). */
export const ACTIVE_DISABLED_FILTERS: ReadonlySet<string> = new Set(['Hours', 'EndTime']);
