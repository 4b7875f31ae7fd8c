import type { z } from 'zod';
import { type DeclaredStatus, defineOperation } from '../common/operation.ts';
import { countResponseSchema, distinctResponseSchema } from './schemas.ts';

interface QueryResourceSpec<
  P extends z.ZodType,
  R extends z.ZodType,
  C extends z.ZodType,
  D extends z.ZodType,
> {
  /** PascalCase plural: operationIds become list{name}, count{name}, distinct{name}. */
  name: string;
  /** The page call's path; count and distinct answer at `{path}/count` and `{path}/distinct`. */
  path: string;
  summary: string;
  /** Who sees which rows of this table (a sentence or two; the paging rules are added for every table). */
  description: string;
  page: { body: P; response: R; statuses?: Partial<Record<DeclaredStatus, string>> };
  count: { body: C };
  distinct: { body: D };
}

const filterRule =
  '`filter` is the generic filter rule (spec 000 §3): `condition` ANY or ALL over `criteria`, each a column `name`, one of the filter methods and a `value`, with `not`, `casefold` and `tostring`. An unknown column, a method the column does not take or a value of the wrong kind is a 400 naming it.';

/** The three calls of a server-side table (spec 000 §7): a page, the count of a filter, distinct values. */
export function queryOperations<
  P extends z.ZodType,
  R extends z.ZodType,
  C extends z.ZodType,
  D extends z.ZodType,
>(spec: QueryResourceSpec<P, R, C, D>) {
  return {
    page: defineOperation({
      operationId: `list${spec.name}`,
      method: 'post',
      path: spec.path,
      summary: `${spec.summary} (filter, sort, page by offset or continuation token)`,
      description: `${spec.description}\n\n${filterRule} \`sorting\` is one rule or a list of up to 10 (\`name\`, \`direction\`). A page holds \`limit\` rows (at most 1000 unless stated); the answer's \`token\` continues after its last row (send it back with the same filter and sorting instead of \`offset\`; null on the last page).`,
      auth: 'session',
      // A query changes nothing, though it is a POST (its filter is a body).
      effect: 'read',
      body: spec.page.body,
      response: spec.page.response,
      ...(spec.page.statuses && { statuses: spec.page.statuses }),
    }),
    count: defineOperation({
      operationId: `count${spec.name}`,
      method: 'post',
      path: `${spec.path}/count`,
      summary: `Count of ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)} matching a filter`,
      description: `${spec.description}\n\nThe number of rows the filter selects. ${filterRule}`,
      auth: 'session',
      effect: 'read',
      body: spec.count.body,
      response: countResponseSchema,
    }),
    distinct: defineOperation({
      operationId: `distinct${spec.name}`,
      method: 'post',
      path: `${spec.path}/distinct`,
      summary: `Distinct values of one column of ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)}`,
      description: `${spec.description}\n\nThe distinct values of column \`key\` among the rows the filter selects, for a column filter's list of values; more than \`limit\` of them is a 400 (Too many distinct values). ${filterRule}`,
      auth: 'session',
      effect: 'read',
      body: spec.distinct.body,
      response: distinctResponseSchema,
    }),
  };
}
