import { z } from 'zod';
import { instantTextSchema } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * Table names used across the product (spec 000 §3). The two activations tables are saved per customer and
 * table (spec 002 §2) but the spec does not name them: 'activationsAssigned' and 'activationsAvailable' are ours.
 */
export const tableNames = [
  'emailList',
  'activeEntitlements',
  'inActiveEntitlements',
  'UsageTransactions',
  'elasticTransaction',
  'leaseAndPerpetualsActive',
  'leaseAndPerpetualsInactive',
  'manageActivationsActive',
  'manageActivationsInActive',
  'activationsAssigned',
  'activationsAvailable',
  'fsaHistory',
  'fsaActiveEntitlements',
  'fsaInActiveEntitlements',
  'notificationsResolved',
  'auditLog',
  // Web licensing (decision 071): the pools, people and groups tables of /web-assignments.
  'webPools',
  'webUsers',
  'webGroups',
  // /web-transactions (decision 071).
  'webTransactions',
] as const;
export type TableName = (typeof tableNames)[number];

const colId = z.string().min(1).max(100);
const sortDir = z.enum(['asc', 'desc']).nullable().optional();

export const sortModelSchema = z
  .array(
    z.strictObject({
      colId,
      sort: z.enum(['asc', 'desc']),
      sortIndex: z.number().int().min(0).nullable().optional(),
    }),
  )
  .max(50);

/** AG Grid column state: the fields the view compares and restores, and the rest AG Grid's state carries. */
export const columnStateSchema = z.strictObject({
  colId,
  sort: sortDir,
  sortIndex: z.number().int().min(0).nullable().optional(),
  hide: z.boolean().nullable().optional(),
  width: z.number().min(0).max(5000).optional(),
  pinned: z.enum(['left', 'right']).nullable().optional(),
  flex: z.number().nullable().optional(),
  // Sent by the spec's client, which saves AG Grid's whole column state (spec 000 §3 "list of column states");
  // not read: the portal's grids do not group, pivot or aggregate.
  aggFunc: z.string().max(100).nullable().optional(),
  rowGroup: z.boolean().nullable().optional(),
  rowGroupIndex: z.number().int().min(0).nullable().optional(),
  pivot: z.boolean().nullable().optional(),
  pivotIndex: z.number().int().min(0).nullable().optional(),
});
export type ColumnState = z.infer<typeof columnStateSchema>;

/** AG Grid filter model: per column a filter description; bounded so a preference cannot grow without limit. */
const jsonValue: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    z.string().max(2000),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue).max(1000),
    z.record(z.string().max(100), jsonValue),
  ]),
);
export const filterModelSchema = z
  .record(colId, z.record(z.string().max(100), jsonValue))
  .refine((m) => Object.keys(m).length <= 100, {
    message: 'too many filtered columns',
  });

const isoDate = instantTextSchema;

/** Stored size of one saved view (its JSON text). */
export const MAX_PREF_BYTES = 65_536;

export const tablePrefSchema = z
  .strictObject({
    customerNumber: customerNumberField,
    tableName: z.enum(tableNames),
    filterModel: filterModelSchema.nullable().optional(),
    sortModel: sortModelSchema.nullable().optional(),
    columnOrder: z.array(columnStateSchema).max(200).nullable().optional(),
    dateRange: z.string().max(40).nullable().optional(),
    startDate: isoDate.nullable().optional(),
    endDate: isoDate.nullable().optional(),
    activeOnly: z.boolean().nullable().optional(),
  })
  // Nesting is bounded for every body (decision 020); the stored size is bounded here.
  .refine((p) => JSON.stringify(p).length <= MAX_PREF_BYTES, {
    message: `a saved view must be at most ${MAX_PREF_BYTES / 1024} KB`,
  });
export type TablePref = z.infer<typeof tablePrefSchema>;

export const savePrefsRequestSchema = z.strictObject({ tables: z.array(tablePrefSchema).min(1).max(50) });
export const prefsResponseSchema = successOf(z.array(tablePrefSchema));
