import type { Db } from '../../db/database.ts';
import { endLeasesOfUsers } from './repository.ts';

/**
 * Ends the open leases of these people (decision 071: suspending or removing a person ends their sessions in the
 * same transaction). web-directory calls it inside its own transaction; answers how many leases ended.
 */
export async function endUserLeases(
  tx: Db,
  customerNumber: string,
  userIds: string[],
  outcome: 'user-removed' | 'admin-released',
): Promise<number> {
  return endLeasesOfUsers(tx, customerNumber, userIds, outcome);
}
