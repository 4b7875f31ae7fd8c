import type { ActivationRow } from '@lp/contract/activations/schemas';
import { messages } from '@lp/contract/common/errors';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';

/**
 * The selection of one customer tab of /activations (spec 002 §4 "Activations screen selection", §5 "Activated
 * count"): which assigned rows are kept, which available rows are selected and the count typed for each. Pure,
 * so the tables, the buttons and the save flow read one set of rules.
 *
 * Rows missing from a selection (e.g. after a refresh brought new rows) read as their defaults: assigned kept,
 * available selected with no count.
 */

/** One customer's rows on the chosen host, as /api/fulfillments/allentitlements answers them. */
export interface TabData {
  assigned: ActivationRow[];
  available: ActivationRow[];
}

/** `count` is the input's raw text: '' means no count typed (nothing to activate). */
export interface AvailableChoice {
  selected: boolean;
  count: string;
}

/** Keyed by activation id; an assigned row's `true` means kept (not returned). */
export interface TabSelection {
  assigned: Record<string, boolean>;
  available: Record<string, AvailableChoice>;
  /**
   * A kept assigned row's count as typed, lowered to return part of its seats (issue 21); missing or '' keeps
   * every seat.
   */
  keep?: Record<string, string>;
}

export interface Changes {
  /**
   * Each fulfillment of an unselected assigned row, returned whole, and the seats above a lowered count of a kept
   * one, taken from its last listed fulfillments first (negative counts).
   */
  returns: { fulfillmentId: number; count: number; row: ActivationRow }[];
  /** Each selected available row with a valid count. */
  creates: { activationId: string; count: number; row: ActivationRow }[];
}

const NO_CHOICE: AvailableChoice = { selected: true, count: '' };

/** Spec 002 §4: remaining days of zero or less (EXPIRED, or a number at or below 0). */
const noRemainingDays = (row: ActivationRow) =>
  typeof row.remainingdays === 'number' ? row.remainingdays <= 0 : row.remainingdays === 'EXPIRED';

const isKept = (sel: TabSelection, id: string) => sel.assigned[id] ?? true;
const choiceOf = (sel: TabSelection, id: string) => sel.available[id] ?? NO_CHOICE;

/** Spec 002 §4: expired lines with nothing activated are hidden from assigned lists. */
export function assignedRows(data: TabData): ActivationRow[] {
  return data.assigned.filter((r) => !(noRemainingDays(r) && r.ansysactivated === 0));
}

/**
 * Spec 002 §4: never the FSA manual drawdown product; lines with no remaining days are excluded from selection.
 * They are left out rather than listed disabled: the server refuses to activate them (and already leaves them
 * out of its available rows), so a row that can never be chosen would only lengthen the list, and a row that is
 * not listed can never carry a selection into the save.
 */
export function availableRows(data: TabData): ActivationRow[] {
  return data.available.filter((r) => r.partNumber !== FSA_MANUAL_DRAWDOWN_PART && !noRemainingDays(r));
}

/** Spec 002 §4: every assigned row kept, every available row selected, no counts typed. */
export function initialSelection(data: TabData): TabSelection {
  return {
    assigned: Object.fromEntries(assignedRows(data).map((r) => [r.activationid, true])),
    available: Object.fromEntries(availableRows(data).map((r) => [r.activationid, { ...NO_CHOICE }])),
  };
}

/** The count as a whole number, or null when the text is not digits only. */
const parsedCount = (text: string): number | null => {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
};

/**
 * Spec 002 §5 "Activated count": minimum 1, maximum the available count. An empty input is no error (the row
 * activates nothing). The maximum is written as the catalogue writes it, without thousands separators.
 */
export function countError(row: ActivationRow, text: string): string | null {
  if (text.trim() === '') return null;
  const n = parsedCount(text);
  if (n === null || n < 1) return messages.activatedMinimum;
  if (n > row.ansysavailable) return messages.activatedMaximum(row.ansysavailable);
  return null;
}

/** The seats of an assigned row on the host: what it can give back. */
export const seatsOnHost = (row: ActivationRow) =>
  row.fulfillments.reduce((sum, f) => sum + f.FulfillCount, 0);

const keepText = (sel: TabSelection, id: string) => sel.keep?.[id] ?? '';

/**
 * A lowered assigned count: at least 1 (Remove returns them all) and at most the seats on the host, in the words of
 * spec 002 §5 "Activated count". Empty is no error (every seat stays).
 */
export function keepError(row: ActivationRow, text: string): string | null {
  if (text.trim() === '') return null;
  const n = parsedCount(text);
  if (n === null || n < 1) return messages.activatedMinimum;
  if (n > seatsOnHost(row)) return messages.activatedMaximum(seatsOnHost(row));
  return null;
}

