import type { ColumnKind, ColumnKinds } from '@lp/contract/query/schemas';
import type { SQL } from 'drizzle-orm';

/** How the query engine reads, compares and parses values of a column (see the comment in compile.ts). */
export type ColumnType = ColumnKind;

export interface ColumnDef {
  /** SQL expression over the resource's FROM clause; written by developers, never by clients. */
  expr: SQL;
  type: ColumnType;
  /** Declares that the value may be NULL; such columns cannot drive continuation tokens. */
  nullable?: boolean;
  /** Default true. */
  sortable?: boolean;
  /** Default true. */
  filterable?: boolean;
}

/**
 * A table as the generic query engine sees it: the whitelist of API column names a client may
 * select, filter, sort and ask distinct values of. Nothing outside this whitelist reaches SQL.
 */
export interface Resource {
  /** Goes into continuation tokens so a token of another resource is refused. */
  name: string;
  /** FROM clause including joins, e.g. sql`accounts a`. */
  from: SQL;
  /** API column name -> definition, e.g. { AccountID: { expr: sql`a.customer_number`, type: 'text' } }. */
  columns: Record<string, ColumnDef>;
  /** Unique, non-null tie-breaker appended to every sort so the order is total and deterministic. */
  id: { expr: SQL; type: 'text' | 'number' };
  /** Used when the request has no sort rules. */
  defaultSort: { name: string; direction: 'asc' | 'desc' }[];
  /** Largest page a request may ask for; default 500. */
  maxLimit?: number;
  /** Largest number of distinct values returned; default 500. */
  maxDistinct?: number;
}

export const DEFAULT_MAX_LIMIT = 500;
export const DEFAULT_MAX_DISTINCT = 500;
/** Page size when the request gives none (spec 000 §9: fetch size 100). */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * A resource's client columns from the kinds the contract declares for them (so the browser evaluates narrowed
 * filters with the same kinds): each declared column needs its SQL, and only declared columns are accepted.
 */
export function typedColumns<K extends ColumnKinds>(
  kinds: K,
  definitions: { [P in keyof K]: Omit<ColumnDef, 'type'> },
): Record<keyof K & string, ColumnDef> {
  return Object.fromEntries(
    Object.entries(definitions).map(([name, def]) => [
      name,
      { ...(def as Omit<ColumnDef, 'type'>), type: kinds[name] },
    ]),
  ) as Record<keyof K & string, ColumnDef>;
}
