import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { apiTokens, users } from '../../db/schema.ts';
import { type AuditActor, automatedActor, recordAudit } from '../audit/service.ts';

const PREFIX = 'lp_';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A token belongs to a user, not to an account: its entries are vendor-wide (no customer number). */
const auditToken = (tx: Db, actor: AuditActor, what: string, id: string, change: Record<string, unknown>) =>
  recordAudit(tx, actor, {
    customerNumber: null,
    action: `auth.api-token.${what}`,
    object: { type: 'api-token', id },
    ...change,
  });

/**
 * Creates a personal API token; only its hash is stored, the token itself is returned once (and never recorded).
 * `actor` is who created it for the audit log: test fixtures leave it automated.
 */
export async function createApiToken(
  db: Db,
  userId: string,
  expiresInDays?: number,
  actor: AuditActor = automatedActor,
): Promise<{ id: string; token: string }> {
  const token = PREFIX + randomBytes(32).toString('base64url');
  const expiresAt = expiresInDays ? new Date(Date.now() + expiresInDays * 86_400_000) : null;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(apiTokens)
      .values({ userId, tokenHash: hashToken(token), expiresAt })
      .returning({ id: apiTokens.id });
    await auditToken(tx, actor, 'created', row.id, {
      after: { userId, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return { id: row.id, token };
  });
}

/** Revokes one token (by id) or every token of a user, one audit entry each; returns how many were revoked. */
export async function revokeApiTokens(
  db: Db,
  by: { tokenId?: string; userId?: string },
  actor: AuditActor = automatedActor,
): Promise<number> {
  const where = by.tokenId ? eq(apiTokens.id, by.tokenId) : eq(apiTokens.userId, by.userId ?? '');
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(where, isNull(apiTokens.revokedAt)))
      .returning({ id: apiTokens.id, revokedAt: apiTokens.revokedAt });
    for (const row of rows)
      await auditToken(tx, actor, 'revoked', row.id, {
        before: { revokedAt: null },
        after: { revokedAt: row.revokedAt?.toISOString() ?? null },
      });
    return rows.length;
  });
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
