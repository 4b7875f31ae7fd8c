import { and, asc, count, desc, eq, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { scimTokens, webGroupMembers, webGroups, webUsers } from '../../db/schema.ts';

/*
 * SQL of the SCIM feature: its tokens, and the reads of the directory's rows SCIM lists and filters (paged here;
 * every write goes through web-directory's commands).
 */

const tokenColumns = {
  id: scimTokens.id,
  name: scimTokens.name,
  createdAt: scimTokens.createdAt,
  createdBy: scimTokens.createdBy,
  lastUsedAt: scimTokens.lastUsedAt,
  revokedAt: scimTokens.revokedAt,
};

export async function tokensOf(db: Db, customerNumber: string) {
  return db
    .select(tokenColumns)
    .from(scimTokens)
    .where(eq(scimTokens.customerNumber, customerNumber))
    .orderBy(desc(scimTokens.createdAt), asc(scimTokens.id));
}

export async function insertToken(
  db: Db,
  row: { customerNumber: string; name: string; tokenHash: string; createdBy: string },
) {
  const [made] = await db.insert(scimTokens).values(row).returning(tokenColumns);
  return made;
}

/** The token of the account with this id, locked for its revocation. */
export async function lockToken(db: Db, customerNumber: string, id: string) {
  const [row] = await db
    .select(tokenColumns)
    .from(scimTokens)
    .where(and(eq(scimTokens.id, id), eq(scimTokens.customerNumber, customerNumber)))
    .for('update');
  return row;
}

export async function markRevoked(db: Db, id: string) {
  const [row] = await db
    .update(scimTokens)
    .set({ revokedAt: new Date() })
    .where(eq(scimTokens.id, id))
    .returning(tokenColumns);
  return row;
}

/** The live token with this hash: its account, id and name. */
export async function liveTokenByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ id: scimTokens.id, customerNumber: scimTokens.customerNumber, name: scimTokens.name })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, tokenHash), isNull(scimTokens.revokedAt)));
  return row;
}

/** Notes the token's use, at most once a minute (not a write per provisioning call). */
export async function touchToken(db: Db, id: string, now: Date) {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}

// ---------------------------------------------------------------------------------------------------------------
// The directory's rows as SCIM reads them

const userColumns = {
  id: webUsers.id,
  email: webUsers.email,
  name: webUsers.name,
  state: webUsers.state,
  scimExternalId: webUsers.scimExternalId,
  createdAt: webUsers.createdAt,
  updatedAt: webUsers.updatedAt,
  version: webUsers.version,
};
export type ScimUserRow = {
  id: string;
  email: string;
  name: string;
  state: string;
  scimExternalId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

/** Narrowing of a SCIM filter that SQL can do: an e-mail, an externalId, ids. */
export interface RowNarrowing {
  emails?: string[];
  externalIds?: string[];
  ids?: string[];
  /** Group names, lower-cased (SCIM compares displayName without case) */
  names?: string[];
}

const liveUsers = (customerNumber: string) =>
  and(eq(webUsers.customerNumber, customerNumber), ne(webUsers.state, 'removed'));

/** The account's people who are not removed, oldest first: all of them, or those SQL narrows to. */
export async function scimUsers(
  db: Db,
  customerNumber: string,
  n: RowNarrowing = {},
  page?: { offset: number; limit: number },
) {
  const query = db
    .select(userColumns)
    .from(webUsers)
    .where(
      and(
        liveUsers(customerNumber),
        n.ids ? inArray(webUsers.id, n.ids) : undefined,
        n.externalIds ? inArray(webUsers.scimExternalId, n.externalIds) : undefined,
        n.emails ? inArray(webUsers.email, n.emails) : undefined,
      ),
    )
    .orderBy(asc(webUsers.createdAt), asc(webUsers.id));
  return (page ? await query.offset(page.offset).limit(page.limit) : await query) as ScimUserRow[];
}

export async function scimUserCount(db: Db, customerNumber: string) {
  const [row] = await db.select({ n: count() }).from(webUsers).where(liveUsers(customerNumber));
  return Number(row.n);
}

const groupColumns = {
  id: webGroups.id,
  name: webGroups.name,
  scimExternalId: webGroups.scimExternalId,
  createdAt: webGroups.createdAt,
  updatedAt: webGroups.updatedAt,
  version: webGroups.version,
};
export type ScimGroupRow = {
  id: string;
  name: string;
  scimExternalId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version: number;
};

export async function scimGroups(
  db: Db,
  customerNumber: string,
  n: RowNarrowing = {},
  page?: { offset: number; limit: number },
) {
  const query = db
    .select(groupColumns)
    .from(webGroups)
    .where(
      and(
        eq(webGroups.customerNumber, customerNumber),
        n.ids ? inArray(webGroups.id, n.ids) : undefined,
        n.externalIds ? inArray(webGroups.scimExternalId, n.externalIds) : undefined,
        n.names ? inArray(sql`lower(${webGroups.name})`, n.names) : undefined,
      ),
    )
    .orderBy(asc(webGroups.createdAt), asc(webGroups.id));
  return (page ? await query.offset(page.offset).limit(page.limit) : await query) as ScimGroupRow[];
}

export async function scimGroupCount(db: Db, customerNumber: string) {
  const [row] = await db
    .select({ n: count() })
    .from(webGroups)
    .where(eq(webGroups.customerNumber, customerNumber));
  return Number(row.n);
}

/** The members of the groups (id and e-mail, for `members[].display`). */
export async function membersOfGroups(db: Db, groupIds: readonly string[]) {
  if (!groupIds.length) return [];
  return db
    .select({ groupId: webGroupMembers.groupId, userId: webGroupMembers.userId, email: webUsers.email })
    .from(webGroupMembers)
    .innerJoin(webUsers, eq(webUsers.id, webGroupMembers.userId))
    .where(inArray(webGroupMembers.groupId, [...groupIds]))
    .orderBy(asc(webUsers.email));
}
