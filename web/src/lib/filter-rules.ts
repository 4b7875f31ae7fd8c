import type { Criterion, FilterRule } from '@lp/contract/query/schemas';
import {
  type FilterColumnKind,
  type FilterColumns,
  FilterRuleError,
  filterPredicate,
  foldCase,
  type RowPredicate,
} from '@lp/domain/filter-rules';

/**
 * Spec 000 §4.8 narrowing: whether a new filter only narrows the one whose rows are cached, and the
 * in-memory answer for it. Rows are judged by @lp/domain/filter-rules, the evaluator the engine's property
 * test holds to the server's SQL; nothing here evaluates a criterion.
 */
export type Row = Record<string, unknown>;

const isEmptyRule = (rule: FilterRule | null | undefined) => !rule || rule.criteria.length === 0;
const isAll = (rule: FilterRule) => String(rule.condition ?? 'ALL').toUpperCase() === 'ALL';

type Scalar = string | number | boolean | null;
const pair = (value: Criterion['value']): [Scalar, Scalar] | null =>
  Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : null;

const sameShape = (a: Criterion, b: Criterion) =>
  a.name === b.name && !!a.not === !!b.not && !!a.tostring === !!b.tostring;

/** One text per criterion; equal texts select the same rows. */
const criterionKey = (c: Criterion) =>
  JSON.stringify([
    c.name,
    String(c.method).toUpperCase(),
    !!c.not,
    !!c.casefold,
    !!c.tostring,
    c.value === undefined ? null : c.value,
  ]);

/** Can the text test of `narrow` (d) only pass where the text test of `wide` (c) passes? */
function textImplies(d: Criterion, c: Criterion): boolean {
  if (typeof d.value !== 'string' || typeof c.value !== 'string') return false;
  // A case-sensitive match implies the case-insensitive one, never the other way round.
  if (d.casefold && !c.casefold) return false;
  // The engine's folding works character by character, so folding keeps every substring a substring.
  const fold = (s: string) => (c.casefold ? foldCase(s) : s);
  const dv = fold(d.value);
  const cv = fold(c.value);
  const exact = d.method === 'EQUALS' && !d.tostring;
  switch (c.method) {
    case 'CONTAINS':
      return ['CONTAINS', 'STARTSWITH', 'ENDSWITH'].includes(d.method) || exact ? dv.includes(cv) : false;
    case 'STARTSWITH':
      return d.method === 'STARTSWITH' || exact ? dv.startsWith(cv) : false;
    case 'ENDSWITH':
      return d.method === 'ENDSWITH' || exact ? dv.endsWith(cv) : false;
    default:
      return false;
  }
}

const lower = new Set(['>', '>=']);
const upper = new Set(['<', '<=']);

/** Numeric bounds: d (x > a / x >= a / x = a) implies c (x > b / x >= b), and the mirror for upper bounds. */
function boundImplies(d: Criterion, c: Criterion): boolean {
  if (typeof d.value !== 'number' || typeof c.value !== 'number') return false;
  const a = d.value;
  const b = c.value;
  if (lower.has(c.method)) {
    const strictC = c.method === '>';
    if (d.method === 'EQUALS') return strictC ? a > b : a >= b;
    if (!lower.has(d.method)) return false;
    return strictC && d.method === '>=' ? a > b : a >= b;
  }
  if (upper.has(c.method)) {
    const strictC = c.method === '<';
    if (d.method === 'EQUALS') return strictC ? a < b : a <= b;
    if (!upper.has(d.method)) return false;
    return strictC && d.method === '<=' ? a < b : a <= b;
  }
  return false;
}

function rangeImplies(d: Criterion, c: Criterion): boolean {
  if (c.method !== 'INRANGE' && c.method !== 'RANGE') return false;
  const r = pair(c.value);
  if (!r?.every((x) => typeof x === 'number')) return false;
  const [lo, hi] = r as [number, number];
  if (d.method === 'EQUALS' && typeof d.value === 'number') return d.value >= lo && d.value <= hi;
  const s = pair(d.value);
  if ((d.method === 'INRANGE' || d.method === 'RANGE') && s && s.every((x) => typeof x === 'number'))
    return (s[0] as number) >= lo && (s[1] as number) <= hi;
  return false;
}

