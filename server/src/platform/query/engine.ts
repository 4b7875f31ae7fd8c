import { createHash } from 'node:crypto';
import { messages } from '@lp/contract/common/errors';
import type { FilterRule, SortRule } from '@lp/contract/query/schemas';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database, Db } from '../../db/database.ts';
import { badRequest } from '../errors.ts';
import {
  compileFilter,
  compileSort,
  keysetPredicate,
  orderBy,
  type SortKey,
  sortSignature,
} from './compile.ts';
import {
  type ColumnType,
  DEFAULT_MAX_DISTINCT,
  DEFAULT_MAX_LIMIT,
  DEFAULT_PAGE_SIZE,
  type Resource,
} from './resource.ts';
import { type CursorBinding, type KeyValue, signCursor, verifyCursor } from './token.ts';

/*
 * The generic query engine (issue 2 §6): page, count and distinct over a Resource (resource.ts) with the
 * filter and sort rules compiled by compile.ts.
 *
 * Paging modes of queryPage:
 * - offset: request.offset (default 0) and limit. The response token is a cursor for the next page when
 *   more rows exist and the sort can be continued by token; null otherwise.
 * - token: request.token is a cursor (continue after it), or null without an offset (start). Keyset
 *   paging with row-value predicates (compile.ts keysetPredicate); a sort on a nullable or list column
 *   is refused with "fetch by continuation token is not supported". The token is null on the last page.
 * One extra row (limit+1) is fetched to know whether another page exists, so no count is needed.
 * Rows are keyed by API column names with raw values: Date for timestamps, number for numbers.
 */
export interface PageRequest {
  filter?: FilterRule;
  sorting?: SortRule[];
  offset?: number;
  /** A string continues after that cursor; null (without offset) starts token paging. */
  token?: string | null;
  limit?: number;
}

export interface PageOptions {
  /** Extra condition always ANDed (e.g. the account restriction). */
  scope?: SQL;
  request: PageRequest;
  secret: Buffer;
}

export interface Page {
  rows: Record<string, unknown>[];
  /** Cursor for the next page; null when this is the last page (or, in offset mode, when the sort cannot be continued by token). */
  token: string | null;
}

const dialect = new PgDialect();
const ID_ALIAS = '__lp_id';

async function runRows(db: Db, query: SQL): Promise<Record<string, unknown>[]> {
  const result = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
  return result.rows;
}

function whereClause(parts: (SQL | undefined)[]): SQL {
  const present = parts.filter((p): p is SQL => p !== undefined);
  if (present.length === 0) return sql``;
  return sql` where ${sql.join(
    present.map((p) => sql`(${p})`),
    sql` and `,
  )}`;
}

/** Hash of the compiled filter and scope: a token is only valid for the same rows it was made for. */
function filterHash(where: SQL): string {
  const q = dialect.sqlToQuery(where);
  return createHash('sha256')
    .update(JSON.stringify([q.sql, q.params]))
    .digest('base64url')
    .slice(0, 22);
}

function positiveInt(value: unknown, what: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${what} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** PostgreSQL's timestamp text ('2024-05-01 10:00:00.123456+02') into a Date; drivers here return text. */
export function parseDbTimestamp(value: string): Date {
  const m =
    /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)?([+-]\d{2})?(?::?(\d{2}))?(?::?(\d{2}))?$/.exec(
      value,
    );
  if (!m) return new Date(value);
  const fraction = m[3] ? m[3].slice(0, 4).padEnd(4, '0') : '.000';
  const offset = m[4] ? `${m[4]}:${m[5] ?? '00'}` : 'Z';
  return new Date(`${m[1]}T${m[2]}${fraction}${offset}`);
}

/** Driver values into the engine's raw values: Date for timestamps, number for numbers. */
function normalize(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'timestamp') return typeof value === 'string' ? parseDbTimestamp(value) : value;
  if (type === 'number' && (typeof value === 'string' || typeof value === 'bigint')) return Number(value);
  return value;
}

/** A key value exactly as the database gave it, so the next page starts precisely after this row. */
function cursorValue(value: unknown): KeyValue | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return null;
}

/** Renders a parameterless fragment once into plain text: rendering drizzle's nested chunks per request costs more than the query itself on a fast index scan. */
function prerender(fragment: SQL): SQL {
  const q = dialect.sqlToQuery(fragment);
  return q.params.length === 0 ? sql.raw(q.sql) : fragment;
}

