import type { ActivationRow } from '@lp/contract/activations/schemas';
import { FSA_MANUAL_DRAWDOWN_PART } from '@lp/domain/entitlements';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { activationRow as row } from './activation-row-fixture.ts';
import {
  assignedRows,
  availableRows,
  changesOf,
  countError,
  hasErrors,
  hasSaveChanges,
  initialSelection,
  isDirty,
  keepError,
  setAllAssigned,
  setAllAvailable,
  setCount,
  setKeep,
  type TabData,
  type TabSelection,
  toggleAssigned,
  toggleAvailable,
} from './selection.ts';

const onHost = (id: string, fulfillmentId: number, count: number, over: Partial<ActivationRow> = {}) =>
  row(id, {
    ansysactivated: count,
    fulfillments: [{ FulfillmentID: fulfillmentId, FulfillCount: count }],
    ...over,
  });

const data: TabData = {
  assigned: [onHost('A1', 501, 3), onHost('A2', 502, 2)],
  available: [row('V1', { ansysavailable: 5 }), row('V2', { ansysavailable: 1_500 })],
};

describe('assignedRows / availableRows', () => {
  it('hides expired assigned lines with nothing activated, keeps expired lines that still hold seats', () => {
    const expiredEmpty = row('E0', { remainingdays: 'EXPIRED', ansysactivated: 0 });
    const expiredZeroDays = row('E1', { remainingdays: 0, ansysactivated: 0 });
    const expiredHeld = onHost('E2', 9, 2, { remainingdays: 'EXPIRED', maintenanceExpired: true });
    const notStarted = row('N1', { remainingdays: 'NOT STARTED', ansysactivated: 0 });
    const rows = assignedRows({
      assigned: [expiredEmpty, expiredZeroDays, expiredHeld, notStarted],
      available: [],
    });
    expect(rows.map((r) => r.activationid)).toEqual(['E2', 'N1']);
  });

  it('leaves the manual drawdown product and lines with no remaining days out of the available list', () => {
    const available = [
      row('V1'),
      row('FSA', { partNumber: FSA_MANUAL_DRAWDOWN_PART }),
      row('X0', { remainingdays: 0 }),
      row('X1', { remainingdays: -3 }),
      row('X2', { remainingdays: 'EXPIRED' }),
      row('P1', { remainingdays: 'PERMANENT', enddate: null, versiondate: '2027-01-01' }),
      row('N1', { remainingdays: 'NOT STARTED' }),
    ];
    expect(availableRows({ assigned: [], available }).map((r) => r.activationid)).toEqual(['V1', 'P1', 'N1']);
    // Left out rows never get a choice, so they can never be saved.
    expect(Object.keys(initialSelection({ assigned: [], available }).available)).toEqual(['V1', 'P1', 'N1']);
  });
});

describe('countError', () => {
  const r = row('V', { ansysavailable: 1_500 });
  it('accepts an empty input and counts from 1 to the available count', () => {
    for (const text of ['', '  ', '1', '750', '1500', ' 42 ', '007']) expect(countError(r, text)).toBeNull();
  });
  it("says 'Minimum is 1.' below 1 and for anything that is not a whole number", () => {
    for (const text of ['0', '-1', '1.5', 'abc', '1e2', '+3', '1,000'])
      expect(countError(r, text)).toBe('Minimum is 1.');
  });
  it("says 'Maximum is {n}.' above the available count", () => {
    expect(countError(r, '1501')).toBe('Maximum is 1500.');
    expect(countError(row('Z', { ansysavailable: 2 }), '3')).toBe('Maximum is 2.');
  });
});

