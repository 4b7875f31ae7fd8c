import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { tablePrefs } from '../../db/schema.ts';

export async function listPrefs(db: Db, userId: string) {
  return db
    .select()
    .from(tablePrefs)
    .where(eq(tablePrefs.userId, userId))
    .orderBy(tablePrefs.customerNumber, tablePrefs.tableName);
}

export async function upsertPref(
  db: Db,
  userId: string,
  customerNumber: string,
  tableName: string,
  payload: object,
) {
  await db
    .insert(tablePrefs)
    .values({ userId, customerNumber, tableName, payload })
    .onConflictDoUpdate({
      target: [tablePrefs.userId, tablePrefs.customerNumber, tablePrefs.tableName],
      set: { payload, updatedAt: sql`now()` },
    });
}

export async function deletePref(db: Db, userId: string, customerNumber: string, tableName: string) {
  await db
    .delete(tablePrefs)
    .where(
      and(
        eq(tablePrefs.userId, userId),
        eq(tablePrefs.customerNumber, customerNumber),
        eq(tablePrefs.tableName, tableName),
      ),
    );
}
