import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupHistory, type HistoryEvent, historyAction } from './activation-history.ts';

const BASE = Date.parse('2025-03-01T10:00:00Z');

/** An event `seconds` after BASE; the activation's product and dates follow its id. */
const ev = (seconds: number, activationId: string, count: number, modifiedBy = 'ann@acme.example') => ({
  time: BASE + seconds * 1000,
  modifiedBy,
  count,
  customerNumber: '1000123',
  activationId,
  product: `Product ${activationId}`,
  startDate: '2025-01-01',
  endDate: '2025-12-31',
});

const brief = (rows: ReturnType<typeof groupHistory>) =>
  rows.map((r) => [r.groupId, r.time, r.activationId, r.action, r.count, r.modifiedBy]);

describe('groupHistory (spec 002 §4, decision 032)', () => {
  it('makes one group of one save, one row per activation, in product order, at the save time', () => {
    expect(brief(groupHistory([ev(0, 'B', 2), ev(0, 'A', 4)]))).toEqual([
      [1, '2025-03-01 10:00:00', 'A', 'ACTIVATE (4)', 4, 'ann@acme.example'],
      [1, '2025-03-01 10:00:00', 'B', 'ACTIVATE (2)', 2, 'ann@acme.example'],
    ]);
  });

  it('sums the counts of one activation within 30 seconds: activate 4, return 1 → ACTIVATE (3)', () => {
    const rows = groupHistory([ev(0, 'A', 4), ev(20, 'A', -1)]);
    expect(brief(rows)).toEqual([[1, '2025-03-01 10:00:00', 'A', 'ACTIVATE (3)', 3, 'ann@acme.example']]);
    expect(rows[0]).toMatchObject({
      product: 'Product A',
      startDate: '2025-01-01',
      endDate: '2025-12-31',
      customerNumber: '1000123',
    });
  });

  it('labels a return DEACTIVATE with the seats returned, and a net zero DEACTIVATE (0)', () => {
    expect(brief(groupHistory([ev(0, 'A', -3), ev(5, 'B', 2), ev(6, 'B', -2)]))).toEqual([
      [1, '2025-03-01 10:00:00', 'A', 'DEACTIVATE (3)', -3, 'ann@acme.example'],
      [1, '2025-03-01 10:00:00', 'B', 'DEACTIVATE (0)', 0, 'ann@acme.example'],
    ]);
    expect([historyAction(1), historyAction(0), historyAction(-7)]).toEqual([
      'ACTIVATE (1)',
      'DEACTIVATE (0)',
      'DEACTIVATE (7)',
    ]);
  });

  it('measures the window from the group’s first event: 0, 20, 40 s are two groups, newest first', () => {
    expect(brief(groupHistory([ev(40, 'A', 1), ev(0, 'A', 1), ev(20, 'A', 1)]))).toEqual([
      [2, '2025-03-01 10:00:40', 'A', 'ACTIVATE (1)', 1, 'ann@acme.example'],
      [1, '2025-03-01 10:00:00', 'A', 'ACTIVATE (2)', 2, 'ann@acme.example'],
    ]);
  });

  it('takes an event exactly 30 s later into the group and one a millisecond later into the next', () => {
    const at = (ms: number, id: string) => ({ ...ev(0, id, 1), time: BASE + ms });
    expect(groupHistory([at(0, 'A'), at(30_000, 'B')]).map((r) => r.groupId)).toEqual([1, 1]);
    expect(groupHistory([at(0, 'A'), at(30_001, 'B')]).map((r) => r.groupId)).toEqual([2, 1]);
    expect(groupHistory([at(0, 'A'), at(30_001, 'B')], 31).map((r) => r.groupId)).toEqual([1, 1]);
  });

  it('names the first person recorded for the activation in the group, else Automated Action', () => {
    const rows = groupHistory([ev(0, 'A', 1, ''), ev(1, 'A', 1, 'bob@acme.example'), ev(2, 'B', 1, '')]);
    expect(rows.map((r) => [r.activationId, r.modifiedBy])).toEqual([
      ['A', 'bob@acme.example'],
      ['B', 'Automated Action'],
    ]);
  });

  it('keeps the same activation id of two customers apart', () => {
    const rows = groupHistory([ev(0, 'A', 1), { ...ev(0, 'A', 2), customerNumber: '1000999' }]);
    expect(rows.map((r) => [r.customerNumber, r.count])).toEqual([
      ['1000123', 1],
      ['1000999', 2],
    ]);
  });

  it('answers nothing for no events', () => {
    expect(groupHistory([])).toEqual([]);
  });
});

