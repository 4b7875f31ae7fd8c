import type { Db } from '../../db/database.ts';
import { monthPartitions, monthStart } from '../../db/partitions.ts';
import { type Job, utcDay } from '../../platform/jobs.ts';
import { automatedActor, recordAudit } from '../audit/service.ts';
import { deleteDefaultSessions, dropMonthPartition, type RolledUp, rollUpSessions } from './repository.ts';

/** A month whose raw sessions went: its first day, and what its rollups gained. */
export interface RetiredMonth extends RolledUp {
  month: string;
}

/**
 * Decision 073: the months of raw usage sessions older than `retentionMonths` before the current one are summed
 * into usage_daily_rollups and their partitions dropped, each month in one transaction with its audit entry
 * (vendor-wide). The ledger, its daily rollups and so statements and balances are not touched. Sessions of such
 * months held by the default partition go the same way. Safe to repeat: a dropped month is gone from the list.
 */
export async function retireUsageMonths(db: Db, now: Date, retentionMonths: number): Promise<RetiredMonth[]> {
  const cutoff = monthStart(now, -retentionMonths);
  const retired: RetiredMonth[] = [];
  for (const { name, month } of await monthPartitions(db, 'usage_sessions')) {
    if (month >= cutoff) break;
    retired.push(
      await db.transaction(async (tx) => {
        const rolled = await rollUpSessions(tx, name);
        await dropMonthPartition(tx, name);
        await recordAudit(tx, automatedActor, [
          {
            customerNumber: null,
            action: 'usage-retention.month.dropped',
            object: { type: 'usage-month', id: month.slice(0, 7) },
            after: { ...rolled, retentionMonths },
          },
        ]);
        return { month, ...rolled };
      }),
    );
  }
  await db.transaction(async (tx) => {
    const rolled = await rollUpSessions(tx, 'usage_sessions_default', cutoff);
    if (rolled.sessions === 0) return;
    await deleteDefaultSessions(tx, cutoff);
    await recordAudit(tx, automatedActor, [
      {
        customerNumber: null,
        action: 'usage-retention.month.dropped',
        object: { type: 'usage-month', id: `before ${cutoff.slice(0, 7)}` },
        after: { ...rolled, retentionMonths },
      },
    ]);
  });
  return retired;
}

/** Once a UTC day, on whichever node claims the run (decision 040). */
export function usageRetentionJob(retentionMonths: number): Job {
  return {
    name: 'usage-retention',
    runKeyOf: utcDay,
    run: async (ctx, _day, now) => {
      await retireUsageMonths(ctx.db, now, retentionMonths);
    },
  };
}
