import { MAX_INSTANT, parseInstant } from '@lp/contract/common/dates';
import { type ColumnKind, type Criterion, type FilterRule, filterMethods } from '@lp/contract/query/schemas';
import { formatDateTime } from './dates.ts';

/*
 * The generic filter rule (spec 000 §3): parsed once here (parseFilter, parseCriterion: which method fits
 * which column kind, the value parsing and every refusal's message) into a form two backends read: the
 * query engine's SQL (server/src/platform/query/compile.ts, whose header states the semantics) and the
 * in-memory evaluator below. The SQL is the authority: for every row and rule the evaluator answers what
 * PostgreSQL answers for that SQL, and the engine's property test checks exactly that on PGlite and on
 * PostgreSQL, NULLs and negations included. The browser's data service narrows cached rows with it;
 * nothing else evaluates a filter rule.
 *
 * NULL: a criterion on a NULL value is false (SQL's unknown, which WHERE drops), except ISDEFINED (false)
 * and ARRAY_CONTAINS with a null in its list (true). `not` and NOT EQUAL negate that two-valued result
 * (`not coalesce(p, false)`), so a negated criterion selects the NULL rows. A NULL element of a list
 * matches nothing and is left out of the list's text.
 *
 * Text: casefold lowers each character on its own (PostgreSQL's lower(), ILIKE: İ -> i, Σ -> σ always);
 * ordered comparisons go by code point (COLLATE "C"). Numbers compare as doubles, NaN above every number
 * (PostgreSQL's float order); a value beyond double precision compared with an integer column is where the
 * database's exact numeric comparison could differ. Instants compare in milliseconds.
 *
 * A rule the engine refuses (400) throws FilterRuleError with the engine's message.
 */

/** How the engine reads a column: the resource's declared type (server/src/platform/query/resource.ts). */
export type FilterColumnKind = ColumnKind;
/** The filterable columns of a resource and their kinds. */
export type FilterColumns = Readonly<Record<string, FilterColumnKind>>;
/**
 * A row keyed by column name. NULL is null. Values: text a string; number a number (or a numeric string, as
 * drivers return numeric and bigint); timestamp a Date, epoch milliseconds or text parseInstant reads
 * ('YYYY-MM-DD HH:mm:ss' is UTC); boolean a boolean; text[] an array of strings (or nulls).
 */
export type FilterRow = Readonly<Record<string, unknown>>;
export type RowPredicate = (row: FilterRow) => boolean;

/** The rule is one the engine answers with 400; the message is the engine's. */
export class FilterRuleError extends Error {
  override name = 'FilterRuleError';
}

/** A row lacks a filtered column or holds a value of another kind than declared: it cannot be judged. */
export class FilterRowError extends Error {
  override name = 'FilterRowError';
}

type Method = (typeof filterMethods)[number];
type Value = string | number | boolean | readonly (string | null)[];
/** The positive test of a criterion on a present (non-NULL) value, and its result on NULL. */
type Test = { present: (v: Value) => boolean; onNull: boolean };

/** A predicate for the rule (an absent rule or one without criteria keeps every row); throws FilterRuleError. */
export function filterPredicate(columns: FilterColumns, filter: FilterRule | null | undefined): RowPredicate {
  const parsed = parseFilter(kindIn(columns), filter);
  if (!parsed) return () => true;
  const tests = parsed.criteria.map(rowTest);
  return parsed.any ? (row) => tests.some((t) => t(row)) : (row) => tests.every((t) => t(row));
}

/** One criterion as a predicate; throws FilterRuleError where the engine refuses it. */
export function criterionPredicate(columns: FilterColumns, criterion: Criterion): RowPredicate {
  return rowTest(parseCriterion(kindIn(columns), criterion));
}

const kindIn =
  (columns: FilterColumns): ColumnKindOf =>
  (name) =>
    Object.hasOwn(columns, name) ? columns[name] : undefined;

function rowTest(criterion: ParsedCriterion): RowPredicate {
  const { name, column, tostring, negate } = criterion;
  const test = evaluate(criterion, criterion.test);
  return (row) => {
    if (!Object.hasOwn(row, name) || row[name] === undefined) {
      throw new FilterRowError(`The row has no value for column ${quoteName(name)}`);
    }
    const raw = readValue(column, row[name], name);
    const value = raw !== null && tostring ? textForm(column, raw) : raw;
    const result = value === null ? test.onNull : test.present(value);
    return negate ? !result : result;
  };
}

