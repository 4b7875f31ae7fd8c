import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { appSettings } from '../../db/schema.ts';

/**
 * Reads a JSON setting, creating it with `make()` on first use only (a signing key is an RSA key pair to make).
 * Insert-if-absent then read back, so API nodes starting at the same time all end up with the first writer's
 * value.
 */
export async function loadOrCreateSetting<T>(db: Db, key: string, make: () => T): Promise<T> {
  const read = async () => (await db.select().from(appSettings).where(eq(appSettings.key, key)))[0];
  const stored = await read();
  if (stored) return stored.value as T;
  await db.insert(appSettings).values({ key, value: make() }).onConflictDoNothing();
  return (await read())!.value as T;
}
