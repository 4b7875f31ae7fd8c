import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { appSettings } from '../../db/schema.ts';

/**
 * Reads a JSON setting, creating it with `make()` on first use. Insert-if-absent then read back, so
 * API nodes starting at the same time all end up with the first writer's value.
 */
export async function loadOrCreateSetting<T>(db: Db, key: string, make: () => T): Promise<T> {
  await db.insert(appSettings).values({ key, value: make() }).onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, key));
  return row.value as T;
}
