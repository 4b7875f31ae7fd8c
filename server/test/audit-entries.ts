import { asc, like } from 'drizzle-orm';
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
