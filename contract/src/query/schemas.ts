import { z } from 'zod';
import { successOf } from '../common/envelope.ts';

/** Filter methods of the generic filter rule (spec 000 §3). */
export const filterMethods = [
  'CONTAINS',
  'STARTSWITH',
  'ENDSWITH',
  'ARRAY_CONTAINS',
  'EQUALS',
  'NOT EQUAL',
  '>',
  '<',
  '>=',
  '<=',
  'INRANGE',
  'ISDEFINED',
  'BEFORE',
  'AFTER',
  'DATERANGE',
  'BEFOREDAY',
  'AFTERDAY',
  'DAYRANGE',
  'RANGE',
] as const;
export type FilterMethod = (typeof filterMethods)[number];

const scalar = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);

export const criterionSchema = z.strictObject({
  name: z.string().min(1).max(100),
  method: z.enum(filterMethods),
  value: z.union([scalar, z.array(scalar).max(1000)]).optional(),
  not: z.boolean().optional(),
  casefold: z.boolean().optional(),
  tostring: z.boolean().optional(),
});
export type Criterion = z.infer<typeof criterionSchema>;

export const filterRuleSchema = z.strictObject({
  condition: z.enum(['ANY', 'ALL', 'any', 'all']).default('ALL'),
  criteria: z.array(criterionSchema).max(100).default([]),
});
export type FilterRule = z.infer<typeof filterRuleSchema>;

export const sortRuleSchema = z.strictObject({
  name: z.string().min(1).max(100),
  direction: z.enum(['asc', 'desc', 'ASC', 'DESC']).default('asc'),
});
export type SortRule = z.infer<typeof sortRuleSchema>;

/** Sorting may be sent as one rule or a list of rules. */
export const sortingSchema = z
  .union([sortRuleSchema, z.array(sortRuleSchema).max(10)])
  .transform((s) => (Array.isArray(s) ? s : [s]));

export const pageRequestSchema = z.strictObject({
  filter: filterRuleSchema.optional(),
  sorting: sortingSchema.optional(),
  offset: z.number().int().min(0).max(10_000_000).optional(),
  token: z.string().max(2000).nullable().optional(),
  // Spec 000/001 §9: maximum size 1000 per call; a table may allow less (its resource's maxLimit) or, where
  // the spec asks for it, more (the usage CSV export, contract/src/transactions).
  limit: z.number().int().min(1).max(1000).optional(),
});
export type PageRequest = z.input<typeof pageRequestSchema>;

export const countRequestSchema = z.strictObject({ filter: filterRuleSchema.optional() });

export const distinctRequestSchema = z.strictObject({
  filter: filterRuleSchema.optional(),
  key: z.string().min(1).max(100),
  limit: z.number().int().min(1).max(10_000).optional(),
});

export const countResponseSchema = successOf(z.number().int());
export const distinctResponseSchema = successOf(
  z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
);

/**
 * How the query engine reads, compares and parses a column's values (server/src/platform/query/compile.ts).
 * Each server table declares its columns' kinds once, here in the contract: the server's resource takes them, and
 * the browser's data service evaluates a narrowed filter in memory with them (domain/src/filter-rules.ts).
 */
export type ColumnKind = 'text' | 'number' | 'timestamp' | 'boolean' | 'text[]';
export type ColumnKinds = Readonly<Record<string, ColumnKind>>;
