import type { Criterion, FilterRule } from '@lp/contract/query/schemas';

/**
 * In-memory evaluation of the generic filter rule (spec 000 §3) and the narrowing test of §4.8.
 * Semantics follow SQL: a missing (null) field matches no criterion except ISDEFINED, and `not` does
 * not turn such a miss into a match, so client-side results agree with the server's.
 */
export type Row = Record<string, unknown>;
type Scalar = string | number | boolean | null;

const isEmptyRule = (rule: FilterRule | null | undefined) => !rule || rule.criteria.length === 0;
const isAll = (rule: FilterRule) => rule.condition.toUpperCase() === 'ALL';

function text(v: unknown, casefold: boolean | undefined): string {
  const s = typeof v === 'string' ? v : String(v);
  return casefold ? s.toLowerCase() : s;
}

/** Numeric when the criterion value is a number (a non-numeric field then compares as NaN: no match), else text order. */
function compare(a: unknown, b: unknown): number {
  if (typeof b === 'number') {
    const x = typeof a === 'number' ? a : typeof a === 'string' && a.trim() !== '' ? Number(a) : Number.NaN;
    return x - b;
  }
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function scalarEquals(field: unknown, value: unknown, c: Criterion): boolean {
  if (typeof field === 'string' || typeof value === 'string' || c.tostring)
    return text(field, c.casefold) === text(value, c.casefold);
  return field === value;
}

const pair = (value: Criterion['value']): [Scalar, Scalar] | null =>
  Array.isArray(value) && value.length === 2 ? [value[0], value[1]] : null;
const day = (v: unknown) => String(v).slice(0, 10);

/** The positive (un-negated) test of one criterion against a present field value. */
function test(field: unknown, c: Criterion): boolean {
  const v = c.value;
  switch (c.method) {
    case 'CONTAINS':
      return text(field, c.casefold).includes(text(v, c.casefold));
    case 'STARTSWITH':
      return text(field, c.casefold).startsWith(text(v, c.casefold));
    case 'ENDSWITH':
      return text(field, c.casefold).endsWith(text(v, c.casefold));
    case 'ARRAY_CONTAINS':
      // As on the server: on a list field some element equals the value; on a scalar field the field is
      // one of the listed values (a multi-select filter).
      if (Array.isArray(field)) return field.some((item) => item !== null && scalarEquals(item, v, c));
      return (Array.isArray(v) ? v : [v]).some((item) => item !== null && scalarEquals(field, item, c));
    case 'EQUALS':
      return scalarEquals(field, v, c);
    case 'NOT EQUAL':
      return !scalarEquals(field, v, c);
    case '>':
    case 'AFTER':
      return compare(field, v) > 0;
    case '<':
    case 'BEFORE':
      return compare(field, v) < 0;
    case '>=':
      return compare(field, v) >= 0;
    case '<=':
      return compare(field, v) <= 0;
    case 'INRANGE':
    case 'RANGE':
    case 'DATERANGE': {
      const r = pair(v);
      return !!r && compare(field, r[0]) >= 0 && compare(field, r[1]) <= 0;
    }
    case 'BEFOREDAY':
      return day(field) < day(v);
    case 'AFTERDAY':
      return day(field) > day(v);
    case 'DAYRANGE': {
      const r = pair(v);
      return !!r && day(field) >= day(r[0]) && day(field) <= day(r[1]);
    }
    case 'ISDEFINED':
      return true;
  }
}

export function matchesCriterion(row: Row, c: Criterion): boolean {
  const field = row[c.name];
  const present = field !== null && field !== undefined;
  if (c.method === 'ISDEFINED') return c.not ? !present : present;
  if (!present) return false;
  const result = test(field, c);
  return c.not ? !result : result;
}

/** An absent rule or one without criteria matches every row. */
export function matchesRule(row: Row, rule: FilterRule | null | undefined): boolean {
  if (!rule || isEmptyRule(rule)) return true;
  return isAll(rule)
    ? rule.criteria.every((c) => matchesCriterion(row, c))
    : rule.criteria.some((c) => matchesCriterion(row, c));
}

const sameShape = (a: Criterion, b: Criterion) =>
  a.name === b.name && !!a.not === !!b.not && !!a.tostring === !!b.tostring;

function criteriaEqual(a: Criterion, b: Criterion): boolean {
  return (
    sameShape(a, b) &&
    a.method === b.method &&
    !!a.casefold === !!b.casefold &&
    JSON.stringify(a.value) === JSON.stringify(b.value)
  );
}

/** Can the text test of `narrow` (d) only pass where the text test of `wide` (c) passes? */
function textImplies(d: Criterion, c: Criterion): boolean {
  if (typeof d.value !== 'string' || typeof c.value !== 'string') return false;
  // A case-sensitive match implies the case-insensitive one, never the other way round.
  if (d.casefold && !c.casefold) return false;
  const fold = !!c.casefold;
  const dv = text(d.value, fold);
  const cv = text(c.value, fold);
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
export function criterionImplies(d: Criterion, c: Criterion): boolean {
  if (!sameShape(d, c)) return false;
  if (criteriaEqual(d, c)) return true;
  // Negations reverse implication; only identical negated criteria are trusted.
  if (d.not || c.not) return false;
  if (d.tostring || c.tostring) return false;
  return textImplies(d, c) || boundImplies(d, c) || rangeImplies(d, c);
}

/** Every row matching `rule` matches criterion c. */
function ruleImpliesCriterion(rule: FilterRule, c: Criterion): boolean {
  if (isEmptyRule(rule)) return false;
  return isAll(rule)
    ? rule.criteria.some((d) => criterionImplies(d, c))
    : rule.criteria.every((d) => criterionImplies(d, c));
}

/** Every row matching `rule` matches some criterion of `anyOf`. */
function ruleImpliesAny(rule: FilterRule, anyOf: Criterion[]): boolean {
  if (isEmptyRule(rule)) return false;
  if (isAll(rule)) return rule.criteria.some((d) => anyOf.some((c) => criterionImplies(d, c)));
  return rule.criteria.every((d) => anyOf.some((c) => criterionImplies(d, c)));
}

/**
 * Spec 000 §4.8: true when every row that `newRule` selects is also selected by `oldRule`, so the rows
 * cached for the old rule can answer the new one client-side. False whenever that cannot be proven.
 */
export function narrows(
  oldRule: FilterRule | null | undefined,
  newRule: FilterRule | null | undefined,
): boolean {
  if (!oldRule || isEmptyRule(oldRule)) return true;
  if (!newRule || isEmptyRule(newRule)) return false;
  if (isAll(oldRule)) return oldRule.criteria.every((c) => ruleImpliesCriterion(newRule, c));
  return ruleImpliesAny(newRule, oldRule.criteria);
}
