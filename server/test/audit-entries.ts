import { asc, gt, like, max } from 'drizzle-orm';
import type { Db } from '../src/db/database.ts';
import { auditEntries } from '../src/db/schema.ts';

/** The audit entries whose action starts with `prefix` ('portal-access.'), oldest first: what a test checks. */
export async function auditEntriesOf(db: Db, prefix: string) {
  return db
    .select()
    .from(auditEntries)
    .where(like(auditEntries.action, `${prefix}%`))
    .orderBy(asc(auditEntries.id));
}

/**
 * What calls write to the audit log: `mark()` the highest entry id so far (0 when none), then `since(mark)` the
 * entries written after it, oldest first.
 */
export function auditLog(db: Db) {
  return {
    mark: async (): Promise<number> =>
      (await db.select({ id: max(auditEntries.id) }).from(auditEntries))[0]?.id ?? 0,
    since: (mark: number) =>
      db.select().from(auditEntries).where(gt(auditEntries.id, mark)).orderBy(asc(auditEntries.id)),
  };
}