describe('a worked example', () => {
  it('starts clean: nothing to save, nothing to cancel', () => {
    const sel = initialSelection(data);
    expect(sel).toEqual({
      assigned: { A1: true, A2: true },
      available: { V1: { selected: true, count: '' }, V2: { selected: true, count: '' } },
    });
    expect(isDirty(data, sel)).toBe(false);
    expect(hasSaveChanges(data, sel)).toBe(false);
    expect(hasErrors(data, sel)).toBe(false);
    expect(changesOf(data, sel)).toEqual({ returns: [], creates: [] });
  });

  it('returns the whole of a removed assigned row and creates the typed counts', () => {
    let sel = initialSelection(data);
    sel = toggleAssigned(sel, 'A2');
    sel = setCount(sel, 'V2', '1200');
    expect(isDirty(data, sel)).toBe(true);
    expect(hasSaveChanges(data, sel)).toBe(true);
    const changes = changesOf(data, sel);
    expect(changes.returns.map(({ fulfillmentId, count }) => ({ fulfillmentId, count }))).toEqual([
      { fulfillmentId: 502, count: -2 },
    ]);
    expect(changes.creates.map(({ activationId, count }) => ({ activationId, count }))).toEqual([
      { activationId: 'V2', count: 1200 },
    ]);
    expect(changes.creates[0].row).toBe(data.available[1]);
  });

  it('shows an error for a bad count, which blocks saving that row but not the others', () => {
    let sel = setCount(initialSelection(data), 'V1', '6');
    expect(hasErrors(data, sel)).toBe(true);
    expect(hasSaveChanges(data, sel)).toBe(false);
    sel = setCount(sel, 'V2', '10');
    expect(changesOf(data, sel).creates.map((c) => c.activationId)).toEqual(['V2']);
    // Removing the row in error takes its error away; its typed count is kept for an undo.
    sel = toggleAvailable(sel, 'V1');
    expect(hasErrors(data, sel)).toBe(false);
    expect(sel.available.V1).toEqual({ selected: false, count: '6' });
    expect(hasErrors(data, toggleAvailable(sel, 'V1'))).toBe(true);
  });

  it('an unselected available row activates nothing, yet differs from the original', () => {
    const sel = toggleAvailable(setCount(initialSelection(data), 'V1', '2'), 'V1');
    expect(changesOf(data, sel).creates).toEqual([]);
    expect(hasSaveChanges(data, sel)).toBe(false);
    expect(isDirty(data, sel)).toBe(true);
    // A typed count that is cleared again is back to the original.
    expect(isDirty(data, setCount(setCount(initialSelection(data), 'V1', '2'), 'V1', ''))).toBe(false);
  });

  it('removes and restores every row, or only the rows passed (those a table lists)', () => {
    const none = setAllAssigned(initialSelection(data), data, false);
    expect(changesOf(data, none).returns.map((r) => r.fulfillmentId)).toEqual([501, 502]);
    expect(setAllAssigned(none, data, true)).toEqual(initialSelection(data));
    const listed = { assigned: [data.assigned[0]], available: [data.available[1]] };
    const some = setAllAvailable(setAllAssigned(initialSelection(data), listed, false), listed, false);
    expect(some.assigned).toEqual({ A1: false, A2: true });
    expect(some.available.V1.selected).toBe(true);
    expect(some.available.V2.selected).toBe(false);
  });

  it('reads rows missing from the selection (new after a refresh) as their defaults', () => {
    const more: TabData = { assigned: [...data.assigned, onHost('A3', 503, 1)], available: data.available };
    const sel = initialSelection(data);
    expect(isDirty(more, sel)).toBe(false);
    expect(toggleAssigned(sel, 'A3').assigned.A3).toBe(false);
    expect(changesOf(more, toggleAssigned(sel, 'A3')).returns.map((r) => r.count)).toEqual([-1]);
  });
});

// Rows as the server sends them: assigned rows hold one live fulfillment each, ids unique within a list.
const rowArb = (id: string, assigned: boolean) =>
  fc
    .record({
      available: fc.integer({ min: 0, max: 5_000 }),
      onHost: fc.integer({ min: 1, max: 500 }),
      remaining: fc.oneof(
        fc.integer({ min: -30, max: 2_000 }),
        fc.constantFrom('PERMANENT' as const, 'EXPIRED' as const, 'NOT STARTED' as const),
      ),
      manualDrawdown: fc.boolean(),
    })
    .map((g) =>
      assigned
        ? onHost(id, Number(id.slice(1)) + 1, g.onHost, { remainingdays: g.remaining })
        : row(id, {
            ansysavailable: g.available,
            remainingdays: g.remaining,
            partNumber: g.manualDrawdown ? FSA_MANUAL_DRAWDOWN_PART : 'ANS-100',
          }),
    );

