import { sql } from 'drizzle-orm';
import type { Resource } from '../../platform/query/resource.ts';

/**
 * Usage sessions ("Usage transactions", spec 001 §2.3 and §3) for the generic query engine. Column names
 * are the spec's attribute names; the route adds the account restriction as scope
 * (sql`u.customer_number = ${customerNumber}`), which with the default sort matches the index
 * usage_sessions_customer_start_idx (customer_number, start_time, id).
 * The product-specific "{product}CloudJobId" attribute is exposed as CloudJobId; the presenter renames it.
 */
export const usageSessionsResource: Resource = {
  name: 'usage-sessions',
  from: sql`usage_sessions u`,
  columns: {
    StartTime: { expr: sql`u.start_time`, type: 'timestamp' },
    EndTime: { expr: sql`u.end_time`, type: 'timestamp', nullable: true },
    Product: { expr: sql`u.product`, type: 'text' },
    ProductCount: { expr: sql`u.product_count`, type: 'number' },
    Hours: { expr: sql`u.hours`, type: 'number' },
    Charge: { expr: sql`u.charge`, type: 'number' },
    Currency: { expr: sql`u.currency`, type: 'text' },
    User: { expr: sql`u.username`, type: 'text' },
    Host: { expr: sql`u.host`, type: 'text' },
    Project: { expr: sql`u.project`, type: 'text' },
    DeviceID: { expr: sql`u.session_id`, type: 'text' },
    SessionStatus: { expr: sql`u.session_status`, type: 'text' },
    REFERER_IP_ADDRESS: { expr: sql`u.referer_ip`, type: 'text' },
    productVersion: { expr: sql`u.product_version`, type: 'text' },
    CloudJobId: { expr: sql`u.cloud_job_id`, type: 'text', nullable: true },
    ServerID: { expr: sql`u.server_id`, type: 'text' },
    AccountID: { expr: sql`u.customer_number`, type: 'text' },
    // A session without an end time is still running (spec: End Time absent while the session is active).
    Active: { expr: sql`(u.end_time is null)`, type: 'boolean' },
  },
  id: { expr: sql`u.id`, type: 'number' },
  defaultSort: [{ name: 'StartTime', direction: 'asc' }],
  // Spec 001 §9: CSV export and fetch-all take up to 30000 rows in one request.
  maxLimit: 30_000,
  maxDistinct: 500,
};
