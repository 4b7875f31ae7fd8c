import { desc, isNull, sql } from 'drizzle-orm';
import { type Db, lockUntilCommit } from '../../db/database.ts';
import { licenseSigningKeys } from '../../db/schema.ts';

/** The key new files are signed with: the newest one not retired. */
export async function findCurrentKey(db: Db) {
  const [row] = await db
    .select()
    .from(licenseSigningKeys)
    .where(isNull(licenseSigningKeys.retiredAt))
    .orderBy(desc(licenseSigningKeys.createdAt), desc(licenseSigningKeys.keyId))
    .limit(1);
  return row;
}

export async function insertKey(db: Db, key: typeof licenseSigningKeys.$inferInsert) {
  await db.insert(licenseSigningKeys).values(key).onConflictDoNothing();
}

/** Retires every current key (files they signed keep verifying: the public keys stay published). */
export async function retireKeys(db: Db) {
  await db
    .update(licenseSigningKeys)
    .set({ retiredAt: sql`now()` })
    .where(isNull(licenseSigningKeys.retiredAt));
}

export async function listKeys(db: Db) {
  return db
    .select({
      keyId: licenseSigningKeys.keyId,
      publicKeyPem: licenseSigningKeys.publicKeyPem,
      createdAt: licenseSigningKeys.createdAt,
      retiredAt: licenseSigningKeys.retiredAt,
    })
    .from(licenseSigningKeys)
    .orderBy(desc(licenseSigningKeys.createdAt));
}

/** Serialises key creation and rotation across API nodes until the transaction ends. */
export async function lockKeys(tx: Db) {
  await lockUntilCommit(tx, 'license-signing-keys');
}
