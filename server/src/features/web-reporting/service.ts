import type {
  HeatmapCell,
  PoolDenials,
  PoolUtilisation,
  ReclaimPage,
} from '@lp/contract/web-reporting/schemas';
import type { Finding } from '@lp/domain/notices';
import {
  denialReasonLabels,
  type InactiveDays,
  inactiveSeatsText,
  weekStart,
} from '@lp/domain/web-reporting';
import type { DenialReason } from '@lp/domain/web-seats';
import type { Db } from '../../db/database.ts';
import type { AppContext } from '../../platform/context.ts';
import type { Job } from '../../platform/jobs.ts';
import type { Principal } from '../../platform/principal.ts';
import { lagTolerantRead } from '../../platform/read-routing.ts';
import { authorizeAccount } from '../accounts/policy.ts';
import { webPoolSeats } from '../web-seats/service.ts';
import {
  accountsWithLeases,
  activeUsers,
  capacityDenialPeaks,
  dailyPeaks,
  denialCounts,
  firstLeaseHour,
  hourlyUse,
  idleNamedSeatsOfAll,
  idleNamedSeatsPage,
  lockWatermark,
  type Period,
  pruneRollupRuns,
  readWatermark,
  rollUpAccount,
  setWatermark,
} from './repository.ts';

/* /web-reporting (issue 24, decision 071): utilisation, the heat map, denials and the reclaim list. */

const DAY_MS = 86_400_000;
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString();

function periodOf(from: string, to: string): Period {
  return { fromDay: from, toDay: to, from: new Date(`${from}T00:00:00Z`).toISOString(), to: dayAfter(to) };
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * Per pool of the account today: seats, named seats held, people with a session in the period, the most sessions
 * at once, each day's seats against its peak (today's seats: a pool is computed from the lines of today), and for
 * shared pools each group with terms by the sessions that counted to it.
 */
export async function webUtilisation(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; from: string; to: string },
): Promise<PoolUtilisation[]> {
  const { customerNumber, from, to } = request;
  // webPoolSeats is the account gate ('read') and the pools with their seats, named seats and group terms.
  const pools = await webPoolSeats(ctx, principal, customerNumber);
  const period = periodOf(from, to);
  // The watermark and the rollups it vouches for come from one server (the replica when it may be used).
  const [peaks, users] = await lagTolerantRead(ctx, principal, async (db) => {
    const watermark = await readWatermark(db);
    return Promise.all([
      dailyPeaks(db, customerNumber, period, watermark),
      activeUsers(db, customerNumber, period, watermark),
    ]);
  });
  const poolPeaks = peaks.filter((p) => p.groupId === null);
  const groupPeaks = peaks.filter((p) => p.groupId !== null);
  const days = daysOf(from, to);
  const peakOf = (rows: typeof poolPeaks) => rows.reduce((m, r) => Math.max(m, r.peak), 0);
  return pools.map((pool) => {
    const mine = poolPeaks.filter((p) => p.partNumber === pool.partNumber);
    const byDay = new Map(mine.map((p) => [p.day, p.peak]));
    const usersOf = (groupId: string | null) =>
      users.find((u) => u.partNumber === pool.partNumber && u.groupId === groupId)?.users ?? 0;
    return {
      partNumber: pool.partNumber,
      productName: pool.productName,
      kind: pool.kind,
      seats: pool.seats,
      assigned: pool.assigned,
      activeUsers: usersOf(null),
      peakConcurrent: peakOf(mine),
      days: days.map((day) => ({ day, seats: pool.seats, peak: byDay.get(day) ?? 0 })),
      groups: pool.groupTerms.map((t) => ({
        ...t,
        activeUsers: usersOf(t.groupId),
        peakConcurrent: peakOf(
          groupPeaks.filter((p) => p.partNumber === pool.partNumber && p.groupId === t.groupId),
        ),
      })),
    };
  });
}

/** The 168 cells of the period's sessions by weekday and hour (UTC), Monday 00 first. */
export async function webUsageHeatmap(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; from: string; to: string; partNumber?: string },
): Promise<HeatmapCell[]> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  const rows = await lagTolerantRead(ctx, principal, async (db) =>
    hourlyUse(
      db,
      request.customerNumber,
      periodOf(request.from, request.to),
      await readWatermark(db),
      request.partNumber,
    ),
  );
  const cells: HeatmapCell[] = [];
  for (let weekday = 0; weekday < 7; weekday++)
    for (let hour = 0; hour < 24; hour++) {
      const row = rows.find((r) => r.weekday === weekday && r.hour === hour);
      cells.push({ weekday, hour, started: row?.started ?? 0, active: row?.active ?? 0 });
    }
  return cells;
}

