/*
 * Compiles the spec's generic filter and sort rules (spec 000 §3, §4.8) into parameterized SQL over a
 * resource's whitelisted columns. Client text only ever travels as bind parameters; column expressions,
 * operators and keywords come from the resource definition and the tables below. The same filter semantics
 * run in memory in domain/src/filter-rules.ts (the browser narrows cached rows with it); the engine's
 * property test fails when the two disagree on a row or on a refusal, so a change here goes there too.
 *
 * Filter rule: {condition: ANY|ALL (any case, default ALL), criteria: [...]}. ALL = every criterion holds,
 * ANY = at least one holds; no criteria = no restriction.
 *
 * Criterion: {name, method, value, not?, casefold?, tostring?}
 * - name: an API column of the resource with filterable !== false, else 400.
 * - tostring: the criterion compares the column's text form instead of its value; the column is then
 *   treated as a text column. Text forms: text = itself; number = PostgreSQL's text output (`12.5`, `-3`);
 *   timestamp = 'YYYY-MM-DD HH:mm:ss' in UTC (the spec's date format); boolean = `true` / `false`;
 *   text[] = the elements joined with ',' (a NULL array stays NULL, an empty one is '').
 * - casefold: case-insensitive comparison of text: ILIKE for CONTAINS/STARTSWITH/ENDSWITH/EQUALS (ILIKE keeps
 *   the planner's column statistics usable), SQL lower() on both sides otherwise; the database's case
 *   mapping decides, ASCII behaves everywhere alike. Ignored for number, timestamp and boolean.
 * - not: negates the criterion. Two-valued logic: a criterion on a NULL value is false (except
 *   ISDEFINED), so its negation is true — `not` returns exactly the rows the plain criterion does not.
 *
 * Values: text columns take a string (numbers and booleans are turned into their text); number columns
 * a finite number or a decimal string; timestamp columns an ISO 8601 string ('YYYY-MM-DD',
 * 'YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DDTHH:mm:ss.sssZ', '...+02:00'; no offset = UTC; millisecond precision)
 * or epoch milliseconds; boolean columns true/false or 'true'/'false'. Anything else -> 400.
 *
 * Methods (T = text incl. tostring, N = number, D = timestamp, B = boolean, A = text[]):
 * - CONTAINS / STARTSWITH / ENDSWITH (T, A): substring / prefix / suffix match (SQL LIKE with the user's
 *   % _ \ escaped, so they match literally). On A: some element matches.
 * - EQUALS (T, N, D, B, A): equal value (D: same instant). On A: some element equals.
 * - NOT EQUAL (T, N, D, B, A): exactly the negation of EQUALS (NULL values match).
 * - > < >= <= (T, N, D): ordered comparison. Text compares in code-point order (COLLATE "C"), the same on
 *   every database, which is not necessarily the sort order of the column's collation.
 * - INRANGE, RANGE (T, N, D): value [min, max], min <= x <= max (inclusive; min > max matches nothing).
 * - ISDEFINED (all): x IS NOT NULL (an empty text or array is defined). Value optional; false inverts.
 * - BEFORE / AFTER (D): strictly before / after the instant.
 * - DATERANGE (D): value [from, to], from <= x <= to (inclusive instants).
 * - BEFOREDAY (D): x is on a UTC day before the value's UTC day (x < that day's 00:00 UTC).
 * - AFTERDAY (D): x is on a UTC day after the value's UTC day (x >= the next day's 00:00 UTC).
 * - DAYRANGE (D): value [from, to], x on a UTC day from from's day to to's day, both days included.
 * - ARRAY_CONTAINS: value is one value or a list. On A: the array contains at least one of the listed
 *   values. On T, N, D, B: the value is one of the listed values (SQL IN). A null in the list also
 *   matches rows whose value is NULL; an empty list matches nothing.
 * Day methods, ranges and comparisons are computed into bound instants in JS so indexes stay usable.
 * Number values are bound as numeric (exact for integer, bigint and double columns alike).
 *
 * Sort rules: [{name, direction}] (or one rule); direction asc/desc in any case, default asc; the name must
 * be a column with sortable !== false, else 400; repeated names keep their first rule; no rules = the
 * resource's defaultSort. The resource id is always appended as the final tie-breaker, in the direction of
 * the last key, so the order is total. NULLs sort as PostgreSQL does (last when ascending).
 */
