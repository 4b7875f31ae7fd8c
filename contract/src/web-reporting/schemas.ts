import { denialReasons } from '@lp/domain/web-seats';
import { z } from 'zod';
import { dayText, instantText } from '../common/dates.ts';
import { successOf } from '../common/envelope.ts';
import { customerNumberField } from '../common/fields.ts';

/**
 * Web licensing's reports (issue 24, decision 071): utilisation of the account's pools over a period, the hour by
 * weekday heat map, denials with the seats that would have avoided them, and the named seats nobody uses. Days and
 * hours are UTC; a period is whole days, `to` included, at most a year.
 */

/** The longest period a report covers. */
export const REPORT_MAX_DAYS = 366;

/** A calendar day, YYYY-MM-DD, of the years 1970–9998 (so the day after the last one is still a day). */
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A day is YYYY-MM-DD.')
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return !Number.isNaN(t) && new Date(t).toISOString().startsWith(d) && d >= '1970' && d < '9999';
  }, 'A day is YYYY-MM-DD.');
const dayMs = 86_400_000;

export const reportPeriodSchema = z
  .strictObject({ customerNumber: customerNumberField, from: day, to: day })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] })
  .refine(
    (p) => (Date.parse(`${p.to}T00:00:00Z`) - Date.parse(`${p.from}T00:00:00Z`)) / dayMs < REPORT_MAX_DAYS,
    { message: `A report covers at most ${REPORT_MAX_DAYS} days.`, path: ['to'] },
  );
export type ReportPeriod = z.infer<typeof reportPeriodSchema>;

/** One day of a pool: its seats and the most sessions open at once that day. */
const dayUseSchema = z.object({ day: dayText, seats: z.number().int(), peak: z.number().int() });

/** A group's use of a shared pool (sessions that counted to its guarantee or cap). */
const groupUseSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  guaranteed: z.number().int(),
  cap: z.number().int().nullable(),
  activeUsers: z.number().int(),
  peakConcurrent: z.number().int(),
});

export const poolUtilisationSchema = z.object({
  partNumber: z.string(),
  productName: z.string(),
  kind: z.enum(['named', 'shared']),
  seats: z.number().int(),
  /** Named seats held now (named pools; 0 for shared ones). */
  assigned: z.number().int(),
  /** People with a session in the period. */
  activeUsers: z.number().int(),
  /** The most sessions open at once in the period. */
  peakConcurrent: z.number().int(),
  /** Every day of the period: capacity against the day's peak. */
  days: z.array(dayUseSchema),
  /** Shared pools: each group with terms on the pool. */
  groups: z.array(groupUseSchema),
});
export type PoolUtilisation = z.infer<typeof poolUtilisationSchema>;
export const webUtilisationResponseSchema = successOf(z.array(poolUtilisationSchema));

/** POST /api/web/reports/heatmap: one pool, or all the account's when `partNumber` is absent. */
export const heatmapRequestSchema = z
  .strictObject({
    customerNumber: customerNumberField,
    from: day,
    to: day,
    partNumber: z.string().trim().min(1).max(100).optional(),
  })
  .refine((p) => p.from <= p.to, { message: 'The period ends before it starts.', path: ['to'] })
  .refine(
    (p) => (Date.parse(`${p.to}T00:00:00Z`) - Date.parse(`${p.from}T00:00:00Z`)) / dayMs < REPORT_MAX_DAYS,
    { message: `A report covers at most ${REPORT_MAX_DAYS} days.`, path: ['to'] },
  );

/** One hour of one weekday (UTC) over the period: sessions started in it, and sessions open during it. */
export const heatmapCellSchema = z.object({
  /** 0 Monday … 6 Sunday */
  weekday: z.number().int().min(0).max(6),
  hour: z.number().int().min(0).max(23),
  started: z.number().int(),
  /** Sessions open at some time in the hour, summed over the period's weeks. */
  active: z.number().int(),
});
export type HeatmapCell = z.infer<typeof heatmapCellSchema>;
/** All 168 cells, Monday 00 first. */
export const webUsageHeatmapResponseSchema = successOf(z.array(heatmapCellSchema));

const denialReasonCodes = Object.keys(denialReasons) as [
  keyof typeof denialReasons,
  ...(keyof typeof denialReasons)[],
];

export const poolDenialsSchema = z.object({
  partNumber: z.string(),
  productName: z.string(),
  seats: z.number().int(),
  total: z.number().int(),
  byReason: z.array(
    z.object({ reason: z.enum(denialReasonCodes), label: z.string(), count: z.number().int() }),
  ),
  /**
   * Seats that would have avoided the pool-full and group-cap denials: the most different people refused for
   * capacity within one clock hour (each would have needed a seat of their own).
   */
  seatsToAvoid: z.number().int(),
});
export type PoolDenials = z.infer<typeof poolDenialsSchema>;
export const webDenialsResponseSchema = successOf(z.array(poolDenialsSchema));

/** Rows of the reclaim list per call: by default, and at most (a large directory has thousands). */
export const RECLAIM_PAGE_DEFAULT = 100;
export const RECLAIM_PAGE_MAX = 500;

/** POST /api/web/reports/reclaim: one page (`offset`, `limit`) of the list, idlest first. */
export const reclaimRequestSchema = z.strictObject({
  customerNumber: customerNumberField,
  inactiveDays: z.union([z.literal(30), z.literal(60), z.literal(90)]),
  offset: z.number().int().min(0).max(10_000_000).default(0),
  limit: z.number().int().min(1).max(RECLAIM_PAGE_MAX).default(RECLAIM_PAGE_DEFAULT),
});

/** A named seat whose person had no session of its pool in the window (and held it longer than that). */
export const reclaimSeatSchema = z.object({
  partNumber: z.string(),
  productName: z.string(),
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  assignedAt: instantText,
  /** The group that gives the seat: unassigning leaves it (take the person out of the group); null: direct. */
  viaGroup: z.string().nullable(),
  /** The end of the person's last session of the pool; null: none yet. */
  lastSeen: instantText.nullable(),
});
export type ReclaimSeat = z.infer<typeof reclaimSeatSchema>;
/** The page asked for, and how many seats the whole list holds. */
export const reclaimPageSchema = z.object({ total: z.number().int(), seats: z.array(reclaimSeatSchema) });
export type ReclaimPage = z.infer<typeof reclaimPageSchema>;
export const webReclaimResponseSchema = successOf(reclaimPageSchema);
