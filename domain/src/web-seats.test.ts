import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changeText,
  chooseSharedSeat,
  type GroupTerms,
  groupTermsProblem,
  namedSeatsProblem,
  poolCapacity,
  poolKindOf,
  type SharedPoolState,
  transferProblem,
  transfersText,
} from './web-seats.ts';

const fluids = { name: 'Fluids Premium', seats: 10 };
const terms = (groupId: string, guaranteed: number, cap: number | null): GroupTerms => ({
  groupId,
  groupName: groupId,
  guaranteed,
  cap,
});

describe('pools', () => {
  it('takes the Named User and Shared Web models (ConcurrentProduct is shared), nothing else', () => {
    expect(poolKindOf('Named User')).toBe('named');
    expect(poolKindOf('Shared Web')).toBe('shared');
    expect(poolKindOf('ConcurrentProduct')).toBe('shared');
    expect(poolKindOf('Lease')).toBeUndefined();
    expect(poolKindOf('Elastic-AEU')).toBeUndefined();
  });

  it('holds the seats of the Deployed lines whose term covers today, from the earliest start to the latest end', () => {
    const line = (quantity: number, startDate: string, endDate: string | null, state = 'Deployed') => ({
      quantity,
      startDate,
      endDate,
      state,
    });
    expect(
      poolCapacity(
        [
          line(5, '2026-01-01', '2026-12-31'),
          line(3, '2026-06-01', '2027-05-31'),
          line(7, '2027-01-01', '2027-12-31'),
          line(9, '2026-01-01', '2026-12-31', 'Returned'),
          line(2, '2025-01-01', '2025-12-31'),
        ],
        '2026-11-27',
      ),
    ).toEqual({ seats: 8, start: '2026-01-01', end: '2027-05-31' });
    expect(poolCapacity([line(4, '2026-01-01', null)], '2026-11-27')).toEqual({
      seats: 4,
      start: '2026-01-01',
      end: null,
    });
    expect(poolCapacity([], '2026-11-27')).toEqual({ seats: 0, start: null, end: null });
  });
});

describe('assignment rules', () => {
  it('refuses more named seats than the pool holds, naming both numbers', () => {
    expect(namedSeatsProblem(fluids, 10)).toBeNull();
    expect(namedSeatsProblem(fluids, 12)).toBe('Fluids Premium has 10 seats; this change would assign 12.');
    expect(namedSeatsProblem({ name: 'Solo', seats: 1 }, 2)).toBe(
      'Solo has 1 seat; this change would assign 2.',
    );
  });

  it('refuses guarantees beyond the seats, caps below a guarantee or above the seats, and bad numbers', () => {
    expect(groupTermsProblem(fluids, [terms('CFD', 6, 8), terms('Design', 4, null)])).toBeNull();
    expect(groupTermsProblem(fluids, [terms('CFD', 6, null), terms('Design', 5, null)])).toBe(
      'Fluids Premium has 10 seats; the groups would be guaranteed 11.',
    );
    expect(groupTermsProblem(fluids, [terms('CFD', 4, 3)])).toBe(
      'The cap of CFD (3) is below its guaranteed seats (4).',
    );
    expect(groupTermsProblem(fluids, [terms('CFD', 0, 11)])).toBe(
      'The cap of CFD (11) is above the 10 seats of Fluids Premium.',
    );
    expect(groupTermsProblem(fluids, [terms('CFD', -1, null)])).toBe(
      'The guaranteed seats of CFD must be a whole number, 0 or more.',
    );
    expect(groupTermsProblem(fluids, [terms('CFD', 0, 0)])).toBe(
      'The cap of CFD must be a whole number, 1 or more, or none.',
    );
  });

  it('counts transfers against as many per 30 days as the pool has seats, at least one', () => {
    expect(transfersText(3, 10)).toBe('Transfers in the last 30 days: 3 of 10');
    expect(transfersText(0, 0)).toBe('Transfers in the last 30 days: 0 of 1');
    expect(transferProblem(fluids, 8, 2)).toBeNull();
    expect(transferProblem(fluids, 9, 2)).toBe(
      'Fluids Premium allows 10 seat transfers in 30 days; 9 were made and this change would make 2 more.',
    );
  });

  it('previews a change in words', () => {
    expect(changeText('removes', 3, 'Fluids Premium')).toBe('removes 3 users from Fluids Premium');
    expect(changeText('assigns', 1, 'Fluids Premium')).toBe('assigns 1 user to Fluids Premium');
  });
});

