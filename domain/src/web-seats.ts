import { licenseModelGroupOf } from './entitlements.ts';

/**
 * Web licensing's seat rules (decision 071), shared by the server (which enforces them under the pool's row lock)
 * and the pages (which preview a change before it is saved). Pure: counts in, verdicts and texts out.
 */

/** A named pool's seats belong to people; a shared pool's seats are taken by whoever checks out first. */
export type PoolKind = 'named' | 'shared';

/** The pool kind of an entitlement line's license model (spec 002 §9 groups), or undefined for other models. */
export function poolKindOf(licenseModel: string): PoolKind | undefined {
  const group = licenseModelGroupOf(licenseModel);
  if (group === 'Named User') return 'named';
  if (group === 'Shared Web') return 'shared';
  return undefined;
}

/** One entitlement line of a pool's product. Dates are 'YYYY-MM-DD'; a null end is permanent. */
export interface PoolLine {
  quantity: number;
  startDate: string;
  endDate: string | null;
  state: string;
}

/** What a pool holds today: the Deployed lines whose term covers `today`. */
export function poolCapacity(
  lines: readonly PoolLine[],
  today: string,
): { seats: number; start: string | null; end: string | null } {
  const live = lines.filter(
    (l) => l.state === 'Deployed' && l.startDate <= today && (l.endDate === null || l.endDate >= today),
  );
  const ends = live.map((l) => l.endDate);
  return {
    seats: live.reduce((sum, l) => sum + l.quantity, 0),
    start: live.length ? live.map((l) => l.startDate).sort()[0] : null,
    end: !live.length || ends.includes(null) ? null : (ends as string[]).sort().at(-1)!,
  };
}

/** A group's terms on a shared pool: seats kept free for its members, and the most its members may hold. */
export interface GroupTerms {
  groupId: string;
  groupName: string;
  guaranteed: number;
  /** null: no cap beyond the pool's seats */
  cap: number | null;
}

/** Why a change to a pool's assignments is refused, in the words the page and the API show; null when it fits. */
export function namedSeatsProblem(pool: { name: string; seats: number }, assigned: number): string | null {
  if (assigned <= pool.seats) return null;
  return `${pool.name} has ${pool.seats} ${plural(pool.seats, 'seat')}; this change would assign ${assigned}.`;
}

export function groupTermsProblem(
  pool: { name: string; seats: number },
  terms: readonly GroupTerms[],
): string | null {
  for (const t of terms) {
    if (!Number.isInteger(t.guaranteed) || t.guaranteed < 0)
      return `The guaranteed seats of ${t.groupName} must be a whole number, 0 or more.`;
    if (t.cap !== null && (!Number.isInteger(t.cap) || t.cap < 1))
      return `The cap of ${t.groupName} must be a whole number, 1 or more, or none.`;
    if (t.cap !== null && t.cap < t.guaranteed)
      return `The cap of ${t.groupName} (${t.cap}) is below its guaranteed seats (${t.guaranteed}).`;
    if (t.cap !== null && t.cap > pool.seats)
      return `The cap of ${t.groupName} (${t.cap}) is above the ${pool.seats} ${plural(pool.seats, 'seat')} of ${pool.name}.`;
  }
  const guaranteed = terms.reduce((sum, t) => sum + t.guaranteed, 0);
  if (guaranteed > pool.seats)
    return `${pool.name} has ${pool.seats} ${plural(pool.seats, 'seat')}; the groups would be guaranteed ${guaranteed}.`;
  return null;
}

/**
 * Transfers (decision 071): giving a named seat that was taken from one person to another within the window.
 * A pool allows as many per rolling 30 days as it has seats, at least one.
 */
export const TRANSFER_WINDOW_DAYS = 30;
export const transferAllowance = (seats: number) => Math.max(1, seats);

export function transfersText(used: number, seats: number): string {
  return `Transfers in the last ${TRANSFER_WINDOW_DAYS} days: ${used} of ${transferAllowance(seats)}`;
}

export function transferProblem(
  pool: { name: string; seats: number },
  usedInWindow: number,
  adding: number,
): string | null {
  const allowed = transferAllowance(pool.seats);
  if (usedInWindow + adding <= allowed) return null;
  return `${pool.name} allows ${allowed} seat ${plural(allowed, 'transfer')} in ${TRANSFER_WINDOW_DAYS} days; ${usedInWindow} ${usedInWindow === 1 ? 'was' : 'were'} made and this change would make ${adding} more.`;
}

/** Why a checkout is refused, as the API answers it and /web-transactions shows it. */
export const denialReasons = {
  'unknown-user': 'The person is not in the account’s directory.',
  'suspended-user': 'The person is suspended or removed.',
  'no-pool': 'The account has no web seats for this product.',
  'no-seat-assigned': 'No seat of this product is assigned to the person.',
  'session-limit': 'The person has as many sessions of this product as the pool allows.',
  'group-cap': 'Every group of the person that uses this product is at its cap.',
  'pool-full': 'Every seat of this product is in use.',
} as const;
export type DenialReason = keyof typeof denialReasons;

/** A shared pool's open leases, in total and by the group each seat was taken for. */
export interface SharedPoolState {
  seats: number;
  open: number;
  terms: readonly (GroupTerms & { open: number })[];
}

export type SharedVerdict =
  | { granted: true; groupId: string | null }
  | { granted: false; reason: DenialReason };

/**
 * Which seat a person's checkout takes from a shared pool: first a guaranteed seat of one of their groups (one
 * whose members hold fewer than its guarantee), then a seat nobody is guaranteed, counted to the first of their
 * groups below its cap; never above a cap or the pool's seats, and never a seat kept free for another group.
 */
export function chooseSharedSeat(pool: SharedPoolState, personGroupIds: readonly string[]): SharedVerdict {
  if (pool.open >= pool.seats) return { granted: false, reason: 'pool-full' };
  const mine = pool.terms.filter((t) => personGroupIds.includes(t.groupId));
  const guaranteedFree = mine.find((t) => t.open < t.guaranteed);
  if (guaranteedFree) return { granted: true, groupId: guaranteedFree.groupId };
  const keptFree = pool.terms.reduce((sum, t) => sum + Math.max(0, t.guaranteed - t.open), 0);
  if (pool.open + keptFree >= pool.seats) return { granted: false, reason: 'pool-full' };
  if (!mine.length) return { granted: true, groupId: null };
  const belowCap = mine.find((t) => t.cap === null || t.open < t.cap);
  return belowCap ? { granted: true, groupId: belowCap.groupId } : { granted: false, reason: 'group-cap' };
}

/** What a preview says a change does, e.g. "removes 3 users from Fluids Premium". */
export function changeText(verb: 'assigns' | 'removes', people: number, poolName: string): string {
  return `${verb} ${people} ${plural(people, 'user')} ${verb === 'assigns' ? 'to' : 'from'} ${poolName}`;
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