import { MAX_INSTANT, parseInstant } from '@lp/contract/common/dates';
import type { Criterion, FilterRule, SortRule } from '@lp/contract/query/schemas';
import { filterMethods } from '@lp/contract/query/schemas';
import { type SQL, sql } from 'drizzle-orm';
import { badRequest } from '../errors.ts';
import type { ColumnDef, ColumnType, Resource } from './resource.ts';

type Method = (typeof filterMethods)[number];
type Target = { expr: SQL; type: ColumnType };
const DAY_MS = 86_400_000;

/** Client-supplied names are echoed in messages; keep them short and printable. */
function quoteName(name: unknown): string {
  const text = typeof name === 'string' ? name : String(name);
  return `'${text.replace(/[^\x20-\x7e]/g, '?').slice(0, 60)}'`;
}

function columnOf(resource: Resource, name: unknown): ColumnDef | undefined {
  return typeof name === 'string' && Object.hasOwn(resource.columns, name)
    ? resource.columns[name]
    : undefined;
}

export function compileFilter(resource: Resource, filter: FilterRule | undefined | null): SQL | undefined {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== 'object') throw badRequest('Invalid filter: expected an object');
  const condition = String(filter.condition ?? 'ALL').toUpperCase();
  if (condition !== 'ALL' && condition !== 'ANY') {
    throw badRequest(`Invalid filter condition ${quoteName(filter.condition)}: use ANY or ALL`);
  }
  const criteria = filter.criteria ?? [];
  if (!Array.isArray(criteria)) throw badRequest('Invalid filter: criteria must be a list');
  if (criteria.length === 0) return undefined;
  const parts = criteria.map((c) => sql`(${compileCriterion(resource, c)})`);
  return sql.join(parts, condition === 'ALL' ? sql` and ` : sql` or `);
}

