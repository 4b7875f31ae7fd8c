import type { HistoryRow } from '@lp/contract/activations/schemas';
import { formatDateTime } from './dates.ts';
import { AUTOMATED_ACTION } from './entitlements.ts';

/** Spec 002 §9 "Fulfillment grouping window: 30 seconds". */
export const HISTORY_GROUP_WINDOW_SECONDS = 30;

/** One recorded change of a fulfillment: `count` is positive when seats were activated, negative when returned. */
export interface HistoryEvent {
  /** Epoch milliseconds (a number: 10 000 events group without a Date each) */
  time: number;
  /** The user's e-mail; empty when nobody was recorded */
  modifiedBy: string;
  count: number;
  customerNumber: string;
  activationId: string;
  product: string;
  startDate: string;
  endDate: string | null;
  /** A perpetual's maintenance end */
  versionDate?: string | null;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Time first; equal times by who and what, so the result never depends on the order the events came in (a batch
 * saves all its events at one instant).
 */
const byTime = (a: HistoryEvent, b: HistoryEvent) =>
  a.time - b.time ||
  compareText(a.modifiedBy, b.modifiedBy) ||
  compareText(a.customerNumber, b.customerNumber) ||
  compareText(a.activationId, b.activationId) ||
  a.count - b.count;

const byRowOrder = (a: HistoryRow, b: HistoryRow) =>
  compareText(a.product, b.product) ||
  compareText(a.activationId, b.activationId) ||
  compareText(a.customerNumber, b.customerNumber);

/** 'ACTIVATE (n)' for a positive sum, otherwise 'DEACTIVATE (n)' with n the returned seats (spec 002 §4). */
export const historyAction = (count: number) =>
  count > 0 ? `ACTIVATE (${count})` : `DEACTIVATE (${Math.abs(count)})`;

/** The rows of one group: one per activation, counts summed, modifiedBy the first one recorded. */
function rowsOfGroup(groupId: number, events: HistoryEvent[]): HistoryRow[] {
  const rows = new Map<string, HistoryRow>();
  const time = formatDateTime(events[0].time);
  for (const e of events) {
    const key = `${e.customerNumber}\u0000${e.activationId}`;
    const row = rows.get(key);
    if (row) {
      row.count += e.count;
      if (row.modifiedBy === '' && e.modifiedBy !== '') row.modifiedBy = e.modifiedBy;
      continue;
    }
    rows.set(key, {
      groupId,
      time,
      modifiedBy: e.modifiedBy,
      action: '',
      customerNumber: e.customerNumber,
      activationId: e.activationId,
      product: e.product,
      count: e.count,
      startDate: e.startDate,
      endDate: e.endDate,
      versionDate: e.versionDate ?? null,
    });
  }
  return [...rows.values()]
    .map((row) => ({
      ...row,
      modifiedBy: row.modifiedBy || AUTOMATED_ACTION,
      action: historyAction(row.count),
    }))
    .sort(byRowOrder);
}

/**
 * Spec 002 §4 "Activation history grouping", decision 032. In time order, a group starts at the oldest event not
 * yet grouped and takes every later event at most `windowSeconds` after that first one, so any two events of a
 * group lie within the window (a steady trickle of changes cannot chain into one endless group). Within a group
 * the counts of one activation are summed into one row. Groups are numbered from 1 (oldest) and come newest
 * first; rows within a group by product, then activation id.
 */
export function groupHistory(
  events: readonly HistoryEvent[],
  windowSeconds = HISTORY_GROUP_WINDOW_SECONDS,
): HistoryRow[] {
  const sorted = [...events].sort(byTime);
  const windowMs = windowSeconds * 1000;
  const groups: HistoryRow[][] = [];
  for (let start = 0; start < sorted.length; ) {
    const limit = sorted[start].time + windowMs;
    let end = start + 1;
    while (end < sorted.length && sorted[end].time <= limit) end++;
    groups.push(rowsOfGroup(groups.length + 1, sorted.slice(start, end)));
    start = end;
  }
  return groups.reverse().flat();
}
