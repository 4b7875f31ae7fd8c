import type { NoticeChoices } from '@lp/domain/notices';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
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

/** The account's notices found on `sinceDay` or later, newest first. */
export const listRecentNotices = (db: Db, customerNumber: string, sinceDay: string) =>
  db
    .select()
    .from(notices)
    .where(and(eq(notices.customerNumber, customerNumber), gte(notices.foundOn, sinceDay)))
    .orderBy(desc(notices.foundOn), desc(notices.id))
    .limit(500);

export async function findChoices(db: Db, userEmail: string, customerNumber: string) {
  const [row] = await db
    .select()
    .from(noticeChoices)
    .where(
      and(
        eq(noticeChoices.userEmail, userEmail.toLowerCase()),
        eq(noticeChoices.customerNumber, customerNumber),
      ),
    );
  return row;
}

export async function saveChoices(db: Db, row: typeof noticeChoices.$inferInsert) {
  await db
    .insert(noticeChoices)
    .values({ ...row, userEmail: row.userEmail.toLowerCase() })
    .onConflictDoUpdate({
      target: [noticeChoices.userEmail, noticeChoices.customerNumber],
      set: { expiryDays: row.expiryDays, usagePercents: row.usagePercents, runOut: row.runOut },
    });
}

export async function findDisabledTypes(db: Db, customerNumber: string): Promise<string[]> {
  const [row] = await db
    .select()
    .from(noticeSettings)
    .where(eq(noticeSettings.customerNumber, customerNumber));
  return row?.disabledTypes ?? [];
}

export async function saveDisabledTypes(db: Db, customerNumber: string, disabledTypes: string[]) {
  await db
    .insert(noticeSettings)
    .values({ customerNumber, disabledTypes })
    .onConflictDoUpdate({ target: noticeSettings.customerNumber, set: { disabledTypes } });
}
