import type { Criterion, FilterRule } from '@lp/contract/query/schemas';
import { type FilterColumns, filterPredicate } from '@lp/domain/filter-rules';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { narrowedFilter, narrows as narrowsOn, type Row } from './filter-rules.ts';

const columns: FilterColumns = { name: 'text', n: 'number', at: 'timestamp' };
const narrows = (oldRule: FilterRule | undefined, newRule: FilterRule | undefined) =>
  narrowsOn(columns, oldRule, newRule);
const matchesRule = (row: Row, rule: FilterRule) => filterPredicate(columns, rule)(row);

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 'c'), maxLength: 4 });
const rowArb: fc.Arbitrary<Row> = fc.record({
  name: fc.option(word, { nil: null }),
  n: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
  at: fc.constant(null),
});

const textCriterion: fc.Arbitrary<Criterion> = fc.record({
  name: fc.constant('name'),
  method: fc.constantFrom('CONTAINS', 'STARTSWITH', 'ENDSWITH', 'EQUALS', 'NOT EQUAL'),
  value: word,
  casefold: fc.boolean(),
  not: fc.boolean(),
});
const numberCriterion: fc.Arbitrary<Criterion> = fc.oneof(
  fc.record({
    name: fc.constant('n'),
    method: fc.constantFrom('>', '<', '>=', '<=', 'EQUALS', 'NOT EQUAL'),
    value: fc.integer({ min: -5, max: 5 }),
    not: fc.boolean(),
  }),
  fc.record({
    name: fc.constant('n'),
    method: fc.constantFrom('INRANGE', 'RANGE'),
    value: fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -5, max: 5 })),
  }),
  fc.record({ name: fc.constantFrom('n', 'name'), method: fc.constant('ISDEFINED'), not: fc.boolean() }),
);
const ruleArb: fc.Arbitrary<FilterRule> = fc.record({
  condition: fc.constantFrom('ANY', 'ALL'),
  criteria: fc.array(fc.oneof(textCriterion, numberCriterion), { maxLength: 3 }),
});

/** Derivations that must be recognised: typing more text, adding a criterion to ALL, tightening a bound. */
const derived = fc.oneof(
  fc.tuple(word, word, fc.boolean()).map(([v, more, casefold]) => ({
    old: {
      condition: 'ALL' as const,
      criteria: [{ name: 'name', method: 'CONTAINS' as const, value: v, casefold }],
    },
    next: {
      condition: 'ALL' as const,
      criteria: [{ name: 'name', method: 'CONTAINS' as const, value: v + more, casefold }],
    },
  })),
  fc.tuple(textCriterion, numberCriterion).map(([a, b]) => ({
    old: { condition: 'ALL' as const, criteria: [a] },
    next: { condition: 'ALL' as const, criteria: [a, b] },
  })),
  fc.tuple(fc.integer({ min: -5, max: 5 }), fc.nat(4)).map(([b, d]) => ({
    old: { condition: 'ALL' as const, criteria: [{ name: 'n', method: '>=' as const, value: b }] },
    next: { condition: 'ALL' as const, criteria: [{ name: 'n', method: '>=' as const, value: b + d }] },
  })),
);

