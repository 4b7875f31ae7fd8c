import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { products, webCredentials } from '../../db/schema.ts';
import { hashBearerToken, newBearerToken } from '../../platform/bearer-token.ts';
import { badRequest } from '../../platform/errors.ts';
import { type AuditActor, automatedActor, recordAudit } from '../audit/service.ts';

/** A vendor product admitted by its credential: which part numbers it may check out (decision 071). */
export interface WebProduct {
  credentialId: string;
  product: string;
  partNumbers: string[];
}

const PREFIX = 'web_';

/**
 * Issues a per-product credential of the web-license API for the part numbers (each a known product); the token
 * is answered once and only its hash is stored, as for license-server credentials. Vendor-wide, so audited in the
 * global chain. `actor` is who issued it: test fixtures leave it automated.
 */
export async function issueWebCredential(
  db: Db,
  input: { product: string; partNumbers: string[]; createdBy: string },
  actor: AuditActor = automatedActor,
): Promise<{ id: string; token: string }> {
  const product = input.product.trim();
  const partNumbers = [...new Set(input.partNumbers.map((p) => p.trim()))].sort();
  if (!product) throw badRequest('A credential needs the name of the product it is for.');
  if (partNumbers.length === 0 || partNumbers.includes(''))
    throw badRequest('A credential needs at least one part number.');
  const known = await db
    .select({ partNumber: products.partNumber })
    .from(products)
    .where(inArray(products.partNumber, partNumbers));
  const unknown = partNumbers.filter((p) => !known.some((k) => k.partNumber === p));
  if (unknown.length) throw badRequest(`No product with part number ${unknown.join(', ')}.`);
  const token = newBearerToken(PREFIX);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webCredentials)
      .values({ product, partNumbers, tokenHash: hashBearerToken(token), createdBy: input.createdBy })
      .returning({ id: webCredentials.id });
    await recordAudit(tx, actor, [
      {
        customerNumber: null,
        action: 'web-sessions.credential.issued',
        object: { type: 'web-credential', id: row.id },
        after: { product, partNumbers, createdBy: input.createdBy },
      },
    ]);
    return { id: row.id, token };
  });
}

/** Revokes an active credential at once; false when there is none with this id (nothing is recorded then). */
export async function revokeWebCredential(
  db: Db,
  id: string,
  actor: AuditActor = automatedActor,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webCredentials)
      .set({ revokedAt: new Date() })
      .where(and(eq(webCredentials.id, id), isNull(webCredentials.revokedAt)))
      .returning({ revokedAt: webCredentials.revokedAt });
    if (!row) return false;
    await recordAudit(tx, actor, [
      {
        customerNumber: null,
        action: 'web-sessions.credential.revoked',
        object: { type: 'web-credential', id },
        before: { revokedAt: null },
        after: { revokedAt: row.revokedAt?.toISOString() ?? null },
      },
    ]);
    return true;
  });
}

/** Every credential, oldest first (never the secret). */
export async function listWebCredentials(db: Db) {
  return db
    .select({
      id: webCredentials.id,
      product: webCredentials.product,
      partNumbers: webCredentials.partNumbers,
      createdAt: webCredentials.createdAt,
      createdBy: webCredentials.createdBy,
      revokedAt: webCredentials.revokedAt,
    })
    .from(webCredentials)
    .orderBy(asc(webCredentials.createdAt), asc(webCredentials.id));
}

/** The product a bearer token belongs to when known and not revoked; null otherwise (answered 401 alike). */
export async function authenticateWebProduct(db: Db, token: string): Promise<WebProduct | null> {
  if (!token.startsWith(PREFIX)) return null;
  const [row] = await db
    .select({
      id: webCredentials.id,
      product: webCredentials.product,
      partNumbers: webCredentials.partNumbers,
    })
    .from(webCredentials)
    .where(and(eq(webCredentials.tokenHash, hashBearerToken(token)), isNull(webCredentials.revokedAt)));
  return row ? { credentialId: row.id, product: row.product, partNumbers: row.partNumbers } : null;
}
