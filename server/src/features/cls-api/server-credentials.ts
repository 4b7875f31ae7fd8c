import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { clsCredentials } from '../../db/schema.ts';
import { hashBearerToken, newBearerToken } from '../../platform/bearer-token.ts';
import { type AuditActor, automatedActor, recordAudit } from '../audit/service.ts';
import { isActiveElasticServer, requireElasticServer } from '../ip-rules/service.ts';
import type { ElasticServer } from './ingest.ts';

const PREFIX = 'cls_';

/**
 * Issues a bearer credential for an active elastic license server of the account; the token is shown once (and
 * never recorded). `actor` is who issued it for the audit log: test fixtures and benchmarks leave it automated.
 */
export async function issueServerCredential(
  db: Db,
  input: { customerNumber: string; elasticServerId: string; createdBy: string },
  actor: AuditActor = automatedActor,
): Promise<{ id: string; token: string }> {
  await requireElasticServer(db, input.customerNumber, input.elasticServerId);
  const token = newBearerToken(PREFIX);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(clsCredentials)
      .values({ ...input, tokenHash: hashBearerToken(token) })
      .returning({ id: clsCredentials.id });
    await recordAudit(tx, actor, [
      {
        customerNumber: input.customerNumber,
        action: 'cls-api.credential.issued',
        object: { type: 'cls-credential', id: row.id },
        after: { clsId: input.elasticServerId, createdBy: input.createdBy },
      },
    ]);
    return { id: row.id, token };
  });
}

/** The account a credential belongs to; undefined for an unknown id. */
export async function findServerCredentialOwner(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db
    .select({ customerNumber: clsCredentials.customerNumber })
    .from(clsCredentials)
    .where(eq(clsCredentials.id, id));
  return row?.customerNumber;
}

/** Revokes an active credential; false when there is none with this id (nothing is recorded then). */
export async function revokeServerCredential(
  db: Db,
  id: string,
  actor: AuditActor = automatedActor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(clsCredentials)
      .set({ revokedAt: new Date() })
      .where(and(eq(clsCredentials.id, id), isNull(clsCredentials.revokedAt)))
      .returning({ customerNumber: clsCredentials.customerNumber, revokedAt: clsCredentials.revokedAt });
    if (!row) return false;
    await recordAudit(tx, actor, [
      {
        customerNumber: row.customerNumber,
        action: 'cls-api.credential.revoked',
        object: { type: 'cls-credential', id },
        before: { revokedAt: null },
        after: { revokedAt: row.revokedAt?.toISOString() ?? null },
      },
    ]);
    return true;
  });
}

export async function listServerCredentials(db: Db, customerNumber: string) {
  return db
    .select({
      id: clsCredentials.id,
      customerNumber: clsCredentials.customerNumber,
      elasticServerId: clsCredentials.elasticServerId,
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
    .select({
      customerNumber: clsCredentials.customerNumber,
      elasticServerId: clsCredentials.elasticServerId,
    })
    .from(clsCredentials)
    .where(and(eq(clsCredentials.tokenHash, hashBearerToken(token)), isNull(clsCredentials.revokedAt)));
  if (!row) return null;
  return (await isActiveElasticServer(db, row.customerNumber, row.elasticServerId)) ? row : null;
}