function textForm(column: ColumnDef): SQL {
  switch (column.type) {
    case 'text':
      return column.expr;
    case 'number':
    case 'boolean':
      return sql`(${column.expr})::text`;
    case 'timestamp':
      return sql`to_char((${column.expr}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
    case 'text[]':
      return sql`array_to_string(${column.expr}, ',')`;
  }
}

function compileCriterion(resource: Resource, criterion: Criterion): SQL {
  if (typeof criterion !== 'object' || criterion === null) throw badRequest('Invalid filter criterion');
  const { name } = criterion;
  const column = columnOf(resource, name);
  if (!column || column.filterable === false) throw badRequest(`Unknown filter column ${quoteName(name)}`);
  const method = (typeof criterion.method === 'string' ? criterion.method.toUpperCase() : '') as Method;
  if (!filterMethods.includes(method)) {
    throw badRequest(`Unknown filter method ${quoteName(criterion.method)} for column ${quoteName(name)}`);
  }
  const target: Target = criterion.tostring ? { expr: textForm(column), type: 'text' } : column;
  const ctx = new CriterionContext(String(name), method, target, criterion.casefold === true);
  let negate = criterion.not === true;
  let predicate: SQL;
  switch (method) {
    case 'NOT EQUAL':
      negate = !negate;
      predicate = ctx.equals(criterion.value);
      break;
    case 'EQUALS':
      predicate = ctx.equals(criterion.value);
      break;
    case 'CONTAINS':
    case 'STARTSWITH':
    case 'ENDSWITH':
      predicate = ctx.like(criterion.value);
      break;
    case '>':
    case '<':
    case '>=':
    case '<=':
      predicate = ctx.compare(method, ctx.orderedValue(criterion.value));
      break;
    case 'INRANGE':
    case 'RANGE': {
      const [lo, hi] = ctx.pair(criterion.value);
      predicate = sql`${ctx.compare('>=', ctx.orderedValue(lo))} and ${ctx.compare('<=', ctx.orderedValue(hi))}`;
      break;
    }
    case 'ISDEFINED':
      if (criterion.value === false || criterion.value === 'false') negate = !negate;
      else if (criterion.value !== undefined && criterion.value !== null && criterion.value !== true) {
        throw ctx.error('takes no value (or true/false)');
      }
      predicate = sql`${target.expr} is not null`;
      break;
    case 'BEFORE':
      predicate = ctx.instantCompare('<', ctx.instant(criterion.value));
      break;
    case 'AFTER':
      predicate = ctx.instantCompare('>', ctx.instant(criterion.value));
      break;
    case 'DATERANGE': {
      const [from, to] = ctx.pair(criterion.value);
      predicate = sql`${ctx.instantCompare('>=', ctx.instant(from))} and ${ctx.instantCompare('<=', ctx.instant(to))}`;
      break;
    }
    case 'BEFOREDAY':
      predicate = ctx.instantCompare('<', startOfUtcDay(ctx.instant(criterion.value)));
      break;
    case 'AFTERDAY':
      predicate = ctx.instantCompare('>=', startOfUtcDay(ctx.instant(criterion.value)) + DAY_MS);
      break;
    case 'DAYRANGE': {
      const [from, to] = ctx.pair(criterion.value);
      const start = startOfUtcDay(ctx.instant(from));
      const end = startOfUtcDay(ctx.instant(to)) + DAY_MS;
      predicate = sql`${ctx.instantCompare('>=', start)} and ${ctx.instantCompare('<', end)}`;
      break;
    }
    case 'ARRAY_CONTAINS':
      predicate = ctx.inList(criterion.value);
      break;
  }
  return negate ? sql`not coalesce(${predicate}, false)` : predicate;
}

const comparisonOps: Record<string, SQL> = {
  '>': sql.raw('>'),
  '<': sql.raw('<'),
  '>=': sql.raw('>='),
  '<=': sql.raw('<='),
};

class CriterionContext {
  constructor(
    readonly name: string,
    readonly method: Method,
    readonly target: Target,
    readonly casefold: boolean,
  ) {}

  error(problem: string) {
    return badRequest(`Filter ${this.method} on column ${quoteName(this.name)} ${problem}`);
  }

  private unsupported() {
    const kind = this.target.type === 'text[]' ? 'list' : this.target.type;
    return this.error(`is not supported for a ${kind} column`);
  }

  private fold(expr: SQL): SQL {
    return this.casefold ? sql`lower(${expr})` : expr;
  }

  private text(value: unknown): SQL {
    return this.fold(sql`${this.plainText(value)}::text`);
  }

  private number(value: unknown): SQL {
    if (typeof value === 'number' && Number.isFinite(value)) return sql`${value}::numeric`;
    if (
      typeof value === 'string' &&
      /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value) &&
      Number.isFinite(Number(value))
    ) {
      return sql`${value.trim()}::numeric`;
    }
    throw this.error('needs a number value');
  }

  private boolean(value: unknown): SQL {
    if (typeof value === 'boolean') return sql`${value}::boolean`;
    if (typeof value === 'string' && /^(true|false)$/i.test(value))
      return sql`${value.toLowerCase() === 'true'}::boolean`;
    throw this.error('needs a boolean value (true or false)');
  }

  instant(value: unknown): number {
    const ms = parseInstant(value);
    if (ms === undefined) throw this.error('needs a valid date (YYYY-MM-DD or ISO 8601 date-time)');
    return ms;
  }

  private timestamp(value: unknown): SQL {
    return sql`${new Date(this.instant(value)).toISOString()}::timestamptz`;
  }

  /** A bound value of the target's scalar type (for equality and lists). */
  private scalar(value: unknown): SQL {
    switch (this.target.type) {
      case 'text':
      case 'text[]':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return this.timestamp(value);
      case 'boolean':
        return this.boolean(value);
    }
  }

  /** An element of a text[] column, as a row of unnest, for "some element ..." predicates. */
  private someElement(condition: (element: SQL) => SQL): SQL {
    const element = sql`lp_e.v`;
    return sql`exists (select 1 from unnest(${this.target.expr}) as lp_e(v) where ${condition(element)})`;
  }

  equals(value: unknown): SQL {
    if (Array.isArray(value) || value === null || value === undefined) {
      throw this.error('needs a single value (use ISDEFINED to test for empty values)');
    }
    if ((this.target.type === 'text' || this.target.type === 'text[]') && this.casefold) {
      // Case-insensitive equality as ILIKE without wildcards: the planner estimates it from the column's
      // statistics, where lower(column) has none and would mislead it into scanning every row.
      return this.textMatch(`${escapeLike(this.plainText(value))}`);
    }
    if (this.target.type === 'text[]') {
      const bound = this.text(value);
      return this.someElement((e) => sql`${e} = ${bound}`);
    }
    return sql`${this.target.expr} = ${this.scalar(value)}`;
  }

  private plainText(value: unknown): string {
    if (typeof value === 'string') {
      // PostgreSQL text cannot hold NUL; refuse it here rather than fail in the database.
      if (value.includes('\u0000')) throw this.error('cannot contain NUL characters');
      return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    throw this.error('needs a single text value');
  }

  /** LIKE (ILIKE when casefold) of a ready pattern against the text target or some element of a list. */
  private textMatch(pattern: string): SQL {
    const op = sql.raw(this.casefold ? 'ilike' : 'like');
    const bound = sql`${pattern}::text`;
    if (this.target.type === 'text[]') return this.someElement((e) => sql`${e} ${op} ${bound}`);
    return sql`${this.target.expr} ${op} ${bound}`;
  }

  like(value: unknown): SQL {
    if (this.target.type !== 'text' && this.target.type !== 'text[]') {
      throw this.error(`is not supported for a ${this.target.type} column (set tostring to match its text)`);
    }
    const escaped = escapeLike(this.plainText(value));
    return this.textMatch(
      this.method === 'CONTAINS'
        ? `%${escaped}%`
        : this.method === 'STARTSWITH'
          ? `${escaped}%`
          : `%${escaped}`,
    );
  }

  /** A bound value for ordered comparisons; only text, number and timestamp are ordered. */
  orderedValue(value: unknown): SQL {
    if (Array.isArray(value) || value === null || value === undefined)
      throw this.error('needs a single value');
    switch (this.target.type) {
      case 'text':
        return this.text(value);
      case 'number':
        return this.number(value);
      case 'timestamp':
        return this.timestamp(value);
      default:
        throw this.unsupported();
    }
  }

  compare(op: string, bound: SQL): SQL {
    const lhs =
      this.target.type === 'text'
        ? sql`(${this.fold(this.target.expr)}) collate "C"`
        : sql`${this.target.expr}`;
    return sql`${lhs} ${comparisonOps[op]} ${bound}`;
  }

  instantCompare(op: '<' | '>' | '<=' | '>=', ms: number): SQL {
    if (this.target.type !== 'timestamp') throw this.unsupported();
    // The day after 9999-12-31 (AFTERDAY, DAYRANGE) has no timestamp form; every stored instant is before it.
    if (ms > MAX_INSTANT)
      return op === '<' || op === '<=' ? sql`${this.target.expr} is not null` : sql`false`;
    return sql`${this.target.expr} ${comparisonOps[op]} ${new Date(ms).toISOString()}::timestamptz`;
  }

  pair(value: unknown): [unknown, unknown] {
    if (!Array.isArray(value) || value.length !== 2 || value[0] === null || value[1] === null) {
      throw this.error('needs a list of exactly two values [from, to]');
    }
    return [value[0], value[1]];
  }

  inList(value: unknown): SQL {
    const items = Array.isArray(value) ? value : [value];
    if (value === undefined) throw this.error('needs a value or a list of values');
    const matchNull = items.some((v) => v === null);
    const bound = items.filter((v) => v !== null).map((v) => this.scalar(v));
    const parts: SQL[] = [];
    if (bound.length > 0) {
      const list = sql.join(bound, sql`, `);
      if (this.target.type === 'text[]') {
        parts.push(
          this.casefold
            ? this.someElement((e) => sql`lower(${e}) in (${list})`)
            : sql`${this.target.expr} && array[${list}]::text[]`,
        );
      } else {
        const lhs = this.target.type === 'text' ? this.fold(this.target.expr) : this.target.expr;
        parts.push(sql`${lhs} in (${list})`);
      }
    }
    if (matchNull) parts.push(sql`${this.target.expr} is null`);
    if (parts.length === 0) return sql`false`;
    return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` or `)})`;
  }
}