interface StaticParts {
  select: SQL;
  from: SQL;
  /** Columns whose driver value needs converting (timestamps, numbers); the rest are copied as they are. */
  columns: { name: string; convert: ColumnType | null }[];
}
const staticCache = new WeakMap<Resource, StaticParts>();
function staticParts(resource: Resource): StaticParts {
  let parts = staticCache.get(resource);
  if (!parts) {
    const select = sql.join(
      [
        ...Object.entries(resource.columns).map(([name, c]) => sql`${c.expr} as ${sql.identifier(name)}`),
        sql`${resource.id.expr} as ${sql.identifier(ID_ALIAS)}`,
      ],
      sql`, `,
    );
    parts = {
      select: prerender(select),
      from: prerender(resource.from),
      columns: Object.entries(resource.columns).map(([name, c]) => ({
        name,
        convert: c.type === 'timestamp' || c.type === 'number' ? c.type : null,
      })),
    };
    staticCache.set(resource, parts);
  }
  return parts;
}

export interface CompiledPage {
  query: SQL;
  keys: SortKey[];
  binding: CursorBinding;
  limit: number;
  keyset: boolean;
}

/** Builds the page query without running it (queryPage runs it; the benchmark runs it raw). */
export function compilePageQuery(resource: Resource, opts: PageOptions): CompiledPage {
  const { request } = opts;
  const maxLimit = resource.maxLimit ?? DEFAULT_MAX_LIMIT;
  const limit =
    request.limit === undefined || request.limit === null
      ? Math.min(DEFAULT_PAGE_SIZE, maxLimit)
      : positiveInt(request.limit, 'limit', 1, maxLimit);
  const offset =
    request.offset === undefined || request.offset === null
      ? undefined
      : positiveInt(request.offset, 'offset', 0, 1e9);
  const tokenGiven = typeof request.token === 'string' && request.token !== '';
  if (tokenGiven && offset) throw badRequest('offset and token cannot be combined');
  // A string token continues; an explicit null token without offset starts token paging.
  const keyset = tokenGiven || (request.token === null && offset === undefined);
  const keys = compileSort(resource, request.sorting);
  if (keyset && !keys.every((k) => k.keysetSafe)) throw badRequest(messages.tokenNotSupported);
  const filter = compileFilter(resource, request.filter);
  const binding: CursorBinding = {
    r: resource.name,
    s: sortSignature(keys),
    f: filterHash(whereClause([opts.scope, filter])),
  };
  const after = tokenGiven
    ? keysetPredicate(keys, verifyCursor(request.token, binding, opts.secret, keys.length))
    : undefined;
  const { select, from } = staticParts(resource);
  // limit+1 rows tell whether another page exists without a count; numbers are validated integers.
  const query = sql`select ${select} from ${from}${whereClause([opts.scope, filter, after])} order by ${orderBy(keys)} limit ${sql.raw(String(limit + 1))}${offset ? sql.raw(` offset ${offset}`) : sql``}`;
  return { query, keys, binding, limit, keyset };
}

export async function queryPage(db: Db, resource: Resource, opts: PageOptions): Promise<Page> {
  const compiled = compilePageQuery(resource, opts);
  const raw = await runRows(db, compiled.query);
  const more = raw.length > compiled.limit;
  const pageRows = more ? raw.slice(0, compiled.limit) : raw;
  const convert = rowConverter(resource);
  return {
    rows: pageRows.map(convert),
    token: pageToken(compiled, pageRows[pageRows.length - 1], more, opts.secret),
  };
}

/**
 * queryPage for large pages (decision 021): the same query, rows and token, but the rows come from a
 * database cursor `chunkSize` at a time and are yielded chunk by chunk, so memory stays flat in the page
 * size. The generator's return value is the token, known only after the page's last row.
 */
export async function* streamPage(
  database: Pick<Database, 'streamRows'>,
  resource: Resource,
  opts: PageOptions & { chunkSize: number },
): AsyncGenerator<Record<string, unknown>[], string | null> {
  const compiled = compilePageQuery(resource, opts);
  const convert = rowConverter(resource);
  let sent = 0;
  let last: Record<string, unknown> | undefined;
  let more = false;
  for await (const raw of database.streamRows(compiled.query, opts.chunkSize)) {
    const rows = raw.length > compiled.limit - sent ? raw.slice(0, compiled.limit - sent) : raw;
    more = rows.length < raw.length;
    if (rows.length > 0) {
      sent += rows.length;
      last = rows[rows.length - 1];
      yield rows.map(convert);
    }
    if (more) break;
  }
  return pageToken(compiled, last, more, opts.secret);
}

