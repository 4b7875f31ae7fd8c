import { MAX_INSTANT, parseInstant } from '@lp/contract/common/dates';
import { type ColumnKind, type Criterion, type FilterRule, filterMethods } from '@lp/contract/query/schemas';
import { formatDateTime } from './dates.ts';

/*
 * The generic filter rule (spec 000 §3) evaluated in memory. The query engine's SQL is the authority:
 * for every row and rule this answers what PostgreSQL answers for the SQL that
 * server/src/platform/query/compile.ts builds (its header states the semantics), and the engine's property
 * test checks exactly that on PGlite and on PostgreSQL, NULLs and negations included. The browser's data
 * service narrows cached rows with it; nothing else evaluates a filter rule.
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

const DAY_MS = 86_400_000;

/** A predicate for the rule (an absent rule or one without criteria keeps every row); throws FilterRuleError. */
export function filterPredicate(columns: FilterColumns, filter: FilterRule | null | undefined): RowPredicate {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== 'object') throw new FilterRuleError('Invalid filter: expected an object');
  const condition = String(filter.condition ?? 'ALL').toUpperCase();
  if (condition !== 'ALL' && condition !== 'ANY') {
    throw new FilterRuleError(`Invalid filter condition ${quoteName(filter.condition)}: use ANY or ALL`);
  }
  const criteria = filter.criteria ?? [];
  if (!Array.isArray(criteria)) throw new FilterRuleError('Invalid filter: criteria must be a list');
  if (criteria.length === 0) return () => true;
  const tests = criteria.map((c) => criterionPredicate(columns, c));
  return condition === 'ALL' ? (row) => tests.every((t) => t(row)) : (row) => tests.some((t) => t(row));
}

/** One criterion as a predicate; throws FilterRuleError where the engine refuses it. */
export function criterionPredicate(columns: FilterColumns, criterion: Criterion): RowPredicate {
  if (typeof criterion !== 'object' || criterion === null)
    throw new FilterRuleError('Invalid filter criterion');
  const { name } = criterion;
  const kind = typeof name === 'string' && Object.hasOwn(columns, name) ? columns[name] : undefined;
  if (!kind) throw new FilterRuleError(`Unknown filter column ${quoteName(name)}`);
  const method = (typeof criterion.method === 'string' ? criterion.method.toUpperCase() : '') as Method;
  if (!filterMethods.includes(method)) {
    throw new FilterRuleError(
      `Unknown filter method ${quoteName(criterion.method)} for column ${quoteName(name)}`,
    );
  }
  const target: FilterColumnKind = criterion.tostring ? 'text' : kind;
  const ctx = new CriterionContext(name, method, target, criterion.casefold === true);
  const { test, negate } = ctx.compile(criterion);
  return (row) => {
    if (!Object.hasOwn(row, name) || row[name] === undefined) {
      throw new FilterRowError(`The row has no value for column ${quoteName(name)}`);
    }
    const raw = readValue(kind, row[name], name);
    const value = raw !== null && criterion.tostring ? textForm(kind, raw) : raw;
    const result = value === null ? test.onNull : test.present(value);
    return negate ? !result : result;
  };
}

