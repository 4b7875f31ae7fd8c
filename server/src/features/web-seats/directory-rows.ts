import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { webGroupMembers, webGroupPools, webGroups, webNamedSeats, webUsers } from '../../db/schema.ts';

/*
 * Test data of the web directory for the web-seats tests: people, groups and memberships as rows, written straight
 * to the tables (the web-directory API is another feature's, built beside this one).
 */

export type WebUserState = 'invited' | 'active' | 'suspended' | 'removed';

/** A person of the account's directory; answers their id. */
export async function addWebUser(
  db: Db,
  customerNumber: string,
  email: string,
  state: WebUserState = 'active',
): Promise<string> {
  const [row] = await db
    .insert(webUsers)
    .values({
      customerNumber,
      email: email.toLowerCase(),
      name: email.split('@')[0],
      source: 'manual',
      state,
    })
    .returning({ id: webUsers.id });
  return row.id;
}

export async function setWebUserState(db: Db, userId: string, state: WebUserState): Promise<void> {
  await db.update(webUsers).set({ state }).where(eq(webUsers.id, userId));
}

/** A group of the account's directory with these members; answers its id. */
export async function addWebGroup(
  db: Db,
  customerNumber: string,
  name: string,
  memberIds: readonly string[] = [],
): Promise<string> {
  const [row] = await db
    .insert(webGroups)
    .values({ customerNumber, name, source: 'manual' })
    .returning({ id: webGroups.id });
  for (const userId of memberIds) await addMember(db, row.id, userId);
  return row.id;
}

export async function addMember(db: Db, groupId: string, userId: string): Promise<void> {
  await db.insert(webGroupMembers).values({ groupId, userId });
}

export async function removeMember(db: Db, groupId: string, userId: string): Promise<void> {
  await db
    .delete(webGroupMembers)
    .where(and(eq(webGroupMembers.groupId, groupId), eq(webGroupMembers.userId, userId)));
}

/** Gives a named pool to a group as a row (the command is setWebGroupPools). */
export async function addGroupPool(db: Db, customerNumber: string, partNumber: string, groupId: string) {
  await db.insert(webGroupPools).values({ customerNumber, partNumber, groupId });
}

/** The named seats of one pool: user id → group id (null: direct), sorted by user id. */
export async function seatsOf(db: Db, customerNumber: string, partNumber: string) {
  const rows = await db
    .select({ userId: webNamedSeats.userId, groupId: webNamedSeats.groupId })
    .from(webNamedSeats)
    .where(and(eq(webNamedSeats.customerNumber, customerNumber), eq(webNamedSeats.partNumber, partNumber)))
    .orderBy(webNamedSeats.userId);
  return rows;
}

/** A direct named seat as a row. */
export async function addDirectSeat(db: Db, customerNumber: string, partNumber: string, userId: string) {
  await db.insert(webNamedSeats).values({ customerNumber, partNumber, userId });
}
