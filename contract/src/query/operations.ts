import type { z } from 'zod';
import { defineOperation } from '../common/operation.ts';
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
  page: { body: P; response: R };
  count: { body: C };
  distinct: { body: D };
}

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
      auth: 'session',
      body: spec.page.body,
      response: spec.page.response,
    }),
    count: defineOperation({
      operationId: `count${spec.name}`,
      method: 'post',
      path: `${spec.path}/count`,
      summary: `Count of ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)} matching a filter`,
      auth: 'session',
      body: spec.count.body,
      response: countResponseSchema,
    }),
    distinct: defineOperation({
      operationId: `distinct${spec.name}`,
      method: 'post',
      path: `${spec.path}/distinct`,
      summary: `Distinct values of one column of ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)}`,
      auth: 'session',
      body: spec.distinct.body,
      response: distinctResponseSchema,
    }),
  };
}