describe('narrows', () => {
  it('is sound: whenever it says the new rule narrows the old one, every row the new rule selects the old one selects too', () => {
    fc.assert(
      fc.property(ruleArb, ruleArb, fc.array(rowArb, { maxLength: 30 }), (oldRule, newRule, rows) => {
        if (!narrows(oldRule, newRule)) return;
        for (const row of rows) if (matchesRule(row, newRule)) expect(matchesRule(row, oldRule)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('is sound for single-criterion pairs on the same column (where implications are decided)', () => {
    // Implications are rare among random pairs, so pairs that do not narrow are passed over (not
    // skipped with fc.pre, whose skip budget would make the test flaky) and the hits are counted.
    let decided = 0;
    const pairOn = (arb: fc.Arbitrary<Criterion>) => fc.tuple(arb, arb);
    fc.assert(
      fc.property(
        fc.oneof(pairOn(textCriterion), pairOn(numberCriterion)),
        fc.array(rowArb, { minLength: 20, maxLength: 40 }),
        ([c, d], rows) => {
          const oldRule: FilterRule = { condition: 'ALL', criteria: [c] };
          const newRule: FilterRule = { condition: 'ALL', criteria: [d] };
          if (!narrows(oldRule, newRule)) return;
          decided++;
          for (const row of rows) if (matchesRule(row, newRule)) expect(matchesRule(row, oldRule)).toBe(true);
        },
      ),
      { numRuns: 20000 },
    );
    expect(decided).toBeGreaterThan(100);
  });

  it('holds for a rule derived from the old one by narrowing it, checked against random rows', () => {
    fc.assert(
      fc.property(derived, fc.array(rowArb, { maxLength: 30 }), ({ old, next }, rows) => {
        expect(narrows(old, next)).toBe(true);
        for (const row of rows) if (matchesRule(row, next)) expect(matchesRule(row, old)).toBe(true);
      }),
    );
  });

  it('says no when the new filter widens or replaces the old one', () => {
    const contains = (value: string): FilterRule => ({
      condition: 'ALL',
      criteria: [{ name: 'name', method: 'CONTAINS', value, casefold: true }],
    });
    expect(narrows(contains('abc'), contains('ab'))).toBe(false);
    expect(narrows(contains('ab'), { condition: 'ALL', criteria: [] })).toBe(false);
    expect(
      narrows(contains('ab'), {
        condition: 'ALL',
        criteria: [{ name: 'other', method: 'CONTAINS', value: 'ab' }],
      }),
    ).toBe(false);
    // Case-insensitive matches more rows than case-sensitive.
    expect(
      narrows(
        { condition: 'ALL', criteria: [{ name: 'name', method: 'CONTAINS', value: 'a' }] },
        contains('ab'),
      ),
    ).toBe(false);
    expect(narrows(undefined, contains('x'))).toBe(true);
  });
});

describe('narrowedFilter', () => {
  it('answers in memory exactly what the server answers for the new rule', () => {
    let decided = 0;
    const pairs = fc.oneof(
      fc.tuple(ruleArb, ruleArb).map(([old, next]) => ({ old, next })),
      derived,
    );
    fc.assert(
      fc.property(pairs, fc.array(rowArb, { maxLength: 30 }), ({ old, next }, table) => {
        const keep = narrowedFilter(columns, old, next);
        if (!keep) return;
        decided++;
        const cached = table.filter(filterPredicate(columns, old));
        expect(cached.filter(keep)).toEqual(table.filter(filterPredicate(columns, next)));
      }),
      { numRuns: 3000 },
    );
    expect(decided).toBeGreaterThan(1000);
  });

  const rows: Row[] = [
    { name: 'Acme', n: 3, at: '2024-03-10 12:00:00' },
    { name: 'Beta', n: null, at: null },
    { name: null, n: 1, at: '2024-03-11 00:00:00' },
  ];
  const all = (...criteria: Criterion[]): FilterRule => ({ condition: 'ALL', criteria });
  const kept = (oldRule: FilterRule | undefined, newRule: FilterRule) => {
    const keep = narrowedFilter(columns, oldRule, newRule);
    return keep && rows.filter(keep);
  };

  it('keeps what the server keeps for a negated criterion over NULL', () => {
    const notAcme = all({ name: 'name', method: 'CONTAINS', value: 'acme', casefold: true, not: true });
    expect(kept(undefined, notAcme)).toEqual([rows[1], rows[2]]);
    expect(kept(undefined, all({ name: 'n', method: 'NOT EQUAL', value: 3 }))).toEqual([rows[1], rows[2]]);
  });

  it('does not judge again what the server applied, and leaves instants to the server', () => {
    const period = {
      name: 'at',
      method: 'DATERANGE' as const,
      value: ['2024-03-10', '2024-03-10 23:59:59.999'],
    };
    const typed = { name: 'name', method: 'CONTAINS' as const, value: 'e', casefold: true };
    // The period was the server's: every cached row is in it, whatever the row says.
    expect(kept(all(period), all(period, typed))).toEqual([rows[0], rows[1]]);
    expect(narrowedFilter(columns, all(typed), all(typed, period))).toBeNull();
    expect(kept(all(typed), all(typed, { name: 'at', method: 'AFTERDAY', value: '2024-03-10' }))).toEqual([
      rows[2],
    ]);
  });

  it('leaves a rule the engine refuses, or one that does not narrow, to the server', () => {
    expect(narrowedFilter(columns, undefined, all({ name: 'n', method: 'CONTAINS', value: '1' }))).toBeNull();
    expect(
      narrowedFilter(columns, undefined, all({ name: 'other', method: 'EQUALS', value: 'x' })),
    ).toBeNull();
    const wide = all({ name: 'n', method: '>', value: 1 });
    expect(narrowedFilter(columns, all({ name: 'n', method: '>', value: 2 }), wide)).toBeNull();
  });
});

describe('narrows on the column kinds', () => {
  it('compares bounds numerically only on number columns', () => {
    const text = (value: number): FilterRule => ({
      condition: 'ALL',
      criteria: [{ name: 'name', method: '>', value }],
    });
    const num = (value: number): FilterRule => ({
      condition: 'ALL',
      criteria: [{ name: 'n', method: '>', value }],
    });
    expect(narrows(num(9), num(10))).toBe(true);
    // As text '2' > '10' but not '2' > '9': no numeric implication on a text column.
    expect(narrows(text(9), text(10))).toBe(false);
  });
});
