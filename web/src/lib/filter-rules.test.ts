import type { Criterion, FilterRule } from '@lp/contract/query/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchesRule, narrows, type Row } from './filter-rules.ts';

const word = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', 'c'), maxLength: 4 });
const rowArb: fc.Arbitrary<Row> = fc.record({
  name: fc.option(word, { nil: null }),
  n: fc.option(fc.integer({ min: -5, max: 5 }), { nil: null }),
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
    // Derivations that must be recognised: typing more text, adding a criterion to ALL, tightening a bound.
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

describe('matchesRule', () => {
  const rows: Row[] = [
    { AccountName: 'Acme Corp', AccountID: '1001', n: 3 },
    { AccountName: 'Beta', AccountID: '1002', n: null },
  ];
  it('applies ANY/ALL, casefold, not and null semantics', () => {
    const ids = (rule: FilterRule) => rows.filter((r) => matchesRule(r, rule)).map((r) => r.AccountID);
    expect(
      ids({
        condition: 'ANY',
        criteria: [
          { name: 'AccountName', method: 'CONTAINS', value: 'acme', casefold: true },
          { name: 'AccountID', method: 'EQUALS', value: '1002' },
        ],
      }),
    ).toEqual(['1001', '1002']);
    expect(
      ids({ condition: 'ALL', criteria: [{ name: 'AccountName', method: 'CONTAINS', value: 'acme' }] }),
    ).toEqual([]);
    expect(ids({ condition: 'ALL', criteria: [{ name: 'n', method: '>', value: 1, not: true }] })).toEqual(
      [],
    );
    expect(ids({ condition: 'ALL', criteria: [{ name: 'n', method: 'ISDEFINED', not: true }] })).toEqual([
      '1002',
    ]);
    expect(ids({ condition: 'ALL', criteria: [] })).toEqual(['1001', '1002']);
  });
});

describe('ARRAY_CONTAINS on a scalar field', () => {
  it('matches when the field is one of the listed values, as the server does', () => {
    const rule = (value: Criterion['value']): FilterRule => ({
      condition: 'ALL',
      criteria: [{ name: 'name', method: 'ARRAY_CONTAINS', value }],
    });
    expect(matchesRule({ name: 'bob' }, rule(['alice', 'bob']))).toBe(true);
    expect(matchesRule({ name: 'carol' }, rule(['alice', 'bob']))).toBe(false);
    expect(matchesRule({ name: 'bob' }, rule('bob'))).toBe(true);
    expect(matchesRule({ name: ['x', 'bob'] }, rule('bob'))).toBe(true);
  });
});