/** Client-supplied names are echoed in messages; kept short and printable (as the engine does). */
export function quoteName(name: unknown): string {
  const text = typeof name === 'string' ? name : String(name);
  return `'${text.replace(/[^\x20-\x7e]/g, '?').slice(0, 60)}'`;
}

/** The value of a row's column in the form the tests below read, or null for NULL. */
function readValue(kind: FilterColumnKind, value: unknown, name: string): Value | null {
  if (value === null) return null;
  const wrong = () => new FilterRowError(`The value of column ${quoteName(name)} is not a ${kind} value`);
  switch (kind) {
    case 'text':
      if (typeof value !== 'string') throw wrong();
      return value;
    case 'number': {
      if (typeof value === 'number') return value;
      // numeric and bigint columns reach JavaScript as text from some drivers.
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (Number.isNaN(n) && value !== 'NaN') throw wrong();
      return n;
    }
    case 'timestamp': {
      const ms = value instanceof Date ? value.getTime() : parseInstant(value);
      if (ms === undefined || Number.isNaN(ms)) throw wrong();
      return ms;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong();
      return value;
    case 'text[]':
      if (!Array.isArray(value) || !value.every((e) => e === null || typeof e === 'string')) throw wrong();
      return value as (string | null)[];
  }
}

/**
 * The text a tostring criterion compares (PostgreSQL's text output): number as a double prints, timestamp
 * 'YYYY-MM-DD HH:mm:ss' in UTC, boolean true/false, a list its non-null elements joined with ','.
 */
function textForm(kind: FilterColumnKind, value: Value): string {
  switch (kind) {
    case 'text':
      return value as string;
    case 'number':
      return numberText(value as number);
    case 'timestamp':
      return formatDateTime(value as number);
    case 'boolean':
      return String(value);
    case 'text[]':
      return (value as (string | null)[]).filter((e) => e !== null).join(',');
  }
}

/**
 * PostgreSQL's double precision output: the shortest digits that read back as the same double, fixed
 * notation for decimal exponents -4..14, else d.ddde±XX. Integer columns print the same below 10^15.
 */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, exponent] = n.toExponential().split('e');
  const e = Number(exponent);
  const sign = n < 0 ? '-' : '';
  const digits = mantissa.replace(/[-.]/g, '');
  if (e < -4 || e >= 15) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${fraction}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${'0'.repeat(e + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** PostgreSQL's lower() and ILIKE: each character's own lower case (never a longer or context form). */
export function foldCase(text: string): string {
  if (!/[\u0080-\u{10ffff}]/u.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += String.fromCodePoint(ch.toLowerCase().codePointAt(0) as number);
  return out;
}

/** Code-point order (COLLATE "C" over UTF-8), which UTF-16 comparison gets wrong above U+D7FF. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (code points above U+FFFF) move above U+E000..U+FFFF; the first differing unit decides. */
const codePointRank = (unit: number) =>
  unit >= 0xd800 && unit <= 0xdfff ? unit + 0x2000 : unit >= 0xe000 ? unit - 0x800 : unit;

/** PostgreSQL's float order: NaN equals NaN and sorts above every number. */
function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const holds = (op: CompareOp, order: number) =>
  op === '>' ? order > 0 : op === '<' ? order < 0 : op === '>=' ? order >= 0 : order <= 0;
const never: Test = { present: () => false, onNull: false };
const defined: Test = { present: () => true, onNull: false };

/** The in-memory backend: each test as PostgreSQL answers compile.ts's SQL for it. */
function evaluate(criterion: ParsedCriterion, test: FilterTest): Test {
  const { target, casefold } = criterion;
  const fold = (text: string) => (casefold ? foldCase(text) : text);
  /** "Some element ..." of a list; NULL elements never match. */
  const someElement =
    (condition: (element: string) => boolean) =>
    (v: Value): boolean =>
      (v as readonly (string | null)[]).some((e) => e !== null && condition(e));
  /** A match on the text target, or on some element of a list. */
  const textMatch = (match: (text: string) => boolean): Test =>
    target === 'text[]'
      ? { present: someElement(match), onNull: false }
      : { present: (v) => match(v as string), onNull: false };
  /** An operand as the value it is compared with; text folded like the column. */
  const operandValue = (o: FilterOperand): string | number | boolean =>
    o.kind === 'text' ? fold(o.text) : o.kind === 'timestamp' ? o.ms : o.value;
  switch (test.op) {
    case 'equals': {
      const { operand } = test;
      if (operand.kind === 'text' && casefold) {
        // ILIKE without wildcards: equal after folding.
        const wanted = foldCase(operand.text);
        return textMatch((x) => foldCase(x) === wanted);
      }
      const wanted = operandValue(operand);
      if (target === 'text[]') return { present: someElement((e) => e === wanted), onNull: false };
      if (target === 'number') {
        return { present: (v) => compareNumbers(v as number, wanted as number) === 0, onNull: false };
      }
      return { present: (v) => v === wanted, onNull: false };
    }
    case 'like': {
      const wanted = fold(test.text);
      if (test.match === 'contains') return textMatch((x) => fold(x).includes(wanted));
      if (test.match === 'startsWith') return textMatch((x) => fold(x).startsWith(wanted));
      return textMatch((x) => fold(x).endsWith(wanted));
    }
    case 'compare': {
      const { cmp } = test;
      const bound = operandValue(test.operand);
      if (target === 'text') {
        return {
          present: (v) => holds(cmp, compareCodePoints(fold(v as string), bound as string)),
          onNull: false,
        };
      }
      if (target === 'number') {
        return { present: (v) => holds(cmp, compareNumbers(v as number, bound as number)), onNull: false };
      }
      return { present: (v) => holds(cmp, (v as number) - (bound as number)), onNull: false };
    }
    case 'range': {
      const from = evaluate(criterion, test.from);
      const to = evaluate(criterion, test.to);
      return { present: (v) => from.present(v) && to.present(v), onNull: false };
    }
    case 'defined':
      return defined;
    case 'never':
      return never;
    case 'inList': {
      const wanted = test.operands.map(operandValue);
      let present: (v: Value) => boolean;
      if (target === 'text[]') {
        // Without casefold the SQL is an overlap (&&), with it lower(element) in (...): both "some element is listed".
        present = someElement((e) => wanted.includes(fold(e)));
      } else if (target === 'text') {
        present = (v) => wanted.includes(fold(v as string));
      } else if (target === 'number') {
        present = (v) => wanted.some((w) => compareNumbers(v as number, w as number) === 0);
      } else {
        present = (v) => wanted.includes(v as number | boolean);
      }
      return { present, onNull: test.matchNull };
    }
  }
}

/**
 * A criterion's operand, parsed and checked against the target kind. Text stays unfolded: the evaluator
 * folds it in JavaScript, the SQL backend binds it and applies lower(). A number keeps the literal the
 * client sent (a string trimmed), which the SQL backend binds as numeric so the comparison stays exact.
 */
export type FilterOperand =
  | { kind: 'text'; text: string }
  | { kind: 'number'; value: number; literal: number | string }
  | { kind: 'timestamp'; ms: number }
  | { kind: 'boolean'; value: boolean };

export type CompareOp = '>' | '<' | '>=' | '<=';

/**
 * The positive test of a criterion on the target (before `negate`). equals/inList take an operand of the
 * target's scalar kind; compare one of text, number or timestamp; like only on text and text[] targets;
 * range is both of its comparisons; defined is IS NOT NULL and never is false.
 */
export type FilterTest =
  | { op: 'equals'; operand: FilterOperand }
  | { op: 'like'; match: 'contains' | 'startsWith' | 'endsWith'; text: string }
  | { op: 'compare'; cmp: CompareOp; operand: FilterOperand }
  | { op: 'range'; from: FilterTest; to: FilterTest }
  | { op: 'defined' }
  | { op: 'never' }
  | { op: 'inList'; operands: FilterOperand[]; matchNull: boolean };

/** One criterion checked against its column: what both backends (SQL, in memory) build their test from. */
export type ParsedCriterion = {
  name: string;
  /** The column's declared kind. */
  column: FilterColumnKind;
  /** The kind the test reads: text under tostring, else the column's. */
  target: FilterColumnKind;
  tostring: boolean;
  casefold: boolean;
  negate: boolean;
  test: FilterTest;
};

/** A filter rule checked: undefined keeps every row; else every (ALL) or some (ANY) criterion holds. */
export type ParsedFilter = { any: boolean; criteria: ParsedCriterion[] } | undefined;

/** The kind of a filterable column, or undefined where the name is not one. */
export type ColumnKindOf = (name: string) => FilterColumnKind | undefined;

/** Checks a filter rule and each criterion; throws FilterRuleError with the engine's 400 message. */
export function parseFilter(kindOf: ColumnKindOf, filter: FilterRule | null | undefined): ParsedFilter {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object') throw new FilterRuleError('Invalid filter: expected an object');
  const condition = String(filter.condition ?? 'ALL').toUpperCase();
  if (condition !== 'ALL' && condition !== 'ANY') {
    throw new FilterRuleError(`Invalid filter condition ${quoteName(filter.condition)}: use ANY or ALL`);
  }
  const criteria = filter.criteria ?? [];
  if (!Array.isArray(criteria)) throw new FilterRuleError('Invalid filter: criteria must be a list');
  if (criteria.length === 0) return undefined;
  return { any: condition === 'ANY', criteria: criteria.map((c) => parseCriterion(kindOf, c)) };
}

/** Checks one criterion against its column; throws FilterRuleError with the engine's 400 message. */
export function parseCriterion(kindOf: ColumnKindOf, criterion: Criterion): ParsedCriterion {
  if (typeof criterion !== 'object' || criterion === null)
    throw new FilterRuleError('Invalid filter criterion');
  const { name } = criterion;
  const column = typeof name === 'string' ? kindOf(name) : undefined;
  if (!column) throw new FilterRuleError(`Unknown filter column ${quoteName(name)}`);
  const method = (typeof criterion.method === 'string' ? criterion.method.toUpperCase() : '') as Method;
  if (!filterMethods.includes(method)) {
    throw new FilterRuleError(
      `Unknown filter method ${quoteName(criterion.method)} for column ${quoteName(name)}`,
    );
  }
  const tostring = Boolean(criterion.tostring);
  const target: FilterColumnKind = tostring ? 'text' : column;
  const casefold = criterion.casefold === true;
  const { test, negate } = new CriterionParser(name, method, target).parse(criterion);
  return { name, column, target, tostring, casefold, negate, test };
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The checks in the order the first problem decides the message (e.g. DATERANGE reads `from` before it
 * refuses a non-timestamp column, DAYRANGE reads both dates first).
 */
class CriterionParser {
  readonly name: string;
  readonly method: Method;
  readonly target: FilterColumnKind;

  constructor(name: string, method: Method, target: FilterColumnKind) {
    this.name = name;
    this.method = method;
    this.target = target;
  }

  parse(criterion: Criterion): { test: FilterTest; negate: boolean } {
    const { value } = criterion;
    let negate = criterion.not === true;
    switch (this.method) {
      case 'NOT EQUAL':
        return { test: this.equals(value), negate: !negate };
      case 'EQUALS':
        return { test: this.equals(value), negate };
      case 'CONTAINS':
      case 'STARTSWITH':
      case 'ENDSWITH':
        return { test: this.like(value), negate };
      case '>':
      case '<':
      case '>=':
      case '<=':
        return { test: this.compare(this.method, this.orderedValue(value)), negate };
      case 'INRANGE':
      case 'RANGE': {
        const [lo, hi] = this.pair(value);
        const from = this.compare('>=', this.orderedValue(lo));
        return { test: { op: 'range', from, to: this.compare('<=', this.orderedValue(hi)) }, negate };
      }
      case 'ISDEFINED':
        if (value === false || value === 'false') negate = !negate;
        else if (value !== undefined && value !== null && value !== true) {
          throw this.error('takes no value (or true/false)');
        }
        return { test: { op: 'defined' }, negate };
      case 'BEFORE':
        return { test: this.instantCompare('<', this.instant(value)), negate };
      case 'AFTER':
        return { test: this.instantCompare('>', this.instant(value)), negate };
      case 'DATERANGE': {
        const [from, to] = this.pair(value);
        const start = this.instantCompare('>=', this.instant(from));
        return {
          test: { op: 'range', from: start, to: this.instantCompare('<=', this.instant(to)) },
          negate,
        };
      }
      case 'BEFOREDAY':
        return { test: this.instantCompare('<', startOfUtcDay(this.instant(value))), negate };
      case 'AFTERDAY':
        return { test: this.instantCompare('>=', startOfUtcDay(this.instant(value)) + DAY_MS), negate };
      case 'DAYRANGE': {
        const [from, to] = this.pair(value);
        const start = startOfUtcDay(this.instant(from));
        const end = startOfUtcDay(this.instant(to)) + DAY_MS;
        const first = this.instantCompare('>=', start);
        return { test: { op: 'range', from: first, to: this.instantCompare('<', end) }, negate };
      }
      case 'ARRAY_CONTAINS':
        return { test: this.inList(value), negate };
    }
  }

  private error(problem: string) {
    return new FilterRuleError(`Filter ${this.method} on column ${quoteName(this.name)} ${problem}`);
  }

  private unsupported() {
    const kind = this.target === 'text[]' ? 'list' : this.target;
    return this.error(`is not supported for a ${kind} column`);
  }

  private number(value: unknown): FilterOperand {
    if (typeof value === 'number' && Number.isFinite(value)) return { kind: 'number', value, literal: value };
    if (
      typeof value === 'string' &&
      /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) &&
      Number.isFinite(Number(value))
    ) {
      return { kind: 'number', value: Number(value), literal: value.trim() };
    }
    throw this.error('needs a number value');
  }

  private boolean(value: unknown): FilterOperand {
    if (typeof value === 'boolean') return { kind: 'boolean', value };
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) {
      return { kind: 'boolean', value: value.toLowerCase() === 'true' };
    }
    throw this.error('needs a boolean value (true or false)');
  }

  private instant(value: unknown): number {
    const ms = parseInstant(value);
    if (ms === undefined) throw this.error('needs a valid date (YYYY-MM-DD or ISO 8601 date-time)');
    return ms;
  }

  private plainText(value: unknown): string {
    if (typeof value === 'string') {
      // PostgreSQL text cannot hold NUL; refused here rather than failing in the database.
      if (value.includes('\u0000')) throw this.error('cannot contain NUL characters');
      return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.error('needs a single text value');
  }

  private text(value: unknown): FilterOperand {
    return { kind: 'text', text: this.plainText(value) };
  }

  /** A value of the target's scalar type (for equality and lists); a list's elements are text. */
  private scalar(value: unknown): FilterOperand {
    switch (this.target) {
      case 'text':
      case 'text[]':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return { kind: 'timestamp', ms: this.instant(value) };
      case 'boolean':
        return this.boolean(value);
    }
  }

  private equals(value: unknown): FilterTest {
    if (Array.isArray(value) || value === null || value === undefined) {
      throw this.error('needs a single value (use ISDEFINED to test for empty values)');
    }
    return { op: 'equals', operand: this.scalar(value) };
  }

  private like(value: unknown): FilterTest {
    if (this.target !== 'text' && this.target !== 'text[]') {
      throw this.error(`is not supported for a ${this.target} column (set tostring to match its text)`);
    }
    const text = this.plainText(value);
    const match =
      this.method === 'CONTAINS' ? 'contains' : this.method === 'STARTSWITH' ? 'startsWith' : 'endsWith';
    return { op: 'like', match, text };
  }

  /** A value for ordered comparisons; only text, number and timestamp are ordered. */
  private orderedValue(value: unknown): FilterOperand {
    if (Array.isArray(value) || value === null || value === undefined)
      throw this.error('needs a single value');
    switch (this.target) {
      case 'text':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return { kind: 'timestamp', ms: this.instant(value) };
      default:
        throw this.unsupported();
    }
  }

  private compare(cmp: CompareOp, operand: FilterOperand): FilterTest {
    return { op: 'compare', cmp, operand };
  }

  private instantCompare(cmp: CompareOp, ms: number): FilterTest {
    if (this.target !== 'timestamp') throw this.unsupported();
    // The day after 9999-12-31 (AFTERDAY, DAYRANGE) has no timestamp form; every stored instant is before it.
    if (ms > MAX_INSTANT) return cmp === '<' || cmp === '<=' ? { op: 'defined' } : { op: 'never' };
    return { op: 'compare', cmp, operand: { kind: 'timestamp', ms } };
  }

  private pair(value: unknown): [unknown, unknown] {
    if (!Array.isArray(value) || value.length !== 2 || value[0] === null || value[1] === null) {
      throw this.error('needs a list of exactly two values [from, to]');
    }
    return [value[0], value[1]];
  }

  private inList(value: unknown): FilterTest {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    if (value === undefined) throw this.error('needs a value or a list of values');
    const matchNull = items.some((v) => v === null);
    const operands = items.filter((v) => v !== null).map((v) => this.scalar(v));
    return { op: 'inList', operands, matchNull };
  }
}
