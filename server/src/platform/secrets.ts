import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { appSettings } from '../db/schema.ts';

/**
 * Returns a random secret stored under `key`, creating it on first use. Stored in the database so
 * that every API node behind a load balancer signs and verifies with the same key.
 */
export async function loadOrCreateSecret(db: Db, key: string, bytes = 32): Promise<Buffer> {
  const fresh = randomBytes(bytes).toString('base64');
  await db.insert(appSettings).values({ key, value: fresh }).onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key));
  return Buffer.from(row.value as string, 'base64');
}