/** Makes user text match literally inside a LIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

export interface SortKey {
  /** API column name, or null for the resource id tie-breaker. */
  name: string | null;
  expr: SQL;
  desc: boolean;
  /** Whether the key can be carried by a continuation token (non-null scalar). */
  keysetSafe: boolean;
  type: ColumnType;
}

export function compileSort(
  resource: Resource,
  sorting: SortRule[] | SortRule | undefined | null,
): SortKey[] {
  const rules = sorting === undefined || sorting === null ? [] : Array.isArray(sorting) ? sorting : [sorting];
  const requested = rules.length > 0 ? rules : resource.defaultSort;
  const keys: SortKey[] = [];
  const seen = new Set<string>();
  for (const rule of requested) {
    if (typeof rule !== 'object' || rule === null) throw badRequest('Invalid sort rule');
    const column = columnOf(resource, rule.name);
    if (!column || column.sortable === false) throw badRequest(`Unknown sort column ${quoteName(rule.name)}`);
    const direction = rule.direction === undefined ? 'asc' : String(rule.direction).toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') {
      throw badRequest(`Invalid sort direction ${quoteName(rule.direction)}: use asc or desc`);
    }
    if (seen.has(rule.name)) continue;
    seen.add(rule.name);
    keys.push({
      name: rule.name,
      expr: column.expr,
      desc: direction === 'desc',
      keysetSafe: column.nullable !== true && column.type !== 'text[]',
      type: column.type,
    });
  }
  const lastDesc = keys.length > 0 ? keys[keys.length - 1].desc : false;
  keys.push({ name: null, expr: resource.id.expr, desc: lastDesc, keysetSafe: true, type: resource.id.type });
  return keys;
}

