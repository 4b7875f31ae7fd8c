import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  webGroupMembers,
  webGroupPools,
  webGroups,
  webGroupTerms,
  webLeases,
  webNamedSeats,
  webUsers,
} from '../../db/schema.ts';

export const userColumns = {
  id: webUsers.id,
  email: webUsers.email,
  name: webUsers.name,
  source: webUsers.source,
  state: webUsers.state,
  role: webUsers.role,
  scimExternalId: webUsers.scimExternalId,
  lastSeenAt: webUsers.lastSeenAt,
  version: webUsers.version,
};
export interface WebUserRow {
  id: string;
  email: string;
  name: string;
  source: string;
  state: string;
  role: string;
  scimExternalId: string | null;
  lastSeenAt: Date | null;
  version: number;
}

const groupColumns = {
  id: webGroups.id,
  name: webGroups.name,
  source: webGroups.source,
  scimExternalId: webGroups.scimExternalId,
  version: webGroups.version,
};
export interface WebGroupRow {
  id: string;
  name: string;
  source: string;
  scimExternalId: string | null;
  version: number;
}

const ofAccount = (customerNumber: string) => eq(webUsers.customerNumber, customerNumber);

/** The account's people in e-mail order (or the ones of `ids`), removed ones only when asked, at most `limit`. */
export async function usersOf(
  db: Db,
  customerNumber: string,
  includeRemoved: boolean,
  limit: number,
  ids?: readonly string[],
) {
  return (await db
    .select(userColumns)
    .from(webUsers)
    .where(
      and(
        ofAccount(customerNumber),
        includeRemoved ? undefined : ne(webUsers.state, 'removed'),
        ids ? inArray(webUsers.id, [...ids]) : undefined,
      ),
    )
    .orderBy(asc(webUsers.email))
    .limit(limit)) as WebUserRow[];
}

/** People of the account by one of their keys, locked for the caller's transaction when `lock`. */
export async function findUsers(
  db: Db,
  customerNumber: string,
  by: { ids?: readonly string[]; emails?: readonly string[]; externalId?: string },
  lock = false,
) {
  const where = and(
    ofAccount(customerNumber),
    by.ids ? inArray(webUsers.id, [...by.ids]) : undefined,
    by.emails ? inArray(webUsers.email, [...by.emails]) : undefined,
    by.externalId !== undefined ? eq(webUsers.scimExternalId, by.externalId) : undefined,
  );
  if ((by.ids && !by.ids.length) || (by.emails && !by.emails.length)) return [];
  const query = db.select(userColumns).from(webUsers).where(where).orderBy(asc(webUsers.email));
  return (await (lock ? query.for('update') : query)) as WebUserRow[];
}

/** The account's active administrators, locked: the last-administrator rule counts them under the lock. */
export async function lockActiveAdministrators(db: Db, customerNumber: string) {
  const rows = await db
    .select({ id: webUsers.id })
    .from(webUsers)
    .where(and(ofAccount(customerNumber), eq(webUsers.role, 'administrator'), eq(webUsers.state, 'active')))
    .orderBy(asc(webUsers.id))
    .for('update');
  return rows.map((r) => r.id);
}

/** Adds new people; an e-mail that is already in the account (a concurrent invitation) is skipped. */
export async function insertUsers(
  db: Db,
  customerNumber: string,
  people: readonly {
    email: string;
    name: string;
    source: string;
    state: string;
    role?: string;
    scimExternalId?: string | null;
  }[],
) {
  if (!people.length) return [];
  return (await db
    .insert(webUsers)
    .values(people.map((p) => ({ customerNumber, ...p })))
    .onConflictDoNothing({ target: [webUsers.customerNumber, webUsers.email] })
    .returning(userColumns)) as WebUserRow[];
}

/** Changes people's fields, bumping their version (SCIM's ETag). */
export async function updateUsers(
  db: Db,
  ids: readonly string[],
  patch: Partial<{
    email: string;
    name: string;
    source: string;
    state: string;
    role: string;
    scimExternalId: string | null;
  }>,
) {
  if (!ids.length) return [];
  return (await db
    .update(webUsers)
    .set({ ...patch, updatedAt: sql`now()`, version: sql`${webUsers.version} + 1` })
    .where(inArray(webUsers.id, [...ids]))
    .returning(userColumns)) as WebUserRow[];
}

/** The groups of the account by name order, or the ones asked for. */
export async function findGroups(
  db: Db,
  customerNumber: string,
  by: { ids?: readonly string[]; names?: readonly string[]; externalId?: string } = {},
  lock = false,
) {
  if ((by.ids && !by.ids.length) || (by.names && !by.names.length)) return [];
  const query = db
    .select(groupColumns)
    .from(webGroups)
    .where(
      and(
        eq(webGroups.customerNumber, customerNumber),
        by.ids ? inArray(webGroups.id, [...by.ids]) : undefined,
        by.names ? inArray(webGroups.name, [...by.names]) : undefined,
        by.externalId !== undefined ? eq(webGroups.scimExternalId, by.externalId) : undefined,
      ),
    )
    .orderBy(asc(webGroups.name));
  return (await (lock ? query.for('update') : query)) as WebGroupRow[];
}