/** Per pool with denials in the period: counts by reason and the seats that would have avoided the capacity ones. */
export async function webDenials(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; from: string; to: string },
): Promise<PoolDenials[]> {
  const { customerNumber } = request;
  const pools = await webPoolSeats(ctx, principal, customerNumber);
  const period = periodOf(request.from, request.to);
  const [counts, peaks] = await lagTolerantRead(ctx, principal, (db) =>
    Promise.all([denialCounts(db, customerNumber, period), capacityDenialPeaks(db, customerNumber, period)]),
  );
  const byPool = new Map<string, PoolDenials>();
  for (const row of counts) {
    const pool = byPool.get(row.partNumber) ?? {
      partNumber: row.partNumber,
      productName: row.productName,
      seats: pools.find((p) => p.partNumber === row.partNumber)?.seats ?? 0,
      total: 0,
      byReason: [],
      seatsToAvoid: peaks.get(row.partNumber) ?? 0,
    };
    const reason = row.reason as DenialReason;
    pool.byReason.push({ reason, label: denialReasonLabels[reason], count: row.count });
    pool.total += row.count;
    byPool.set(row.partNumber, pool);
  }
  return [...byPool.values()]
    .map((p) => ({
      ...p,
      byReason: p.byReason.sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    }))
    .sort((a, b) => b.total - a.total || a.partNumber.localeCompare(b.partNumber));
}

/** The instant `days` before now. */
export const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * One page of the named seats whose person had no session of the pool for `inactiveDays` (held longer than that),
 * idlest first, with the list's total.
 */
export async function webReclaim(
  ctx: AppContext,
  principal: Principal,
  request: { customerNumber: string; inactiveDays: InactiveDays; offset: number; limit: number },
  now = new Date(),
): Promise<ReclaimPage> {
  await authorizeAccount(ctx, principal, request.customerNumber, 'read');
  return lagTolerantRead(ctx, principal, (db) =>
    idleNamedSeatsPage(db, request.customerNumber, daysBefore(now, request.inactiveDays), request),
  );
}

/** The reclaim digest's window: named seats unused this many days. */
export const DIGEST_INACTIVE_DAYS = 30;

/**
 * The reclaim digest (decision 071) for the notices job: per account with named seats unused for 30 days, one
 * finding a week (its object is the week's Monday, so the job records and mails it once a week).
 */
export async function inactiveSeatFindings(db: Db, today: string): Promise<Map<string, Finding>> {
  const since = daysBefore(new Date(`${today}T00:00:00Z`), DIGEST_INACTIVE_DAYS);
  const findings = new Map<string, Finding>();
  for (const [customerNumber, seats] of await idleNamedSeatsOfAll(db, since)) {
    const listed = seats.map((s) => ({ ...s, lastSeen: s.lastSeen?.slice(0, 10) ?? null }));
    findings.set(customerNumber, {
      type: 'web-seats-inactive',
      objectId: weekStart(today),
      threshold: DIGEST_INACTIVE_DAYS,
      text: inactiveSeatsText(listed, DIGEST_INACTIVE_DAYS),
    });
  }
  return findings;
}

const HOUR_MS = 3_600_000;
/** A lease is written with its request's clock and committed within the statement deadline: hours this long
 * closed are settled. */
const SETTLE_MS = 5 * 60_000;

const hourOf = (t: number) => new Date(Math.floor(t / HOUR_MS) * HOUR_MS).toISOString();

/**
 * Rolls the closed hours since the watermark up into web_usage_hours and web_usage_people (decision 071 as
 * built) in one transaction under the rollup's lock, account by account, and moves the watermark; answers the
 * hours rolled up. A backlog (the first run on a year of leases) is one window too: each lease is read once,
 * where windows one after another would each read the leases across their start. Rolling a window again replaces
 * its rows with the same ones. A lease still open is counted open to the window's end: it ends later (now, as its
 * request or the sweep sees it), so after the watermark.
 */
export async function rollUpWebUsage(
  db: Db,
  now: Date,
): Promise<{ from: string | null; until: string | null }> {
  const target = hourOf(now.getTime() - SETTLE_MS);
  return db.transaction(async (tx) => {
    const mark = await lockWatermark(tx);
    const accounts = await accountsWithLeases(tx);
    const start = mark ?? (await firstLeaseHour(tx, accounts)) ?? target;
    if (start >= target) {
      if (mark === null) await setWatermark(tx, target);
      return { from: null, until: null };
    }
    for (const customerNumber of accounts) await rollUpAccount(tx, customerNumber, start, target);
    await setWatermark(tx, target);
    return { from: start, until: target };
  });
}

/** The run key of the rollup: the UTC hour closed ten minutes ago (so the run comes after the hour settled). */
const rollupHour = (now: Date) => new Date(now.getTime() - 10 * 60_000).toISOString().slice(0, 13);

/**
 * Once an hour across the nodes (decision 040's runner), and at a node's start: the hours closed since the last
 * run are rolled up for the reports.
 */
/** Hours before this instant are in the reports' rollups (null: nothing rolled up yet). */
export const webRollupWatermark = (db: Db): Promise<string | null> => readWatermark(db);

export const webUsageRollupJob: Job = {
  name: 'web-usage-rollup',
  runKeyOf: rollupHour,
  run: async (ctx, _hour, now) => {
    // Without the statement deadline: a first run on a year of leases takes longer than a request may.
    await ctx.database.unbounded((database) => rollUpWebUsage(database.db, now));
    await pruneRollupRuns(ctx.db, 'web-usage-rollup', now);
  },
};