export function orderBy(keys: SortKey[]): SQL {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(k.desc ? 'desc' : 'asc')}`),
    sql`, `,
  );
}

/** A stable text of the sort, bound into continuation tokens so a token of another sort is refused. */
export function sortSignature(keys: SortKey[]): string {
  return keys.map((k) => `${k.name ?? '#id'}:${k.desc ? 'd' : 'a'}`).join(',');
}

/**
 * The "after this row" predicate for keyset paging. Keys with the same direction are compared as one
 * row value, `(a, id) > ($1, $2)`, which PostgreSQL turns into a single index range. Mixed directions
 * are split into runs of equal direction, each compared as a row value:
 *   R1 >= v1 and (R1 > v1 or (R1 = v1 and (R2 < v2 or (R2 = v2 and ...))))
 * (the leading R1 >= v1 gives the planner a range on the first run's index columns). NULLs cannot be
 * ordered this way, so the caller refuses nullable keys before getting here.
 */
export function keysetPredicate(keys: SortKey[], values: unknown[]): SQL {
  const runs: { desc: boolean; exprs: SQL[]; values: unknown[] }[] = [];
  keys.forEach((k, i) => {
    const last = runs[runs.length - 1];
    if (last && last.desc === k.desc) {
      last.exprs.push(k.expr);
      last.values.push(values[i]);
    } else runs.push({ desc: k.desc, exprs: [k.expr], values: [values[i]] });
  });
  const row = (items: SQL[]) => (items.length === 1 ? items[0] : sql`(${sql.join(items, sql`, `)})`);
  const lhs = (r: (typeof runs)[number]) => row(r.exprs);
  const rhs = (r: (typeof runs)[number]) => row(r.values.map((v) => sql`${v}`));
  const strict = (r: (typeof runs)[number]) => sql`${lhs(r)} ${sql.raw(r.desc ? '<' : '>')} ${rhs(r)}`;
  const chain = (i: number): SQL =>
    i === runs.length - 1
      ? strict(runs[i])
      : sql`(${strict(runs[i])} or (${lhs(runs[i])} = ${rhs(runs[i])} and ${chain(i + 1)}))`;
  if (runs.length === 1) return strict(runs[0]);
  const first = runs[0];
  return sql`${lhs(first)} ${sql.raw(first.desc ? '<=' : '>=')} ${rhs(first)} and ${chain(0)}`;
}
