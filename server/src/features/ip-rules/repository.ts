import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { ipRules } from '../../db/schema.ts';

export async function listIpRules(db: Db, customerNumber: string, elasticServerId: string) {
  return db
    .select({ rulename: ipRules.ruleName, ipaddress: ipRules.ipAddress })
    .from(ipRules)
    .where(and(eq(ipRules.customerNumber, customerNumber), eq(ipRules.elasticServerId, elasticServerId)))
    .orderBy(asc(ipRules.position));
}

export async function replaceIpRules(
  db: Db,
  customerNumber: string,
  elasticServerId: string,
  rules: { rulename: string; ipaddress: string }[],
) {
  await db
    .delete(ipRules)
    .where(and(eq(ipRules.customerNumber, customerNumber), eq(ipRules.elasticServerId, elasticServerId)));
  if (rules.length) {
    await db.insert(ipRules).values(
      rules.map((r, position) => ({
        customerNumber,
        elasticServerId,
        position,
        ruleName: r.rulename,
        ipAddress: r.ipaddress,
      })),
    );
  }
}