const dataArb: fc.Arbitrary<TabData> = fc.tuple(fc.nat({ max: 6 }), fc.nat({ max: 6 })).chain(([a, v]) =>
  fc.record({
    assigned: fc.tuple(...Array.from({ length: a }, (_, i) => rowArb(`a${i}`, true))),
    available: fc.tuple(...Array.from({ length: v }, (_, i) => rowArb(`v${i}`, false))),
  }),
);

const countText = fc.oneof(
  fc.constant(''),
  fc.integer({ min: -5, max: 6_000 }).map(String),
  fc.string({ maxLength: 6 }),
  fc.constantFrom(' 3', '2.5', '1e3'),
);

/** A user's edits: toggles, all-rows buttons and typed counts on any row id (also ids not listed). */
const editArb = fc.oneof(
  fc.record({ kind: fc.constant('toggleAssigned' as const), id: fc.constantFrom('a0', 'a1', 'a2', 'a9') }),
  fc.record({ kind: fc.constant('toggleAvailable' as const), id: fc.constantFrom('v0', 'v1', 'v2', 'v9') }),
  fc.record({ kind: fc.constant('setAllAssigned' as const), on: fc.boolean() }),
  fc.record({ kind: fc.constant('setAllAvailable' as const), on: fc.boolean() }),
  fc.record({
    kind: fc.constant('setCount' as const),
    id: fc.constantFrom('v0', 'v1', 'v2', 'v3'),
    text: countText,
  }),
  fc.record({
    kind: fc.constant('setKeep' as const),
    id: fc.constantFrom('a0', 'a1', 'a2', 'a9'),
    text: fc.oneof(countText, fc.nat({ max: 12 }).map(String)),
  }),
);
type Edit = typeof editArb extends fc.Arbitrary<infer E> ? E : never;

function apply(d: TabData, sel: TabSelection, e: Edit): TabSelection {
  switch (e.kind) {
    case 'toggleAssigned':
      return toggleAssigned(sel, e.id);
    case 'toggleAvailable':
      return toggleAvailable(sel, e.id);
    case 'setAllAssigned':
      return setAllAssigned(sel, d, e.on);
    case 'setAllAvailable':
      return setAllAvailable(sel, d, e.on);
    case 'setCount':
      return setCount(sel, e.id, e.text);
    case 'setKeep':
      return setKeep(sel, e.id, e.text);
  }
}

const editedArb = dataArb.chain((d) =>
  fc.array(editArb, { maxLength: 12 }).map((edits) => ({
    d,
    sel: edits.reduce((s, e) => apply(d, s, e), initialSelection(d)),
  })),
);