/** Adds a group; undefined when the account has one of this name. */
export async function insertGroup(
  db: Db,
  customerNumber: string,
  group: { name: string; source: string; scimExternalId?: string | null },
) {
  const [row] = await db
    .insert(webGroups)
    .values({ customerNumber, ...group })
    .onConflictDoNothing({ target: [webGroups.customerNumber, webGroups.name] })
    .returning(groupColumns);
  return row as WebGroupRow | undefined;
}

export async function updateGroup(
  db: Db,
  id: string,
  patch: Partial<{ name: string; scimExternalId: string | null }>,
) {
  const [row] = await db
    .update(webGroups)
    .set({ ...patch, updatedAt: sql`now()`, version: sql`${webGroups.version} + 1` })
    .where(eq(webGroups.id, id))
    .returning(groupColumns);
  return row as WebGroupRow;
}

export async function deleteGroup(db: Db, id: string) {
  await db.delete(webGroups).where(eq(webGroups.id, id));
}

/** Every membership of the account's groups: group id, its name, the member. */
export async function membershipsOf(
  db: Db,
  customerNumber: string,
  groupIds?: readonly string[],
  userIds?: readonly string[],
) {
  if ((groupIds && !groupIds.length) || (userIds && !userIds.length)) return [];
  return db
    .select({ groupId: webGroupMembers.groupId, groupName: webGroups.name, userId: webGroupMembers.userId })
    .from(webGroupMembers)
    .innerJoin(webGroups, eq(webGroups.id, webGroupMembers.groupId))
    .where(
      and(
        eq(webGroups.customerNumber, customerNumber),
        groupIds ? inArray(webGroupMembers.groupId, [...groupIds]) : undefined,
        userIds ? inArray(webGroupMembers.userId, [...userIds]) : undefined,
      ),
    )
    .orderBy(asc(webGroups.name), asc(webGroupMembers.userId));
}

export async function addMembers(db: Db, pairs: readonly { groupId: string; userId: string }[]) {
  if (!pairs.length) return 0;
  const rows = await db
    .insert(webGroupMembers)
    .values([...pairs])
    .onConflictDoNothing()
    .returning({ userId: webGroupMembers.userId });
  return rows.length;
}

export async function removeMembers(db: Db, groupId: string, userIds: readonly string[]) {
  if (!userIds.length) return 0;
  const rows = await db
    .delete(webGroupMembers)
    .where(and(eq(webGroupMembers.groupId, groupId), inArray(webGroupMembers.userId, [...userIds])))
    .returning({ userId: webGroupMembers.userId });
  return rows.length;
}

/** Takes people out of every group (a removed person belongs to none). */
export async function removeMembershipsOf(db: Db, userIds: readonly string[]) {
  if (!userIds.length) return;
  await db.delete(webGroupMembers).where(inArray(webGroupMembers.userId, [...userIds]));
}

/** Bumps groups' versions (their members changed: SCIM's ETag of a group covers its members). */
export async function touchGroups(db: Db, ids: readonly string[]) {
  if (!ids.length) return;
  await db
    .update(webGroups)
    .set({ updatedAt: sql`now()`, version: sql`${webGroups.version} + 1` })
    .where(inArray(webGroups.id, [...ids]));
}

/** The named seats held in the account, with the group each came through (read for the directory's list). */
export async function namedSeatsOf(db: Db, customerNumber: string, userIds?: readonly string[]) {
  return db
    .select({
      userId: webNamedSeats.userId,
      partNumber: webNamedSeats.partNumber,
      groupId: webNamedSeats.groupId,
      groupName: webGroups.name,
    })
    .from(webNamedSeats)
    .leftJoin(webGroups, eq(webGroups.id, webNamedSeats.groupId))
    .where(
      and(
        eq(webNamedSeats.customerNumber, customerNumber),
        userIds ? inArray(webNamedSeats.userId, [...userIds]) : undefined,
      ),
    )
    .orderBy(asc(webNamedSeats.partNumber));
}

/** Open sessions per person of the account. */
export async function openSessionsOf(db: Db, customerNumber: string, userIds?: readonly string[]) {
  return db
    .select({ userId: sql<string>`${webLeases.userId}`, open: sql<number>`count(*)::int` })
    .from(webLeases)
    .where(
      and(
        eq(webLeases.customerNumber, customerNumber),
        eq(webLeases.outcome, 'open'),
        userIds ? inArray(webLeases.userId, [...userIds]) : isNotNull(webLeases.userId),
      ),
    )
    .groupBy(webLeases.userId);
}

/** The named pools given to the account's groups and their terms on shared pools. */
export async function groupPoolsOf(db: Db, customerNumber: string) {
  return db
    .select({ groupId: webGroupPools.groupId, partNumber: webGroupPools.partNumber })
    .from(webGroupPools)
    .where(eq(webGroupPools.customerNumber, customerNumber))
    .orderBy(asc(webGroupPools.partNumber));
}

export async function groupTermsOf(db: Db, customerNumber: string) {
  return db
    .select({
      groupId: webGroupTerms.groupId,
      partNumber: webGroupTerms.partNumber,
      guaranteed: webGroupTerms.guaranteed,
      cap: webGroupTerms.cap,
    })
    .from(webGroupTerms)
    .where(eq(webGroupTerms.customerNumber, customerNumber))
    .orderBy(asc(webGroupTerms.partNumber));
}
