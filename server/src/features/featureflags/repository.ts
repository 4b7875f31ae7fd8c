import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { features, userFeatures } from '../../db/schema.ts';

export async function listFeatures(db: Db) {
  return db
    .select({
      name: features.name,
      description: features.description,
      enabled: features.enabled,
      conflicts: features.conflicts,
    })
    .from(features)
    .orderBy(asc(features.name));
}

/** The user's saved selection, or null when the user never saved one. */
export async function findUserSelection(db: Db, userId: string): Promise<string[] | null> {
  const [row] = await db
    .select({ enabled: userFeatures.enabled })
    .from(userFeatures)
    .where(eq(userFeatures.userId, userId));
  return row ? row.enabled : null;
}

export async function saveUserSelection(db: Db, userId: string, enabled: string[]) {
  await db
    .insert(userFeatures)
    .values({ userId, enabled })
    .onConflictDoUpdate({ target: userFeatures.userId, set: { enabled } });
}

/**
 * Inserts the features whose name is not there yet and leaves every existing row as it is (an administrator
 * may have switched it off or reworded it); several nodes starting at once are safe. Answers the names added.
 */
export async function insertMissingFeatures(
  db: Db,
  rows: (typeof features.$inferInsert)[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const added = await db
    .insert(features)
    .values(rows)
    .onConflictDoNothing({ target: features.name })
    .returning({ name: features.name });
  return added.map((r) => r.name);
}
