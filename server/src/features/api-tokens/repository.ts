import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { apiTokens, portalContacts, users } from '../../db/schema.ts';

export type TokenRow = typeof apiTokens.$inferSelect;

export async function insertToken(
  tx: Db,
  values: { userId: string; name: string; tokenHash: string; expiresAt: Date },
): Promise<TokenRow> {
  const [row] = await tx.insert(apiTokens).values(values).returning();
  return row;
}

/** Marks tokens revoked (those not revoked yet) and returns them. */
export async function markRevoked(tx: Db, by: { tokenId?: string; userId?: string }): Promise<TokenRow[]> {
  const where = by.tokenId ? eq(apiTokens.id, by.tokenId) : eq(apiTokens.userId, by.userId ?? '');
  return tx
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(apiTokens.revokedAt)))
    .returning();
}

/** The usable token with this hash and its owner: not revoked, not expired, owner not disabled. */
export async function findUsableToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ token: apiTokens, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, tokenHash),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now)),
        isNull(users.disabledAt),
      ),
    );
  return row ?? null;
}

export async function touchLastUsed(db: Db, tokenId: string, now: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, tokenId));
}

export async function tokensOfUser(db: Db, userId: string): Promise<TokenRow[]> {
  return db
    .select()
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** Tokens of the account's portal contacts: the tokens that can act on it. */
export async function tokensOfAccount(db: Db, customerNumber: string) {
  return db
    .select({ token: apiTokens, ownerEmail: users.email, ownerName: users.name })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(
      portalContacts,
      and(eq(portalContacts.email, users.email), eq(portalContacts.customerNumber, customerNumber)),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function findTokenWithOwner(db: Db, tokenId: string) {
  const [row] = await db
    .select({ token: apiTokens, ownerEmail: users.email })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.id, tokenId));
  return row ?? null;
}

export async function isContactOf(db: Db, customerNumber: string, email: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(portalContacts)
    .where(and(eq(portalContacts.customerNumber, customerNumber), eq(portalContacts.email, email)));
  return !!row;
}
