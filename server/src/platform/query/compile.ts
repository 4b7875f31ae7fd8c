/*
 * Compiles the spec's generic filter and sort rules (spec 000 §3, §4.8) into parameterized SQL over a
 * resource's whitelisted columns. Client text only ever travels as bind parameters; column expressions,
 * operators and keywords come from the resource definition and the tables below. A filter rule is checked
 * and parsed by domain/src/filter-rules.ts (its refusals become 400s here, word for word), which also
 * evaluates the parsed form in memory (the browser narrows cached rows with it); the engine's property test
 * fails when the SQL and that evaluator disagree on a row, so a change of semantics here goes there too.
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
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import {
  type CompareOp,
  type FilterOperand,
  FilterRuleError,
  type FilterTest,
  type ParsedCriterion,
  parseFilter,
  quoteName,
} from '@lp/domain/filter-rules';
import { type SQL, sql } from 'drizzle-orm';
import { badRequest } from '../errors.ts';
import type { ColumnDef, ColumnType, Resource } from './resource.ts';

function columnOf(resource: Resource, name: unknown): ColumnDef | undefined {
  return typeof name === 'string' && Object.hasOwn(resource.columns, name)
    ? resource.columns[name]
    : undefined;
}

/** The kind of each column a filter may name, as the shared filter parser asks for it. */
export const filterKindOf = (resource: Resource) => (name: string) => {
  const column = columnOf(resource, name);
  return column && column.filterable !== false ? column.type : undefined;
};

export function compileFilter(resource: Resource, filter: FilterRule | undefined | null): SQL | undefined {
  const kindOf = filterKindOf(resource);
  let parsed: ReturnType<typeof parseFilter>;
  try {
    parsed = parseFilter(kindOf, filter);
  } catch (e) {
    // The shared parser's refusals are the API's 400s, word for word.
    if (e instanceof FilterRuleError) throw badRequest(e.message);
    throw e;
  }
  if (!parsed) return undefined;
  const parts = parsed.criteria.map((c) => sql`(${compileCriterion(resource, c)})`);
  return sql.join(parts, parsed.any ? sql` or ` : sql` and `);
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

/** The SQL backend of a criterion @lp/domain/filter-rules has checked and parsed. */
function compileCriterion(resource: Resource, criterion: ParsedCriterion): SQL {
  const column = resource.columns[criterion.name];
  const expr = criterion.tostring ? textForm(column) : column.expr;
  const predicate = new CriterionSql(expr, criterion.target, criterion.casefold).test(criterion.test);
  return criterion.negate ? sql`not coalesce(${predicate}, false)` : predicate;
}

const comparisonOps: Record<CompareOp, SQL> = {
  '>': sql.raw('>'),
  '<': sql.raw('<'),
  '>=': sql.raw('>='),
  '<=': sql.raw('<='),
};

class CriterionSql {
  readonly expr: SQL;
  readonly type: ColumnType;
  readonly casefold: boolean;

  constructor(expr: SQL, type: ColumnType, casefold: boolean) {
    this.expr = expr;
    this.type = type;
    this.casefold = casefold;
  }

  private fold(expr: SQL): SQL {
    return this.casefold ? sql`lower(${expr})` : expr;
  }

  /** A parsed operand as a bound parameter of its type; numbers as numeric (exact for every number column). */
  private operand(o: FilterOperand): SQL {
    switch (o.kind) {
      case 'text':
        return this.fold(sql`${o.text}::text`);
      case 'number':
        return sql`${o.literal}::numeric`;
      case 'timestamp':
        return sql`${new Date(o.ms).toISOString()}::timestamptz`;
      case 'boolean':
        return sql`${o.value}::boolean`;
    }
  }

  /** An element of a text[] column, as a row of unnest, for "some element ..." predicates. */
  private someElement(condition: (element: SQL) => SQL): SQL {
    const element = sql`lp_e.v`;
    return sql`exists (select 1 from unnest(${this.expr}) as lp_e(v) where ${condition(element)})`;
  }

  /** LIKE (ILIKE when casefold) of a ready pattern against the text target or some element of a list. */
  private textMatch(pattern: string): SQL {
    const op = sql.raw(this.casefold ? 'ilike' : 'like');
    const bound = sql`${pattern}::text`;
    if (this.type === 'text[]') return this.someElement((e) => sql`${e} ${op} ${bound}`);
    return sql`${this.expr} ${op} ${bound}`;
  }

  test(t: FilterTest): SQL {
    switch (t.op) {
      case 'equals':
        if (t.operand.kind === 'text' && this.casefold) {
          // Case-insensitive equality as ILIKE without wildcards: the planner estimates it from the column's
          // statistics, where lower(column) has none and would mislead it into scanning every row.
          return this.textMatch(escapeLike(t.operand.text));
        }
        if (this.type === 'text[]') {
          const bound = this.operand(t.operand);
          return this.someElement((e) => sql`${e} = ${bound}`);
        }
        return sql`${this.expr} = ${this.operand(t.operand)}`;
      case 'like': {
        const escaped = escapeLike(t.text);
        return this.textMatch(
          t.match === 'contains' ? `%${escaped}%` : t.match === 'startsWith' ? `${escaped}%` : `%${escaped}`,
        );
      }
      case 'compare': {
        const lhs = this.type === 'text' ? sql`(${this.fold(this.expr)}) collate "C"` : sql`${this.expr}`;
        return sql`${lhs} ${comparisonOps[t.cmp]} ${this.operand(t.operand)}`;
      }
      case 'range':
        return sql`${this.test(t.from)} and ${this.test(t.to)}`;
      case 'defined':
        return sql`${this.expr} is not null`;
      case 'never':
        return sql`false`;
      case 'inList':
        return this.inList(t.operands, t.matchNull);
    }
  }

  private inList(operands: FilterOperand[], matchNull: boolean): SQL {
    const bound = operands.map((o) => this.operand(o));
    const parts: SQL[] = [];
    if (bound.length > 0) {
      const list = sql.join(bound, sql`, `);
      if (this.type === 'text[]') {
        parts.push(
          this.casefold
            ? this.someElement((e) => sql`lower(${e}) in (${list})`)
            : sql`${this.expr} && array[${list}]::text[]`,
        );
      } else {
        const lhs = this.type === 'text' ? this.fold(this.expr) : this.expr;
        parts.push(sql`${lhs} in (${list})`);
      }
    }
    if (matchNull) parts.push(sql`${this.expr} is null`);
    if (parts.length === 0) return sql`false`;
    return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` or `)})`;
  }
}

/** Makes user text match literally inside a LIKE pattern (backslash is PostgreSQL's default escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
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
