import type { Criterion, FilterRule, SortRule } from '@lp/contract/query/schemas';
import type { GridFilterModel } from './view-rules.ts';

/**
 * Translates AG Grid's filter and sort models into the generic filter and sort rules of spec 000 §3,
 * so every server-side table speaks the same query language. Columns are ANDed; a column with two
 * conditions joined by OR is only expressible when it is the only filtered column.
 */
export class UnsupportedFilterError extends Error {}

type Simple = Record<string, unknown>;

const textMethods: Record<string, Pick<Criterion, 'method' | 'not'>> = {
  contains: { method: 'CONTAINS' },
  notContains: { method: 'CONTAINS', not: true },
  equals: { method: 'EQUALS' },
  notEqual: { method: 'EQUALS', not: true },
  startsWith: { method: 'STARTSWITH' },
  endsWith: { method: 'ENDSWITH' },
};
const numberMethods: Record<string, Criterion['method']> = {
  equals: 'EQUALS',
  notEqual: 'NOT EQUAL',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  lessThan: '<',
  lessThanOrEqual: '<=',
};

const day = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : null);

function conditionToCriterion(name: string, m: Simple): Criterion {
  const type = String(m.type ?? '');
  if (type === 'blank') return { name, method: 'ISDEFINED', not: true };
  if (type === 'notBlank') return { name, method: 'ISDEFINED' };
  switch (m.filterType) {
    case 'text': {
      const t = textMethods[type];
      if (!t || typeof m.filter !== 'string') break;
      return { name, ...t, value: m.filter, casefold: true };
    }
    case 'number': {
      if (typeof m.filter !== 'number') break;
      if (type === 'inRange' && typeof m.filterTo === 'number')
        return { name, method: 'INRANGE', value: [m.filter, m.filterTo] };
      const method = numberMethods[type];
      if (method) return { name, method, value: m.filter };
      break;
    }
    case 'date': {
      const from = day(m.dateFrom);
      if (!from) break;
      if (type === 'equals') return { name, method: 'DAYRANGE', value: [from, from] };
      if (type === 'notEqual') return { name, method: 'DAYRANGE', value: [from, from], not: true };
      if (type === 'greaterThan') return { name, method: 'AFTERDAY', value: from };
      if (type === 'lessThan') return { name, method: 'BEFOREDAY', value: from };
      const to = day(m.dateTo);
      if (type === 'inRange' && to) return { name, method: 'DAYRANGE', value: [from, to] };
      break;
    }
  }
  throw new UnsupportedFilterError(`unsupported filter on column ${name}`);
}

/**
 * `fieldOf` maps a column id to the server field name (defaults to the column id).
 * `extra` criteria (e.g. a table's date range) are ANDed with the column filters.
 */
export function filterModelToRule(
  model: GridFilterModel | null | undefined,
  options: { fieldOf?: (colId: string) => string; extra?: Criterion[] } = {},
): FilterRule | undefined {
  const fieldOf = options.fieldOf ?? ((id: string) => id);
  const entries = Object.entries(model ?? {});
  const criteria: Criterion[] = [...(options.extra ?? [])];
  for (const [colId, m] of entries) {
    const name = fieldOf(colId);
    const conditions = Array.isArray(m.conditions) ? (m.conditions as Simple[]) : null;
    if (!conditions) {
      criteria.push(conditionToCriterion(name, m));
      continue;
    }
    if (m.operator === 'OR') {
      if (entries.length > 1 || criteria.length > 0)
        throw new UnsupportedFilterError(`OR filter on ${colId} cannot combine with other filters`);
      return { condition: 'ANY', criteria: conditions.map((c) => conditionToCriterion(name, c)) };
    }
    for (const c of conditions) criteria.push(conditionToCriterion(name, c));
  }
  return criteria.length > 0 ? { condition: 'ALL', criteria } : undefined;
}

export function sortModelToRules(
  sortModel: ReadonlyArray<{ colId: string; sort: 'asc' | 'desc' }> | null | undefined,
  fieldOf: (colId: string) => string = (id) => id,
): SortRule[] {
  return (sortModel ?? []).map((s) => ({ name: fieldOf(s.colId), direction: s.sort }));
}
