import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { apiTokens, users } from '../../db/schema.ts';

const PREFIX = 'lp_';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Creates a personal API token; only its hash is stored, the token itself is returned once. */
export async function createApiToken(
  db: Db,
  userId: string,
  expiresInDays?: number,
): Promise<{ id: string; token: string }> {
  const token = PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
  const [row] = await db
    .insert(apiTokens)
    .values({ userId, tokenHash: hashToken(token), expiresAt })
    .returning({ id: apiTokens.id });
  return { id: row.id, token };
}

/** Revokes one token (by id) or every token of a user; returns how many were revoked. */
export async function revokeApiTokens(db: Db, by: { tokenId?: string; userId?: string }): Promise<number> {
  const where = by.tokenId ? eq(apiTokens.id, by.tokenId) : eq(apiTokens.userId, by.userId ?? '');
  const rows = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(where, isNull(apiTokens.revokedAt)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

/** The user a bearer token names, if the token is known, not revoked and not expired. */
export async function findUserByApiToken(db: Db, token: string) {
  if (!token.startsWith(PREFIX)) return null;
  const [row] = await db
    .select({ user: users, tokenId: apiTokens.id })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(
      and(
        eq(apiTokens.tokenHash, hashToken(token)),
        isNull(apiTokens.revokedAt),
        or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, new Date())),
      ),
    );
  return row ? { ...row.user, tokenId: row.tokenId } : null;
}
