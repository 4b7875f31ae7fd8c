import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database.ts';

/*
 * Hand-made web_leases rows for the tests of /web-transactions and the reports: sessions and denials at given
 * instants, written straight into the table the checkout writes.
 */

export interface LeaseRow {
  customerNumber: string;
  partNumber: string;
  email: string;
  userId?: string | null;
  groupId?: string | null;
  /** ISO instants */
  start: string;
  /** null: still open; ignored for a denial (it ends as it starts) */
  end?: string | null;
  outcome?: 'open' | 'released' | 'idle-timeout' | 'heartbeat-lost' | 'admin-released' | 'user-removed';
  denial?: string;
  product?: string;
  client?: string;
  poolKind?: 'named' | 'shared' | null;
}

export async function addLease(db: Db, lease: LeaseRow): Promise<void> {
  const denied = lease.denial !== undefined;
  const end = denied ? lease.start : (lease.end ?? null);
  const outcome = denied ? 'denied' : (lease.outcome ?? (end === null ? 'open' : 'released'));
  await db.execute(
    sql`insert into web_leases (customer_number, part_number, pool_kind, user_id, email, group_id, product, client,
        started_at, last_heartbeat_at, last_activity_at, ended_at, outcome, denial_reason)
      values (${lease.customerNumber}, ${lease.partNumber}, ${lease.poolKind ?? 'shared'}, ${lease.userId ?? null},
        ${lease.email}, ${lease.groupId ?? null}, ${lease.product ?? 'Fluids Online'}, ${lease.client ?? ''},
        ${lease.start}, ${denied ? null : lease.start}, ${denied ? null : lease.start}, ${end}, ${outcome},
        ${lease.denial ?? null})`,
  );
}

/** An instant `hours` before now, ISO. */
export const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
