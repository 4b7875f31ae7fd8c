import { sql } from 'drizzle-orm';
import { type Db, jsonRows, queryRows } from '../../db/database.ts';

export interface StoredSession {
  id: number;
  sessionId: string;
  startTime: Date;
  endTime: Date | null;
  lastSeenAt: Date | null;
  product: string;
  productCount: number;
  rate: number;
  chargedCents: number;
  entitlementId: number | null;
}

/**
 * The sessions of one server named in a batch (read under the account lock) that started in `starts`: the months of
 * the batch's start times, not every month's index (decision 077).
 */
export async function sessionsById(
  db: Db,
  elasticServerId: string,
  sessionIds: readonly string[],
  starts: { from: Date; to: Date },
) {
  const rows = await queryRows<{
    id: string | number;
    session_id: string;
    start_time: string | Date;
    end_time: string | Date | null;
    last_seen_at: string | Date | null;
    product: string;
    product_count: number;
    rate: number;
    charged_cents: string | number;
    entitlement_id: string | number | null;
  }>(
    db,
    // One probe of the unique index (server, session, start) per session id. The limit keeps the lateral query a
    // probe: joined as a whole (a semi-join, or a hash join where a new month's partition has no statistics yet) the
    // planner read the server's whole range of starts instead (bench/elastic.ts). Of an id reused within the
    // window, the latest session is the batch's.
    sql`select u.id, u.session_id, u.start_time, u.end_time, u.last_seen_at, u.product, u.product_count, u.rate,
        u.charged_cents, u.entitlement_id
      from json_array_elements_text(${JSON.stringify(sessionIds)}::json) as t(session_id)
      cross join lateral (select * from usage_sessions s
        where s.server_id = ${elasticServerId} and s.session_id = t.session_id
          and s.start_time >= ${starts.from.toISOString()}::timestamptz
          and s.start_time <= ${starts.to.toISOString()}::timestamptz
        order by s.start_time desc limit 1) u`,
  );
  const date = (v: string | Date | null) => (v === null ? null : new Date(v));
  return new Map<string, StoredSession>(
    rows.map((r) => [
      r.session_id,
      {
        id: Number(r.id),
        sessionId: r.session_id,
        startTime: new Date(r.start_time),
        endTime: date(r.end_time),
        lastSeenAt: date(r.last_seen_at),
        product: r.product,
        productCount: Number(r.product_count),
        rate: Number(r.rate),
        chargedCents: Number(r.charged_cents),
        entitlementId: r.entitlement_id === null ? null : Number(r.entitlement_id),
      },
    ]),
  );
}

export interface NewSessionRow {
  customer_number: string;
  entitlement_id: number | null;
  session_id: string;
  start_time: string;
  end_time: string | null;
  last_seen_at: string;
  product: string;
  product_version: string;
  product_count: number;
  hours: number;
  charge: number;
  currency: string;
  username: string;
  host: string;
  project: string;
  session_status: string;
  referer_ip: string;
  cloud_job_id: string | null;
  server_id: string;
  rate_table_version: string;
  rate: number;
  charged_cents: number;
}

export async function insertSessions(db: Db, rows: readonly NewSessionRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`insert into usage_sessions (customer_number, entitlement_id, session_id, start_time,
      end_time, last_seen_at, product, product_version, product_count, hours, charge, currency, username, host,
      project, session_status, referer_ip, cloud_job_id, server_id, rate_table_version, rate, charged_cents)
    select customer_number, entitlement_id, session_id, start_time, end_time, last_seen_at, product,
      product_version, product_count, hours, charge, currency, username, host, project, session_status,
      referer_ip, cloud_job_id, server_id, rate_table_version, rate, charged_cents
    from json_to_recordset(${jsonRows(rows)}) as t(customer_number text, entitlement_id bigint,
      session_id text, start_time timestamptz, end_time timestamptz, last_seen_at timestamptz, product text,
      product_version text, product_count int, hours float8, charge float8, currency text, username text,
      host text, project text, session_status text, referer_ip text, cloud_job_id text, server_id text,
      rate_table_version text, rate float8, charged_cents bigint)`);
}

export interface SessionUpdate {
  id: number;
  /**
   * With the id, the row's key: it names the month partition (decision 073). Read back to the millisecond, so the
   * update matches the millisecond it falls in.
   */
  start_time: string;
  entitlement_id: number | null;
  end_time: string | null;
  last_seen_at: string;
  hours: number;
  charge: number;
  charged_cents: number;
  session_status: string;
}

export async function updateSessions(db: Db, rows: readonly SessionUpdate[]): Promise<void> {
  if (rows.length === 0) return;
  // The batch's first and last start as constants, so the plan names only their months' partitions (decision 077).
  const starts = rows.map((r) => r.start_time).sort();
  const last = new Date(Date.parse(starts[starts.length - 1]) + 1).toISOString();
  await db.execute(sql`update usage_sessions u set end_time = t.end_time, last_seen_at = t.last_seen_at,
      hours = t.hours, charge = t.charge, charged_cents = t.charged_cents, session_status = t.session_status,
      entitlement_id = t.entitlement_id
    from json_to_recordset(${jsonRows(rows)}) as t(id bigint, start_time timestamptz, end_time timestamptz,
      last_seen_at timestamptz, hours float8, charge float8, charged_cents bigint, session_status text,
      entitlement_id bigint)
    where u.id = t.id and u.start_time >= t.start_time and u.start_time < t.start_time + interval '1 millisecond'
      and u.start_time >= ${starts[0]}::timestamptz and u.start_time < ${last}::timestamptz`);
}

/** Rate tables as version → product → rate. */
export async function loadRateTables(db: Db): Promise<Map<string, Map<string, number>>> {
  const rows = await queryRows<{ version: string; product: string; rate: number }>(
    db,
    sql`select version, product, rate from rate_tables`,
  );
  const tables = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const table = tables.get(r.version) ?? new Map<string, number>();
    table.set(r.product, Number(r.rate));
    tables.set(r.version, table);
  }
  return tables;
}

/** Newest first by numeric segments ("2025.1.2" > "2024.10.0"). */
export const newestVersion = (versions: Iterable<string>) =>
  [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }))[0] ?? '';
