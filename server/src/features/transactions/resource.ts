import { usageColumnKinds } from '@lp/contract/transactions/schemas';
import { sql } from 'drizzle-orm';
import { type Resource, typedColumns } from '../../platform/query/resource.ts';

/** Internal sort key of EndTime; never a client column (the service maps sorting on EndTime to it). */
export const END_TIME_ORDER = 'EndTimeOrder';

/**
 * Usage sessions ("Usage transactions", spec 001 §2.3 and §3) for the generic query engine. Column names
 * are the spec's attribute names (contract/src/transactions/schemas.ts usageColumns); the service adds the
 * account restriction as scope (sql`u.customer_number = ${customerNumber}`), which with the default sort
 * matches the index usage_sessions_customer_start_idx (customer_number, start_time, id).
 */
export const usageSessionsResource: Resource = {
  name: 'usage-sessions',
  from: sql`usage_sessions u`,
  columns: {
    ...typedColumns(usageColumnKinds, {
      StartTime: { expr: sql`u.start_time` },
      EndTime: { expr: sql`u.end_time`, nullable: true },
      Product: { expr: sql`u.product` },
      ProductCount: { expr: sql`u.product_count` },
      Hours: { expr: sql`u.hours` },
      Charge: { expr: sql`u.charge` },
      Currency: { expr: sql`u.currency` },
      User: { expr: sql`u.username` },
      Host: { expr: sql`u.host` },
      Project: { expr: sql`u.project` },
      DeviceID: { expr: sql`u.session_id` },
      SessionStatus: { expr: sql`u.session_status` },
      REFERER_IP_ADDRESS: { expr: sql`u.referer_ip` },
      productVersion: { expr: sql`u.product_version` },
      CloudJobId: { expr: sql`u.cloud_job_id`, nullable: true },
      ServerID: { expr: sql`u.server_id` },
      AccountID: { expr: sql`u.customer_number` },
      RateFileVersion: { expr: sql`u.rate_table_version` },
      // A session without an end time is still running (spec: End Time absent while the session is active).
      Active: { expr: sql`(u.end_time is null)` },
    }),
    // EndTime is a tie-breaker of every sort (spec 001 §2.3) but nullable, which a continuation token cannot
    // carry. A running session sorts as if it ended at the last representable instant: where PostgreSQL puts
    // NULLs (last ascending, first descending), so the order is the same as sorting on EndTime itself.
    [END_TIME_ORDER]: {
      expr: sql`coalesce(u.end_time, '9999-12-31 23:59:59.999+00'::timestamptz)`,
      type: 'timestamp',
      filterable: false,
    },
  },
  id: { expr: sql`u.id`, type: 'number' },
  defaultSort: [{ name: 'StartTime', direction: 'asc' }],
  // Spec 001 §9: CSV export and fetch-all take up to 30000 rows in one request.
  maxLimit: 30_000,
  maxDistinct: 500,
};

/** The account's sessions, or those of one of its elastic license servers (usage_sessions.server_id). */
export const accountScope = (customerNumber: string, elasticServerId?: string | null) =>
  elasticServerId
    ? sql`u.customer_number = ${customerNumber} and u.server_id = ${elasticServerId}`
    : sql`u.customer_number = ${customerNumber}`;