/** Seats a kept assigned row gives back: those above a valid lowered count; 0 otherwise. */
function seatsToReturn(row: ActivationRow, sel: TabSelection): number {
  const text = keepText(sel, row.activationid);
  if (!isKept(sel, row.activationid) || text.trim() === '' || keepError(row, text) !== null) return 0;
  return seatsOnHost(row) - (parsedCount(text) ?? seatsOnHost(row));
}

/** A selected available row's count to activate, or null when it activates nothing or is in error. */
const countToCreate = (row: ActivationRow, choice: AvailableChoice): number | null =>
  choice.selected && choice.count.trim() !== '' && countError(row, choice.count) === null
    ? parsedCount(choice.count)
    : null;

/** Spec 002 §4: Cancel is enabled only when something differs from the original. */
export function isDirty(data: TabData, sel: TabSelection): boolean {
  return (
    assignedRows(data).some(
      (r) =>
        !isKept(sel, r.activationid) || !['', String(seatsOnHost(r))].includes(keepText(sel, r.activationid)),
    ) ||
    availableRows(data).some((r) => {
      const c = choiceOf(sel, r.activationid);
      return !c.selected || c.count !== '';
    })
  );
}

/** Spec 002 §4: Generate and Email stay disabled while a selected row shows a count error. */
export function hasErrors(data: TabData, sel: TabSelection): boolean {
  return (
    assignedRows(data).some(
      (r) => isKept(sel, r.activationid) && keepError(r, keepText(sel, r.activationid)) !== null,
    ) ||
    availableRows(data).some((r) => {
      const c = choiceOf(sel, r.activationid);
      return c.selected && countError(r, c.count) !== null;
    })
  );
}

/**
 * Spec 002 §4: 'Save & Generate' / 'Save & Email' when any assigned row is unselected or any selected available
 * row has an activated count between 1 and its available count.
 */
export function hasSaveChanges(data: TabData, sel: TabSelection): boolean {
  return (
    assignedRows(data).some((r) => !isKept(sel, r.activationid) || seatsToReturn(r, sel) > 0) ||
    availableRows(data).some((r) => countToCreate(r, choiceOf(sel, r.activationid)) !== null)
  );
}

/** What a save sends (spec 002 §4 "Save flow" steps 1 and 2). */
export function changesOf(data: TabData, sel: TabSelection): Changes {
  const returns = assignedRows(data).flatMap((row) => {
    if (!isKept(sel, row.activationid))
      return row.fulfillments.map((f) => ({ fulfillmentId: f.FulfillmentID, count: -f.FulfillCount, row }));
    // Part of a kept row: its last listed fulfillments give back first.
    let left = seatsToReturn(row, sel);
    const parts: Changes['returns'] = [];
    for (const f of [...row.fulfillments].reverse()) {
      const n = Math.min(left, f.FulfillCount);
      if (n > 0) parts.push({ fulfillmentId: f.FulfillmentID, count: -n, row });
      left -= n;
    }
    return parts;
  });
  const creates = availableRows(data).flatMap((row) => {
    const count = countToCreate(row, choiceOf(sel, row.activationid));
    return count === null ? [] : [{ activationId: row.activationid, count, row }];
  });
  return { returns, creates };
}

export function toggleAssigned(sel: TabSelection, id: string): TabSelection {
  return { ...sel, assigned: { ...sel.assigned, [id]: !isKept(sel, id) } };
}

/** Keeps (or unselects) every assigned row of `data`; pass the rows a table lists to act on those only. */
export function setAllAssigned(sel: TabSelection, data: TabData, kept: boolean): TabSelection {
  const assigned = { ...sel.assigned };
  for (const r of assignedRows(data)) assigned[r.activationid] = kept;
  return { ...sel, assigned };
}

export function toggleAvailable(sel: TabSelection, id: string): TabSelection {
  const c = choiceOf(sel, id);
  return { ...sel, available: { ...sel.available, [id]: { ...c, selected: !c.selected } } };
}

/** Selects (or unselects) every available row of `data`, keeping the typed counts for an undo. */
export function setAllAvailable(sel: TabSelection, data: TabData, selected: boolean): TabSelection {
  const available = { ...sel.available };
  for (const r of availableRows(data))
    available[r.activationid] = { ...choiceOf(sel, r.activationid), selected };
  return { ...sel, available };
}

/** The count an assigned row keeps, as typed (lowering it returns the seats above it). */
export function setKeep(sel: TabSelection, id: string, text: string): TabSelection {
  return { ...sel, keep: { ...sel.keep, [id]: text } };
}

export function setCount(sel: TabSelection, id: string, text: string): TabSelection {
  return { ...sel, available: { ...sel.available, [id]: { ...choiceOf(sel, id), count: text } } };
}