/** Client-supplied names are echoed in messages; kept short and printable (as the engine does). */
function quoteName(name: unknown): string {
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

const startOfUtcDay = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

type Op = '>' | '<' | '>=' | '<=';
const holds = (op: Op, order: number) =>
  op === '>' ? order > 0 : op === '<' ? order < 0 : op === '>=' ? order >= 0 : order <= 0;
const both = (a: Test, b: Test): Test => ({
  present: (v) => a.present(v) && b.present(v),
  onNull: false,
});
const never: Test = { present: () => false, onNull: false };
const defined: Test = { present: () => true, onNull: false };

/**
 * Mirrors compile.ts's CriterionContext: the same checks in the same order (so the first problem gives the
 * engine's message), each SQL predicate as a test on the column's value.
 */
class CriterionContext {
  constructor(
    readonly name: string,
    readonly method: Method,
    readonly target: FilterColumnKind,
    readonly casefold: boolean,
  ) {}

  compile(criterion: Criterion): { test: Test; negate: boolean } {
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
        const low = this.compare('>=', this.orderedValue(lo));
        return { test: both(low, this.compare('<=', this.orderedValue(hi))), negate };
      }
      case 'ISDEFINED':
        if (value === false || value === 'false') negate = !negate;
        else if (value !== undefined && value !== null && value !== true) {
          throw this.error('takes no value (or true/false)');
        }
        return { test: defined, negate };
      case 'BEFORE':
        return { test: this.instantCompare('<', this.instant(value)), negate };
      case 'AFTER':
        return { test: this.instantCompare('>', this.instant(value)), negate };
      case 'DATERANGE': {
        const [from, to] = this.pair(value);
        const start = this.instantCompare('>=', this.instant(from));
        return { test: both(start, this.instantCompare('<=', this.instant(to))), negate };
      }
      case 'BEFOREDAY':
        return { test: this.instantCompare('<', startOfUtcDay(this.instant(value))), negate };
      case 'AFTERDAY':
        return { test: this.instantCompare('>=', startOfUtcDay(this.instant(value)) + DAY_MS), negate };
      case 'DAYRANGE': {
        const [from, to] = this.pair(value);
        const start = startOfUtcDay(this.instant(from));
        const end = startOfUtcDay(this.instant(to)) + DAY_MS;
        return { test: both(this.instantCompare('>=', start), this.instantCompare('<', end)), negate };
      }
      case 'ARRAY_CONTAINS':
        return { test: this.inList(value), negate };
    }
  }

  error(problem: string) {
    return new FilterRuleError(`Filter ${this.method} on column ${quoteName(this.name)} ${problem}`);
  }

  private unsupported() {
    const kind = this.target === 'text[]' ? 'list' : this.target;
    return this.error(`is not supported for a ${kind} column`);
  }

  private fold(text: string): string {
    return this.casefold ? foldCase(text) : text;
  }

  private text(value: unknown): string {
    return this.fold(this.plainText(value));
  }

  private number(value: unknown): number {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (
      typeof value === 'string' &&
      /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) &&
      Number.isFinite(Number(value))
    ) {
      return Number(value);
    }
    throw this.error('needs a number value');
  }

  private boolean(value: unknown): boolean {
    if (typeof value === 'boolean') return value;
    if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
    throw this.error('needs a boolean value (true or false)');
  }

  instant(value: unknown): number {
    const ms = parseInstant(value);
    if (ms === undefined) throw this.error('needs a valid date (YYYY-MM-DD or ISO 8601 date-time)');
    return ms;
  }

  /** A value of the target's scalar type (for equality and lists); text as the (folded) text. */
  private scalar(value: unknown): string | number | boolean {
    switch (this.target) {
      case 'text':
      case 'text[]':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return this.instant(value);
      case 'boolean':
        return this.boolean(value);
    }
  }

  /** "Some element ..." of a list; NULL elements never match. */
  private someElement(condition: (element: string) => boolean): (v: Value) => boolean {
    return (v) => (v as readonly (string | null)[]).some((e) => e !== null && condition(e));
  }

  equals(value: unknown): Test {
    if (Array.isArray(value) || value === null || value === undefined) {
      throw this.error('needs a single value (use ISDEFINED to test for empty values)');
    }
    if ((this.target === 'text' || this.target === 'text[]') && this.casefold) {
      // ILIKE without wildcards: equal after folding.
      const wanted = foldCase(this.plainText(value));
      return this.textMatch((x) => foldCase(x) === wanted);
    }
    if (this.target === 'text[]') {
      const wanted = this.text(value);
      return { present: this.someElement((e) => e === wanted), onNull: false };
    }
    const wanted = this.scalar(value);
    if (this.target === 'number') {
      return { present: (v) => compareNumbers(v as number, wanted as number) === 0, onNull: false };
    }
    return { present: (v) => v === wanted, onNull: false };
  }

  private plainText(value: unknown): string {
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw this.error('cannot contain NUL characters');
      return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.error('needs a single text value');
  }

  /** A match on the text target, or on some element of a list. */
  private textMatch(match: (text: string) => boolean): Test {
    if (this.target === 'text[]') return { present: this.someElement(match), onNull: false };
    return { present: (v) => match(v as string), onNull: false };
  }

  like(value: unknown): Test {
    if (this.target !== 'text' && this.target !== 'text[]') {
      throw this.error(`is not supported for a ${this.target} column (set tostring to match its text)`);
    }
    const wanted = this.text(value);
    const fold = (x: string) => this.fold(x);
    switch (this.method) {
      case 'CONTAINS':
        return this.textMatch((x) => fold(x).includes(wanted));
      case 'STARTSWITH':
        return this.textMatch((x) => fold(x).startsWith(wanted));
      default:
        return this.textMatch((x) => fold(x).endsWith(wanted));
    }
  }

  /** A value for ordered comparisons; only text, number and timestamp are ordered. */
  orderedValue(value: unknown): string | number {
    if (Array.isArray(value) || value === null || value === undefined)
      throw this.error('needs a single value');
    switch (this.target) {
      case 'text':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return this.instant(value);
      default:
        throw this.unsupported();
    }
  }

  compare(op: Op, bound: string | number): Test {
    if (this.target === 'text') {
      return {
        present: (v) => holds(op, compareCodePoints(this.fold(v as string), bound as string)),
        onNull: false,
      };
    }
    if (this.target === 'number') {
      return { present: (v) => holds(op, compareNumbers(v as number, bound as number)), onNull: false };
    }
    return { present: (v) => holds(op, (v as number) - (bound as number)), onNull: false };
  }

  instantCompare(op: Op, ms: number): Test {
    if (this.target !== 'timestamp') throw this.unsupported();
    // The day after 9999-12-31 has no timestamp form; every stored instant is before it.
    if (ms > MAX_INSTANT) return op === '<' || op === '<=' ? defined : never;
    return { present: (v) => holds(op, (v as number) - ms), onNull: false };
  }

  pair(value: unknown): [unknown, unknown] {
    if (!Array.isArray(value) || value.length !== 2 || value[0] === null || value[1] === null) {
      throw this.error('needs a list of exactly two values [from, to]');
    }
    return [value[0], value[1]];
  }

  inList(value: unknown): Test {
    const items: unknown[] = Array.isArray(value) ? value : [value];
    if (value === undefined) throw this.error('needs a value or a list of values');
    const matchNull = items.some((v) => v === null);
    const wanted = items.filter((v) => v !== null).map((v) => this.scalar(v));
    let present: (v: Value) => boolean;
    if (this.target === 'text[]') {
      // Without casefold the SQL is an overlap (&&), with it lower(element) in (...): both "some element is listed".
      present = this.someElement((e) => wanted.includes(this.fold(e)));
    } else if (this.target === 'text') {
      present = (v) => wanted.includes(this.fold(v as string));
    } else if (this.target === 'number') {
      present = (v) => wanted.some((w) => compareNumbers(v as number, w as number) === 0);
    } else {
      present = (v) => wanted.includes(v as number | boolean);
    }
    return { present, onNull: matchNull };
  }
}