describe('properties', () => {
  it('the initial selection is not dirty, has no errors and nothing to save', () => {
    fc.assert(
      fc.property(dataArb, (d) => {
        const sel = initialSelection(d);
        expect(isDirty(d, sel)).toBe(false);
        expect(hasErrors(d, sel)).toBe(false);
        expect(hasSaveChanges(d, sel)).toBe(false);
      }),
    );
  });

  it('creates only counts from 1 to the row’s available count, returns at most what a fulfillment holds', () => {
    fc.assert(
      fc.property(editedArb, ({ d, sel }) => {
        const { returns, creates } = changesOf(d, sel);
        for (const c of creates) {
          expect(Number.isInteger(c.count)).toBe(true);
          expect(c.count).toBeGreaterThanOrEqual(1);
          expect(c.count).toBeLessThanOrEqual(c.row.ansysavailable);
          expect(c.row.partNumber).not.toBe(FSA_MANUAL_DRAWDOWN_PART);
        }
        for (const r of returns) {
          expect(r.count).toBeLessThanOrEqual(-1);
          expect(-r.count).toBeLessThanOrEqual(r.row.fulfillments[0]?.FulfillCount ?? 0);
        }
        // Per row: all of a removed one, the seats above a valid lowered count of a kept one, else nothing.
        for (const r of assignedRows(d)) {
          const back = returns.filter((x) => x.row === r).reduce((sum, x) => sum - x.count, 0);
          const seats = r.fulfillments.reduce((sum, f) => sum + f.FulfillCount, 0);
          const kept = sel.assigned[r.activationid] ?? true;
          const text = (sel.keep?.[r.activationid] ?? '').trim();
          const lowered = /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= seats;
          expect(back).toBe(!kept ? seats : lowered ? seats - Number(text) : 0);
        }
      }),
    );
  });

  it('Save & … shows exactly when a save has something to send', () => {
    fc.assert(
      fc.property(editedArb, ({ d, sel }) => {
        const { returns, creates } = changesOf(d, sel);
        expect(hasSaveChanges(d, sel)).toBe(returns.length + creates.length > 0);
      }),
    );
  });

  it('something to save, or a count error, means the selection is dirty', () => {
    fc.assert(
      fc.property(editedArb, ({ d, sel }) => {
        if (hasSaveChanges(d, sel) || hasErrors(d, sel)) expect(isDirty(d, sel)).toBe(true);
      }),
    );
  });

  it('toggling a row twice gives back the same selection', () => {
    fc.assert(
      fc.property(editedArb, fc.constantFrom('a0', 'a1', 'v0', 'v1'), ({ sel }, id) => {
        const toggle = id.startsWith('a') ? toggleAssigned : toggleAvailable;
        const twice = toggle(toggle(sel, id), id);
        // A row the selection did not hold reads as its default either way.
        if (id in sel.assigned || id in sel.available) expect(twice).toEqual(sel);
      }),
    );
    fc.assert(
      fc.property(dataArb, (d) => {
        const sel = initialSelection(d);
        for (const r of assignedRows(d))
          expect(toggleAssigned(toggleAssigned(sel, r.activationid), r.activationid)).toEqual(sel);
        for (const r of availableRows(d))
          expect(toggleAvailable(toggleAvailable(sel, r.activationid), r.activationid)).toEqual(sel);
      }),
    );
  });

  it('undoing all after removing all, with no counts typed, is the original again', () => {
    fc.assert(
      fc.property(dataArb, (d) => {
        const removed = setAllAvailable(setAllAssigned(initialSelection(d), d, false), d, false);
        const back = setAllAvailable(setAllAssigned(removed, d, true), d, true);
        expect(back).toEqual(initialSelection(d));
        expect(isDirty(d, back)).toBe(false);
      }),
    );
  });
});

describe('lowering an assigned count (issue 21)', () => {
  const twoFulfillments: TabData = {
    assigned: [
      row('P', {
        ansysactivated: 5,
        fulfillments: [
          { FulfillmentID: 701, FulfillCount: 2 },
          { FulfillmentID: 702, FulfillCount: 3 },
        ],
      }),
    ],
    available: [],
  };

  it('returns the seats above the count typed, from the last fulfillments first; the full count is no change', () => {
    const sel = setKeep(initialSelection(twoFulfillments), 'P', '1');
    expect(hasSaveChanges(twoFulfillments, sel)).toBe(true);
    expect(changesOf(twoFulfillments, sel).returns.map((r) => [r.fulfillmentId, r.count])).toEqual([
      [702, -3],
      [701, -1],
    ]);
    const same = setKeep(initialSelection(twoFulfillments), 'P', '5');
    expect(hasSaveChanges(twoFulfillments, same)).toBe(false);
    expect(isDirty(twoFulfillments, same)).toBe(false);
  });

  it("says 'Minimum is 1.' for 0 (Remove returns them all) and 'Maximum is {n}.' above the seats", () => {
    for (const [text, err] of [
      ['0', 'Minimum is 1.'],
      ['6', 'Maximum is 5.'],
    ]) {
      const sel = setKeep(initialSelection(twoFulfillments), 'P', text);
      expect(hasErrors(twoFulfillments, sel)).toBe(true);
      expect(changesOf(twoFulfillments, sel).returns).toEqual([]);
      expect(keepError(twoFulfillments.assigned[0], text)).toBe(err);
    }
    // A removed row returns every seat, whatever count was typed.
    const removed = toggleAssigned(setKeep(initialSelection(twoFulfillments), 'P', '0'), 'P');
    expect(hasErrors(twoFulfillments, removed)).toBe(false);
    expect(changesOf(twoFulfillments, removed).returns.map((r) => r.count)).toEqual([-2, -3]);
  });
});