describe('a shared checkout', () => {
  const pool = (open: number, t: SharedPoolState['terms']): SharedPoolState => ({
    seats: 10,
    open,
    terms: t,
  });

  it('takes a guaranteed seat of the person’s group first, then a seat nobody is guaranteed', () => {
    const t = [
      { ...terms('CFD', 4, 6), open: 2 },
      { ...terms('Design', 3, null), open: 0 },
    ];
    expect(chooseSharedSeat(pool(2, t), ['CFD'])).toEqual({ granted: true, groupId: 'CFD' });
    // Unguaranteed seats: 10 − 2 open − (2 + 3) kept free = 3.
    expect(chooseSharedSeat(pool(2, t), [])).toEqual({ granted: true, groupId: null });
  });

  it('keeps other groups’ guarantees free, and refuses at a cap or a full pool with the reason', () => {
    const t = [
      { ...terms('CFD', 2, 3), open: 3 },
      { ...terms('Design', 5, null), open: 0 },
    ];
    // 3 open, 5 kept free for Design: 2 seats for everyone else, but CFD is at its cap.
    expect(chooseSharedSeat(pool(3, t), ['CFD'])).toEqual({ granted: false, reason: 'group-cap' });
    expect(chooseSharedSeat(pool(3, t), [])).toEqual({ granted: true, groupId: null });
    expect(chooseSharedSeat(pool(5, t), [])).toEqual({ granted: false, reason: 'pool-full' });
    // Design's members still get their guaranteed seats.
    expect(chooseSharedSeat(pool(5, t), ['Design'])).toEqual({ granted: true, groupId: 'Design' });
    expect(chooseSharedSeat(pool(10, t), ['Design'])).toEqual({ granted: false, reason: 'pool-full' });
  });

  /**
   * Random pools, groups, memberships and a day of checkouts and releases (one in four a release), applied one at a
   * time. Terms are made valid by construction (guarantees fit the seats, a cap lies between its guarantee and the
   * seats), so every generated day exercises guarantees and caps.
   */
  const day = fc
    .record({
      seats: fc.integer({ min: 1, max: 10 }),
      groups: fc.array(fc.record({ guaranteed: fc.nat(4), cap: fc.option(fc.nat(10)) }), { maxLength: 4 }),
      people: fc.array(fc.array(fc.nat(3), { maxLength: 3 }), { minLength: 1, maxLength: 8 }),
      steps: fc.array(fc.record({ person: fc.nat(), release: fc.nat(3).map((n) => n === 0) }), {
        maxLength: 60,
      }),
    })
    .map(({ seats, groups, people, steps }) => {
      let left = seats;
      const t = groups.map((g, i) => {
        const guaranteed = Math.min(g.guaranteed, left);
        left -= guaranteed;
        const cap = g.cap === null ? null : Math.min(seats, Math.max(guaranteed, g.cap, 1));
        return terms(`G${i}`, guaranteed, cap);
      });
      return {
        seats,
        terms: t,
        people: people.map((ids) => [...new Set(ids)].filter((i) => i < groups.length).map((i) => `G${i}`)),
        steps,
      };
    });

  it('never grants above the seats or a cap, and never refuses a guaranteed seat that is free', () => {
    fc.assert(
      fc.property(day, ({ seats, terms: t, people, steps }) => {
        expect(groupTermsProblem({ name: 'P', seats }, t)).toBeNull();
        const leases: { person: number; groupId: string | null }[] = [];
        for (const step of steps) {
          const person = step.person % people.length;
          if (step.release) {
            const i = leases.findIndex((l) => l.person === person);
            if (i >= 0) leases.splice(i, 1);
            continue;
          }
          const state: SharedPoolState = {
            seats,
            open: leases.length,
            terms: t.map((g) => ({ ...g, open: leases.filter((l) => l.groupId === g.groupId).length })),
          };
          const verdict = chooseSharedSeat(state, people[person]);
          const owed = state.terms.some((g) => people[person].includes(g.groupId) && g.open < g.guaranteed);
          if (owed) expect(verdict.granted).toBe(true);
          if (verdict.granted) leases.push({ person, groupId: verdict.groupId });
          expect(leases.length).toBeLessThanOrEqual(seats);
          for (const g of t) {
            const open = leases.filter((l) => l.groupId === g.groupId).length;
            if (g.cap !== null) expect(open).toBeLessThanOrEqual(g.cap);
          }
        }
      }),
      { numRuns: 500 },
    );
  });
});