const timeMs = fc.oneof(
  // Seconds on a short stretch (many ties and windows), or any millisecond of a few minutes.
  fc.integer({ min: 0, max: 120 }).map((s) => s * 1000),
  fc.integer({ min: 0, max: 300_000 }),
);
const eventArb = fc.record({
  ms: timeMs,
  activationId: fc.constantFrom('A', 'B', 'C'),
  count: fc.integer({ min: -5, max: 5 }).filter((n) => n !== 0),
  modifiedBy: fc.constantFrom('', 'ann@acme.example', 'bob@acme.example'),
});
const toEvent = (e: { ms: number; activationId: string; count: number; modifiedBy: string }) => ({
  ...ev(0, e.activationId, e.count, e.modifiedBy),
  time: BASE + e.ms,
});

describe('groupHistory properties', () => {
  it('puts every event in exactly one row, within 30 s of every other event of its group', () => {
    // Unique activation ids: each row is then exactly one event.
    fc.assert(
      fc.property(fc.array(timeMs, { maxLength: 40 }), (times) => {
        const events: HistoryEvent[] = times.map((ms, i) => ({
          ...ev(0, `ID${String(i).padStart(3, '0')}`, i + 1),
          time: BASE + ms,
        }));
        const rows = groupHistory(events);
        expect(rows.map((r) => r.activationId).sort()).toEqual(events.map((e) => e.activationId).sort());
        const byId = new Map(events.map((e) => [e.activationId, e]));
        const groups = new Map<number, number[]>();
        for (const row of rows) {
          expect(row.count).toBe(byId.get(row.activationId)?.count);
          groups.set(row.groupId, [...(groups.get(row.groupId) ?? []), byId.get(row.activationId)!.time]);
        }
        const spans = [...groups.entries()]
          .sort(([a], [b]) => a - b)
          .map(([, t]) => [Math.min(...t), Math.max(...t)]);
        for (const [i, [first, last]] of spans.entries()) {
          expect(last - first).toBeLessThanOrEqual(30_000);
          // Groups are as large as the rule allows: the next one starts more than 30 s after this one did.
          if (i + 1 < spans.length) expect(spans[i + 1][0] - first).toBeGreaterThan(30_000);
        }
        // Newest group first.
        const ids = rows.map((r) => r.groupId);
        expect(ids).toEqual([...ids].sort((a, b) => b - a));
      }),
    );
  });

  it('preserves the summed count of every activation', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 60 }), (raw) => {
        const sums = (items: { activationId: string; count: number }[]) => {
          const out: Record<string, number> = {};
          for (const item of items) out[item.activationId] = (out[item.activationId] ?? 0) + item.count;
          return out;
        };
        expect(sums(groupHistory(raw.map(toEvent)))).toEqual(sums(raw));
      }),
    );
  });

  it('gives the same rows whatever order the events come in', () => {
    fc.assert(
      fc.property(
        fc
          .array(eventArb, { maxLength: 40 })
          .chain((raw) => fc.tuple(fc.constant(raw), fc.shuffledSubarray(raw, { minLength: raw.length }))),
        ([raw, shuffled]) => {
          expect(groupHistory(shuffled.map(toEvent))).toEqual(groupHistory(raw.map(toEvent)));
        },
      ),
    );
  });
});
