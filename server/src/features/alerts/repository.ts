import { alertColumnKinds } from '@lp/contract/alerts/schemas';
import { INFO_LOOKAHEAD_DAYS } from '@lp/domain/alerts';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { alerts } from '../../db/schema.ts';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

export type AlertRecord = typeof alerts.$inferSelect;

/** SQL of domain/src/alerts.ts isResolved: status RESOLVED and expired (an expiry at or before now). */
const resolvedExpr = sql`(al.status = 'RESOLVED' and al.expires is not null and al.expires <= now())`;

/**
 * The alerts as the generic query engine sees them (spec 000 §7 POST /api/notifications). Limits of §9:
 * - fetch size 100: the engine's default page size (DEFAULT_PAGE_SIZE) when a request gives no limit;
 * - cache window 100: the browser grid's block size (one block = one request of 100 rows);
 * - max size 1000: maxLimit, the largest page one call may ask for (larger -> 400);
 * - max distinct size 500: maxDistinct (more distinct values -> 400 "Too many distinct values");
 * - max fetch-all size 30000: ALERTS_COUNT_CAP, the count cap: a filter matching more rows than a
 *   client may fetch in total is refused by /count with "total number of records exceeds maximum allowed length".
 */
export const ALERTS_MAX_LIMIT = 1000;
export const ALERTS_MAX_DISTINCT = 500;
export const ALERTS_COUNT_CAP = 30_000;

export const alertsResource: Resource = {
  name: 'alerts',
  from: sql`alerts al`,
  columns: typedColumns(alertColumnKinds, {
    id: { expr: sql`al.id` },
    category: { expr: sql`al.category` },
    // Computed so the category range filter (OK < INFO < WARNING < CRITICAL) is a numeric range.
    severity: {
      expr: sql`(case al.category when 'CRITICAL' then 3 when 'WARNING' then 2 when 'INFO' then 1 else 0 end)`,
    },
    status: { expr: sql`al.status` },
    date: { expr: sql`al.date` },
    expires: { expr: sql`al.expires`, nullable: true },
    service: { expr: sql`al.services` },
    description: { expr: sql`al.description` },
    // jsonb travels as text through the engine (it has no json type); parsed back by the service.
    links: { expr: sql`al.links::text`, sortable: false, filterable: false },
    resolved: { expr: resolvedExpr },
  }),
  id: { expr: sql`al.id`, type: 'number' },
  defaultSort: [{ name: 'date', direction: 'desc' }],
  maxLimit: ALERTS_MAX_LIMIT,
  maxDistinct: ALERTS_MAX_DISTINCT,
};

/** Spec 000 §4.3 active list: not resolved, and INFO alerts only from 5 days before their start. */
export const activeScope = sql`not ${resolvedExpr} and not (al.category = 'INFO' and al.date > now() + ${`${INFO_LOOKAHEAD_DAYS} days`}::interval)`;

export async function findAlert(db: Db, id: number): Promise<AlertRecord | undefined> {
  const [row] = await db.select().from(alerts).where(eq(alerts.id, id));
  return row;
}

export interface AlertValues {
  category: string;
  services: string[];
  description: string;
  date: Date;
  expires: Date | null;
  links: Record<string, string>;
}

export async function insertAlert(db: Db, values: AlertValues): Promise<AlertRecord> {
  const [row] = await db
    .insert(alerts)
    .values({ ...values, status: 'ACTIVE' })
    .returning();
  return row;
}

export async function updateAlert(db: Db, id: number, values: AlertValues): Promise<AlertRecord | undefined> {
  const [row] = await db.update(alerts).set(values).where(eq(alerts.id, id)).returning();
  return row;
}

/** Resolving ends the alert now unless it already ended: status RESOLVED, expiry no later than now. */
export async function resolveAlert(db: Db, id: number): Promise<AlertRecord | undefined> {
  const [row] = await db
    .update(alerts)
    .set({
      status: 'RESOLVED',
      expires: sql`case when ${alerts.expires} is null or ${alerts.expires} > now() then now() else ${alerts.expires} end`,
    })
    .where(eq(alerts.id, id))
    .returning();
  return row;
}
