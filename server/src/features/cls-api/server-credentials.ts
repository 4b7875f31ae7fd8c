import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clsCredentials } from '../../db/schema.ts';
import { isActiveElasticServer, requireElasticServer } from '../ip-rules/service.ts';
import type { ElasticServer } from './ingest.ts';

const PREFIX = 'cls_';
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a bearer credential for an active elastic license server of the account; the token is shown once. */
export async function issueServerCredential(
  db: Db,
  input: { customerNumber: string; clsId: string; createdBy: string },
): Promise<{ id: string; token: string }> {
  await requireElasticServer(db, input.customerNumber, input.clsId);
  const token = PREFIX + randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(clsCredentials)
    .values({ ...input, tokenHash: hash(token) })
    .returning({ id: clsCredentials.id });
  return { id: row.id, token };
}

/** The account a credential belongs to; undefined for an unknown id. */
export async function findServerCredentialOwner(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ customerNumber: clsCredentials.customerNumber })
    .from(clsCredentials)
    .where(eq(clsCredentials.id, id));
  return row?.customerNumber;
}

export async function revokeServerCredential(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(clsCredentials)
    .set({ revokedAt: new Date() })
    .where(and(eq(clsCredentials.id, id), isNull(clsCredentials.revokedAt)))
    .returning({ id: clsCredentials.id });
  return rows.length > 0;
}

export async function listServerCredentials(db: Db, customerNumber: string) {
  return db
    .select({
      id: clsCredentials.id,
      customerNumber: clsCredentials.customerNumber,
      clsId: clsCredentials.clsId,
      createdAt: clsCredentials.createdAt,
      createdBy: clsCredentials.createdBy,
      revokedAt: clsCredentials.revokedAt,
    })
    .from(clsCredentials)
    .where(eq(clsCredentials.customerNumber, customerNumber))
    .orderBy(asc(clsCredentials.createdAt));
}

/**
 * The elastic license server a bearer token belongs to: known, not revoked, and the server still active on its
 * account. Anything else is null (the caller answers 401 without saying why).
 */
export async function authenticateServer(db: Db, token: string): Promise<ElasticServer | null> {
  if (!token.startsWith(PREFIX)) return null;
  const [row] = await db
    .select({ customerNumber: clsCredentials.customerNumber, clsId: clsCredentials.clsId })
    .from(clsCredentials)
    .where(and(eq(clsCredentials.tokenHash, hash(token)), isNull(clsCredentials.revokedAt)));
  if (!row) return null;
  return (await isActiveElasticServer(db, row.customerNumber, row.clsId)) ? row : null;
}
