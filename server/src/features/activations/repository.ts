import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { fulfillmentEvents, fulfillments } from '../../db/schema.ts';

/** Live fulfillments of several accounts on a host (the license file of a shared host). */
export async function listLiveFulfillmentsOfAccounts(db: Db, serverId: number, customerNumbers: string[]) {
  if (customerNumbers.length === 0) return [];
  return db
    .select()
    .from(fulfillments)
    .where(
      and(
        eq(fulfillments.serverId, serverId),
        inArray(fulfillments.customerNumber, customerNumbers),
        gt(fulfillments.count, 0),
      ),
    )
    .orderBy(asc(fulfillments.customerNumber), asc(fulfillments.id));
}

/** One fulfillment, locked for the rest of the transaction. */
export async function lockFulfillment(db: Db, id: number) {
  const [row] = await db.select().from(fulfillments).where(eq(fulfillments.id, id)).for('update');
  return row;
}

/** The hosts of these fulfillments (a fulfillment never changes host). */
export async function hostsOfFulfillments(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ serverId: fulfillments.serverId })
    .from(fulfillments)
    .where(inArray(fulfillments.id, ids));
  return rows.map((r) => r.serverId);
}

/** The fulfillment of an entitlement on a host (live or not). */
export async function findFulfillment(db: Db, serverId: number, entitlementId: number) {
  const [row] = await db
    .select()
    .from(fulfillments)
    .where(and(eq(fulfillments.serverId, serverId), eq(fulfillments.entitlementId, entitlementId)));
  return row;
}

/** Adds seats to the (host, entitlement) fulfillment, creating it when new; answers its id and seats now. */
export async function addToFulfillment(
  db: Db,
  row: {
    serverId: number;
    entitlementId: number;
    customerNumber: string;
    count: number;
    parentId: number | null;
  },
) {
  const [out] = await db
    .insert(fulfillments)
    .values(row)
    .onConflictDoUpdate({
      target: [fulfillments.serverId, fulfillments.entitlementId],
      set: {
        count: sql`${fulfillments.count} + excluded.count`,
        updatedAt: sql`now()`,
        parentId: sql`coalesce(excluded.parent_id, ${fulfillments.parentId})`,
      },
    })
    .returning({ id: fulfillments.id, count: fulfillments.count });
  return out;
}

export async function setFulfillmentCount(db: Db, id: number, count: number) {
  await db.update(fulfillments).set({ count, updatedAt: sql`now()` }).where(eq(fulfillments.id, id));
}

export async function insertEvent(db: Db, event: typeof fulfillmentEvents.$inferInsert) {
  await db.insert(fulfillmentEvents).values(event);
}

/** Whether anything of any account is still activated on the host. */
export async function hostHasLiveFulfillments(db: Db, serverId: number): Promise<boolean> {
  const rows = await db
    .select({ id: fulfillments.id })
    .from(fulfillments)
    .where(and(eq(fulfillments.serverId, serverId), gt(fulfillments.count, 0)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The account's history on some hosts, in no order (the grouping sorts); times in epoch milliseconds. Read as one
 * JSON array of tuples: PGlite hands rows over one at a time at a cost, and 10 000 events read as one value take
 * a quarter of the time there (about 25 ms instead of 95; PostgreSQL gains a little too, decision 032).
 */
export async function listEvents(db: Db, serverIds: number[], customerNumber: string) {
  if (serverIds.length === 0) return [];
  const [row] = await db
    .select({
      events: sql<string | null>`json_agg(json_build_array(${fulfillmentEvents.serverId},
        (extract(epoch from ${fulfillmentEvents.time}) * 1000)::float8, ${fulfillmentEvents.modifiedBy},
        ${fulfillmentEvents.count}, ${fulfillmentEvents.fulfillmentId}))::text`,
    })
    .from(fulfillmentEvents)
    .where(
      and(
        inArray(fulfillmentEvents.serverId, serverIds),
        eq(fulfillmentEvents.customerNumber, customerNumber),
      ),
    );
  const tuples: [number, number, string, number, number][] = JSON.parse(row?.events ?? '[]');
  return tuples.map(([serverId, time, modifiedBy, count, fulfillmentId]) => ({
    serverId,
    time,
    modifiedBy,
    count,
    fulfillmentId,
  }));
}

/** The entitlement of each of these fulfillments (live or not). */
export async function entitlementsOfFulfillments(db: Db, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: fulfillments.id, entitlementId: fulfillments.entitlementId })
    .from(fulfillments)
    .where(inArray(fulfillments.id, ids));
}
