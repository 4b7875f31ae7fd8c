import type { DenialReason } from './web-seats.ts';

/**
 * Web licensing's reports (issue 24, decision 071): the words /web-transactions shows for a lease's outcome and a
 * denial's reason, which denials count for capacity, the reclaim list's windows and the reclaim digest's line.
 * Pure; the server's SQL counts, these name.
 */

/** How a lease ended (or that it is open, or was denied), in the words the grid shows, filters and exports. */
export const leaseOutcomeLabels = {
  open: 'Open',
  released: 'Released',
  'idle-timeout': 'Timed out (idle)',
  'heartbeat-lost': 'Timed out (no heartbeat)',
  'admin-released': 'Released by an administrator',
  'user-removed': 'Ended: user removed',
  denied: 'Denied',
} as const;
export type LeaseOutcome = keyof typeof leaseOutcomeLabels;

/** A denial's reason in a few words (the product API's `message` is the sentence a person is shown). */
export const denialReasonLabels: Record<DenialReason, string> = {
  'unknown-user': 'Unknown user',
  'suspended-user': 'User suspended or removed',
  'no-pool': 'No pool',
  'no-seat-assigned': 'No seat assigned',
  'session-limit': 'Session limit',
  'group-cap': 'Group at its cap',
  'pool-full': 'Pool full',
};

/** Denials more seats would have avoided: the pool's seats (pool-full) or a group's cap (group-cap). */
export const capacityDenials: readonly DenialReason[] = ['pool-full', 'group-cap'];

/** The reclaim list's windows: named seats whose person had no session in that many days. */
export const INACTIVE_DAYS = [30, 60, 90] as const;
export type InactiveDays = (typeof INACTIVE_DAYS)[number];

/** The Monday (UTC) of a day's ISO week, 'YYYY-MM-DD': the reclaim digest is found once a week. */
export function weekStart(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}

export interface InactiveSeat {
  email: string;
  name: string;
  productName: string;
  /** 'YYYY-MM-DD', or null: never had a session of the pool */
  lastSeen: string | null;
}

/** The listed seats of a digest line; the rest are counted. */
const LISTED = 10;

/** The reclaim digest's one line for an account: the inactive named seats, the first ten named. */
export function inactiveSeatsText(seats: readonly InactiveSeat[], days: number): string {
  const named = seats.slice(0, LISTED).map((s) => {
    const who = s.name ? `${s.name} <${s.email}>` : s.email;
    const seen = s.lastSeen ? `last session ${s.lastSeen}` : 'no session yet';
    return `${who} (${s.productName}, ${seen})`;
  });
  const more = seats.length > LISTED ? `, and ${seats.length - LISTED} more` : '';
  const count = seats.length === 1 ? '1 named web seat has' : `${seats.length} named web seats have`;
  return `${count} had no session for ${days} days or more: ${named.join('; ')}${more}. Reclaim them on Web > Reporting.`;
}
