import type { NoticeChoices } from '@lp/domain/notices';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { noticeChoices, noticeSettings, notices } from '../../db/schema.ts';

export type NoticeRow = typeof notices.$inferSelect;
export type NewNotice = typeof notices.$inferInsert;

/** Records the findings not recorded before (one per account, type, object and threshold); answers those. */
export async function insertNewNotices(tx: Db, rows: NewNotice[]): Promise<NoticeRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(notices)
    .values(rows)
    .onConflictDoNothing({
      target: [notices.customerNumber, notices.type, notices.objectId, notices.threshold],
    })
    .returning();
}

/** Every account's switched-off notice types. */
export async function listDisabledTypes(db: Db): Promise<Map<string, string[]>> {
  const rows = await db.select().from(noticeSettings);
  return new Map(rows.map((r) => [r.customerNumber, r.disabledTypes]));
}

/** Every user's choices, by account and e-mail. */
export async function listChoices(db: Db): Promise<Map<string, Map<string, NoticeChoices>>> {
  const rows = await db.select().from(noticeChoices).orderBy(sql`1`);
  const byAccount = new Map<string, Map<string, NoticeChoices>>();
  for (const r of rows) {
    const users = byAccount.get(r.customerNumber) ?? new Map<string, NoticeChoices>();
    users.set(r.userEmail.toLowerCase(), {
      expiryDays: r.expiryDays as NoticeChoices['expiryDays'],
      usagePercents: r.usagePercents,
      runOut: r.runOut,
    });
    byAccount.set(r.customerNumber, users);
  }
  return byAccount;
}