/** Every row passing criterion d also passes criterion c (sound, deliberately incomplete). */
function criterionImplies(d: Criterion, c: Criterion, kind: FilterColumnKind | undefined): boolean {
  if (!sameShape(d, c)) return false;
  if (criterionKey(d) === criterionKey(c)) return true;
  // Negations reverse implication; only identical negated criteria are trusted.
  if (d.not || c.not) return false;
  if (d.tostring || c.tostring) return false;
  if (kind === 'text' || kind === 'text[]') return textImplies(d, c);
  // Numeric order is the column's order only on a number column (a text column compares '10' < '9').
  return kind === 'number' && (boundImplies(d, c) || rangeImplies(d, c));
}

/** Every row matching `rule` matches criterion c. */
function ruleImpliesCriterion(columns: FilterColumns, rule: FilterRule, c: Criterion): boolean {
  if (isEmptyRule(rule)) return false;
  const implies = (d: Criterion) => criterionImplies(d, c, columns[c.name]);
  return isAll(rule) ? rule.criteria.some(implies) : rule.criteria.every(implies);
}

/** Every row matching `rule` matches some criterion of `anyOf`. */
function ruleImpliesAny(columns: FilterColumns, rule: FilterRule, anyOf: Criterion[]): boolean {
  if (isEmptyRule(rule)) return false;
  const implies = (d: Criterion) => anyOf.some((c) => criterionImplies(d, c, columns[c.name]));
  return isAll(rule) ? rule.criteria.some(implies) : rule.criteria.every(implies);
}

/**
 * Spec 000 §4.8: true when every row that `newRule` selects is also selected by `oldRule`, so the rows
 * cached for the old rule can answer the new one client-side. False whenever that cannot be proven.
 */
export function narrows(
  columns: FilterColumns,
  oldRule: FilterRule | null | undefined,
  newRule: FilterRule | null | undefined,
): boolean {
  if (!oldRule || isEmptyRule(oldRule)) return true;
  if (!newRule || isEmptyRule(newRule)) return false;
  if (isAll(oldRule)) return oldRule.criteria.every((c) => ruleImpliesCriterion(columns, newRule, c));
  return ruleImpliesAny(columns, newRule, oldRule.criteria);
}

/** Instant criteria the rows on the wire decide exactly (see narrowedFilter). */
const wholeDayMethods = new Set(['ISDEFINED', 'BEFOREDAY', 'AFTERDAY', 'DAYRANGE']);

/**
 * The in-memory answer for `newRule` over the rows the server selected for `oldRule`, or null when the
 * server must answer: the new rule does not provably narrow the old one, the engine would refuse it (400),
 * or the rows the browser holds cannot decide it. Instants reach the browser as text of whole seconds (or
 * milliseconds) while the database keeps microseconds, so a criterion comparing an instant itself could
 * flip within a second; whole-day methods, ISDEFINED and the text form (tostring) come out the same from
 * either. A criterion of an ALL rule the server already applied holds for every cached row and is not
 * judged again.
 */
export function narrowedFilter(
  columns: FilterColumns,
  oldRule: FilterRule | null | undefined,
  newRule: FilterRule | null | undefined,
): RowPredicate | null {
  if (!narrows(columns, oldRule, newRule)) return null;
  try {
    filterPredicate(columns, newRule);
  } catch (e) {
    if (e instanceof FilterRuleError) return null;
    throw e;
  }
  if (!newRule || isEmptyRule(newRule)) return () => true;
  const applied = new Set(oldRule && isAll(oldRule) ? oldRule.criteria.map(criterionKey) : []);
  const isApplied = (c: Criterion) => applied.has(criterionKey(c));
  if (!isAll(newRule) && newRule.criteria.some(isApplied)) return () => true;
  const rest = isAll(newRule) ? newRule.criteria.filter((c) => !isApplied(c)) : newRule.criteria;
  const decidable = (c: Criterion) =>
    columns[c.name] !== 'timestamp' || !!c.tostring || wholeDayMethods.has(String(c.method).toUpperCase());
  if (!rest.every(decidable)) return null;
  return filterPredicate(columns, { ...newRule, criteria: rest });
}
