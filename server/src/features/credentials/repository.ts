import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { elasticServerSettings } from '../../db/schema.ts';

export async function findSettings(db: Db, customerNumber: string, elasticServerId: string) {
  const [row] = await db
    .select({ pinCipher: elasticServerSettings.pinCipher, users: elasticServerSettings.users })
    .from(elasticServerSettings)
    .where(
      and(
        eq(elasticServerSettings.customerNumber, customerNumber),
        eq(elasticServerSettings.elasticServerId, elasticServerId),
      ),
    );
  return row;
}

const key = [elasticServerSettings.customerNumber, elasticServerSettings.elasticServerId];

export async function savePinCipher(
  db: Db,
  customerNumber: string,
  elasticServerId: string,
  pinCipher: string,
) {
  await db
    .insert(elasticServerSettings)
    .values({ customerNumber, elasticServerId, pinCipher })
    .onConflictDoUpdate({ target: key, set: { pinCipher, updatedAt: sql`now()` } });
}

/** First PINs of new servers, in one statement; a server that has settings already keeps them. */
export async function insertPinCiphers(
  db: Db,
  rows: readonly { customerNumber: string; elasticServerId: string; pinCipher: string }[],
) {
  if (rows.length === 0) return;
  await db
    .insert(elasticServerSettings)
    .values([...rows])
    .onConflictDoNothing();
}

/**
 * Stores the PIN only where none is stored yet; a PIN already in place (even one written a moment ago) stays.
 * Answers whether this call stored it.
 */
export async function savePinCipherIfMissing(
  db: Db,
  customerNumber: string,
  elasticServerId: string,
  pinCipher: string,
): Promise<boolean> {
  const rows = await db
    .insert(elasticServerSettings)
    .values({ customerNumber, elasticServerId, pinCipher })
    .onConflictDoUpdate({
      target: key,
      set: { pinCipher, updatedAt: sql`now()` },
      setWhere: isNull(elasticServerSettings.pinCipher),
    })
    .returning({ elasticServerId: elasticServerSettings.elasticServerId });
  return rows.length > 0;
}

export async function saveUsers(db: Db, customerNumber: string, elasticServerId: string, users: string[]) {
  await db
    .insert(elasticServerSettings)
    .values({ customerNumber, elasticServerId, users })
    .onConflictDoUpdate({ target: key, set: { users, updatedAt: sql`now()` } });
}