function rowConverter(resource: Resource) {
  const { columns } = staticParts(resource);
  return (r: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) out[c.name] = c.convert ? normalize(c.convert, r[c.name]) : (r[c.name] ?? null);
    return out;
  };
}

/** The cursor after the page's last row when more rows exist and the sort can be continued by token. */
function pageToken(
  compiled: CompiledPage,
  last: Record<string, unknown> | undefined,
  more: boolean,
  secret: Buffer,
): string | null {
  if (!more || !last || !compiled.keys.every((k) => k.keysetSafe)) return null;
  const values = compiled.keys.map((k) => cursorValue(last[k.name ?? ID_ALIAS]));
  if (values.every((v) => v !== null)) return signCursor(compiled.binding, values as KeyValue[], secret);
  if (compiled.keyset) throw badRequest(messages.tokenNotSupported);
  return null;
}

export interface CountOptions {
  scope?: SQL;
  filter?: FilterRule;
  /** Above this many rows the count is refused (spec: "total number of records exceeds maximum allowed length"). */
  cap?: number;
}

export function compileCountQuery(resource: Resource, opts: CountOptions): SQL {
  const where = whereClause([opts.scope, compileFilter(resource, opts.filter)]);
  if (opts.cap === undefined) return sql`select count(*) as n from ${resource.from}${where}`;
  const cap = positiveInt(opts.cap, 'cap', 0, 1e9);
  // Counting at most cap+1 rows keeps the cost bounded however large the table is.
  return sql`select count(*) as n from (select 1 from ${resource.from}${where} limit ${sql.raw(String(cap + 1))}) lp_c`;
}

export async function queryCount(db: Db, resource: Resource, opts: CountOptions): Promise<number> {
  const rows = await runRows(db, compileCountQuery(resource, opts));
  const n = Number(rows[0]?.n ?? 0);
  if (opts.cap !== undefined && n > opts.cap) throw badRequest(messages.exceedsMaxLength);
  return n;
}

export interface DistinctOptions {
  scope?: SQL;
  filter?: FilterRule;
  /** API column name. */
  key: string;
  /** Default and upper bound: resource.maxDistinct (500). */
  limit?: number;
  /**
   * A faster statement the caller knows selects the same values in the same order for this filter (e.g. from a
   * rollup), given the number of rows to select (limit + 1); null leaves the engine's own.
   */
  faster?: (rows: number) => SQL | null;
}

function distinctPlan(resource: Resource, opts: DistinctOptions) {
  const column =
    typeof opts.key === 'string' && Object.hasOwn(resource.columns, opts.key)
      ? resource.columns[opts.key]
      : undefined;
  if (!column) throw badRequest(`Unknown column '${String(opts.key).slice(0, 60)}'`);
  const max = resource.maxDistinct ?? DEFAULT_MAX_DISTINCT;
  const limit = opts.limit === undefined ? max : Math.min(positiveInt(opts.limit, 'limit', 1, 1e6), max);
  const where = whereClause([opts.scope, compileFilter(resource, opts.filter)]);
  const faster = opts.faster?.(limit + 1);
  // For a list column the distinct values are its elements: what ARRAY_CONTAINS filters on.
  const query = faster
    ? faster
    : column.type === 'text[]'
      ? sql`select distinct lp_e.v as v from ${resource.from}, lateral unnest(${column.expr}) as lp_e(v)${where} order by 1 limit ${sql.raw(String(limit + 1))}`
      : sql`select distinct ${column.expr} as v from ${resource.from}${where} order by 1 limit ${sql.raw(String(limit + 1))}`;
  return { query, limit, type: column.type === 'text[]' ? ('text' as const) : column.type };
}

export function compileDistinctQuery(resource: Resource, opts: DistinctOptions): SQL {
  return distinctPlan(resource, opts).query;
}

export async function queryDistinct(db: Db, resource: Resource, opts: DistinctOptions): Promise<unknown[]> {
  const plan = distinctPlan(resource, opts);
  const rows = await runRows(db, plan.query);
  if (rows.length > plan.limit) throw badRequest(messages.tooManyDistinct);
  return rows.map((r) => normalize(plan.type, r.v));
}
