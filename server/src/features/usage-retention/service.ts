import type { Db } from '../../db/database.ts';
import { monthPartitions, monthStart } from '../../db/partitions.ts';
import { type Job, utcDay } from '../../platform/jobs.ts';
import { automatedActor, recordAudit } from '../audit/service.ts';
import { webRollupWatermark } from '../web-reporting/service.ts';
import {
  clearDailyCounts,
  countLeases,
  deleteDefaultRows,
  dropMonthPartition,
  type RolledUp,
  rollUpSessions,
} from './repository.ts';

/** A month whose raw rows went: the table, its first day, and what it held. */
export interface RetiredMonth extends RolledUp {
  table: 'usage_sessions' | 'web_leases';
  month: string;
}

const nextMonth = (month: string) => monthStart(new Date(`${month}T00:00:00Z`), 1);

/**
 * Decision 073: the months of raw usage older than `retentionMonths` before the current one go, each in one
 * transaction with one vendor-wide audit entry:
 * - usage sessions are first summed into usage_daily_rollups; the ledger, its daily rollups and so statements
 *   and balances are not touched;
 * - web leases go once the reports' hourly rollups cover the whole month (web-reporting's watermark past its end),
 *   so the reports of the month read the same.
 * A month's partition is detached and dropped; rows of such months in a default partition are deleted. Safe to
 * repeat: a dropped month is gone from the list.
 */
export async function retireUsageMonths(db: Db, now: Date, retentionMonths: number): Promise<RetiredMonth[]> {
  const cutoff = monthStart(now, -retentionMonths);
  const watermark = await webRollupWatermark(db);
  const rolledUpTo = watermark && watermark < cutoff ? monthStart(new Date(watermark)) : cutoff;
  const retired: RetiredMonth[] = [];
  const audit = (tx: Db, table: RetiredMonth['table'], id: string, held: RolledUp) =>
    recordAudit(tx, automatedActor, [
      {
        customerNumber: null,
        action: 'usage-retention.month.dropped',
        object: { type: table === 'usage_sessions' ? 'usage-month' : 'web-lease-month', id },
        after: { ...held, retentionMonths },
      },
    ]);

  for (const { name, month } of await monthPartitions(db, 'usage_sessions')) {
    if (month >= cutoff) break;
    retired.push(
      await db.transaction(async (tx) => {
        const rolled = await rollUpSessions(tx, name);
        await dropMonthPartition(tx, 'usage_sessions', name);
        await clearDailyCounts(tx, nextMonth(month), month);
        await audit(tx, 'usage_sessions', month.slice(0, 7), rolled);
        return { table: 'usage_sessions' as const, month, ...rolled };
      }),
    );
  }
  for (const { name, month } of await monthPartitions(db, 'web_leases')) {
    if (watermark === null || month >= cutoff || nextMonth(month) > rolledUpTo) break;
    retired.push(
      await db.transaction(async (tx) => {
        const held = { sessions: await countLeases(tx, name), chargedCents: 0 };
        await dropMonthPartition(tx, 'web_leases', name);
        await audit(tx, 'web_leases', month.slice(0, 7), held);
        return { table: 'web_leases' as const, month, ...held };
      }),
    );
  }

  await db.transaction(async (tx) => {
    const rolled = await rollUpSessions(tx, 'usage_sessions_default', cutoff);
    if (rolled.sessions === 0) return;
    await deleteDefaultRows(tx, 'usage_sessions', cutoff);
    await clearDailyCounts(tx, cutoff);
    await audit(tx, 'usage_sessions', `before ${cutoff.slice(0, 7)}`, rolled);
  });
  if (watermark !== null)
    await db.transaction(async (tx) => {
      const sessions = await countLeases(tx, 'web_leases_default', rolledUpTo);
      if (sessions === 0) return;
      await deleteDefaultRows(tx, 'web_leases', rolledUpTo);
      await audit(tx, 'web_leases', `before ${rolledUpTo.slice(0, 7)}`, { sessions, chargedCents: 0 });
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
