import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { ipRules } from '../../db/schema.ts';

export async function listIpRules(db: Db, customerNumber: string, clsId: string) {
  return db
    .select({ rulename: ipRules.ruleName, ipaddress: ipRules.ipAddress })
    .from(ipRules)
    .where(and(eq(ipRules.customerNumber, customerNumber), eq(ipRules.clsId, clsId)))
    .orderBy(asc(ipRules.position));
}

export async function replaceIpRules(
  db: Db,
  customerNumber: string,
  clsId: string,
  rules: { rulename: string; ipaddress: string }[],
) {
  await db.delete(ipRules).where(and(eq(ipRules.customerNumber, customerNumber), eq(ipRules.clsId, clsId)));
  if (rules.length) {
    await db.insert(ipRules).values(
      rules.map((r, position) => ({
        customerNumber,
        clsId,
        position,
        ruleName: r.rulename,
        ipAddress: r.ipaddress,
      })),
    );
  }
}
