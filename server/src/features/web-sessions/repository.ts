import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database.ts';

/** Ends the open leases of these people in one account; answers how many ended. */
export async function endLeasesOfUsers(
  tx: Db,
  customerNumber: string,
  userIds: readonly string[],
  outcome: 'user-removed' | 'admin-released',
): Promise<number> {
  if (userIds.length === 0) return 0;
  const rows = await queryRows<{ id: string | number }>(
    tx,
    sql`update web_leases set outcome = ${outcome}, ended_at = now()
      where customer_number = ${customerNumber} and outcome = 'open'
        and user_id in (select (jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))::uuid)
      returning id`,
  );
  return rows.length;
}
