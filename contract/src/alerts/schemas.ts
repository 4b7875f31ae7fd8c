import { z } from 'zod';
import { instantSchema, instantText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import type { ColumnKinds } from '../query/schemas.ts';
import { countRequestSchema, distinctRequestSchema, pageRequestSchema } from '../query/schemas.ts';

/** Spec 000 §3 Notification. Kept here (not imported from domain) so the contract stays dependency-free. */
export const alertCategoryValues = ['OK', 'INFO', 'WARNING', 'CRITICAL'] as const;
export const alertStatusValues = ['ACTIVE', 'RESOLVED'] as const;

/** An alert as every alert call answers it; dates are ISO 8601 strings (UTC). */
export const alertSchema = z.object({
  id: z.number().int(),
  category: z.enum(alertCategoryValues),
  status: z.enum(alertStatusValues),
  date: instantText,
  expires: instantText.nullable(),
  service: z.array(z.string()),
  description: z.string(),
  /** Link name -> URL, shown as "See More" links. */
  links: z.record(z.string(), z.string()),
});
export type Alert = z.infer<typeof alertSchema>;

/**
 * POST /api/notifications (+ /count, /distinct): the generic query of spec 000 §7 over the columns
 * id, category, severity (OK 0 < INFO 1 < WARNING 2 < CRITICAL 3), status, date, expires, service,
 * description and resolved (boolean: RESOLVED and expired). Two alert-specific criteria:
 * - {name: 'category', method: 'RANGE' | 'INRANGE', value: [from, to]}: categories from..to in
 *   severity order, e.g. ['WARNING', 'CRITICAL'].
 * - {name: 'date' | 'expires', method: 'EQUALS', value: 'YYYY-MM-DD'}: that whole UTC day; only years
 *   19xx and 20xx are accepted.
 */
export const alertsPageRequestSchema = pageRequestSchema;
export const alertsCountRequestSchema = countRequestSchema;
export const alertsDistinctRequestSchema = distinctRequestSchema;

/** Rows of the generic query also say whether the alert counts as resolved, so a browser can filter them too. */
export const alertRowSchema = alertSchema.extend({ resolved: z.boolean() });
export type AlertRow = z.infer<typeof alertRowSchema>;

export const alertsPageResponseSchema = successOf(z.array(alertRowSchema), { token: z.string().nullable() });
export const activeAlertsResponseSchema = successOf(z.array(alertSchema));
export const alertResponseSchema = successOf(alertSchema);

const httpUrl = z
  .string()
  .max(2000)
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'expected an http(s) URL' },
  );

/**
 * POST /api/notifications/admin (create) and PUT /api/notifications/admin/{id} (edit, full replacement).
 * date defaults to now on create; expires is optional and must be after date.
 */
export const alertInputSchema = z
  .strictObject({
    category: z.enum(alertCategoryValues),
    service: z.array(z.string().trim().min(1).max(100)).min(1).max(20),
    description: z.string().trim().min(1).max(2000),
    date: instantSchema.optional(),
    expires: instantSchema.nullable().optional(),
    links: z
      .record(z.string().trim().min(1).max(100), httpUrl)
      .refine((l) => Object.keys(l).length <= 20, { message: 'at most 20 links' })
      .default({}),
  })
  .refine((a) => !a.expires || !a.date || Date.parse(a.expires) > Date.parse(a.date), {
    message: 'expires must be after date',
    path: ['expires'],
  });
export type AlertInput = z.input<typeof alertInputSchema>;

export const alertIdParamsSchema = z.strictObject({
  id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
});

/** Column kinds of the alerts table (one declaration: the server's resource and the browser use it). */
export const alertColumnKinds = {
  id: 'number',
  category: 'text',
  /** Computed from category (OK < INFO < WARNING < CRITICAL) so a category range is a numeric range. */
  severity: 'number',
  status: 'text',
  date: 'timestamp',
  expires: 'timestamp',
  service: 'text[]',
  description: 'text',
  links: 'text',
  resolved: 'boolean',
} as const satisfies ColumnKinds;
