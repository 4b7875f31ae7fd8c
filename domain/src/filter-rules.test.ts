import type { Criterion, FilterMethod, FilterRule } from '@lp/contract/query/schemas';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareCodePoints,
  criterionPredicate,
  type FilterColumnKind,
  type FilterColumns,
  FilterRowError,
  FilterRuleError,
  filterPredicate,
  foldCase,
  numberText,
  parseCriterion,
  parseFilter,
} from './filter-rules.ts';

/*
 * Laws of the evaluator. That it answers what the SQL answers is checked against PGlite and PostgreSQL by
 * the query engine's property test (server/src/platform/query/engine.api.test.ts).
 */

const columns: FilterColumns = {
  Txt: 'text',
  Num: 'number',
  At: 'timestamp',
  Flag: 'boolean',
  Tags: 'text[]',
};
const names = Object.keys(columns);
const DAY = 86_400_000;
const BASE = Date.UTC(2024, 2, 10);

const textArb = fc.string({
  unit: fc.constantFrom('a', 'A', 'b', 'É', 'é', 'Σ', 'σ', 'ς', '%', ' '),
  maxLength: 3,
});
const numArb = fc.integer({ min: -8, max: 8 }).map((k) => k / 2);
const instantArb = fc.integer({ min: -3 * 24, max: 3 * 24 }).map((h) => BASE + h * 3_600_000);
const valueArb: Record<FilterColumnKind, fc.Arbitrary<unknown>> = {
  text: textArb,
  number: numArb,
  timestamp: instantArb,
  boolean: fc.boolean(),
  'text[]': fc.array(fc.option(textArb, { nil: null }), { maxLength: 3 }),
};
const rowArb = fc.record(
  Object.fromEntries(names.map((n) => [n, fc.option(valueArb[columns[n]], { nil: null })])) as Record<
    string,
    fc.Arbitrary<unknown>
  >,
);

const methodsFor: Record<FilterColumnKind, FilterMethod[]> = {
  text: [
    'CONTAINS',
    'STARTSWITH',
    'ENDSWITH',
    'EQUALS',
    'NOT EQUAL',
    '>',
    '<',
    '>=',
    '<=',
    'INRANGE',
    'ISDEFINED',
    'ARRAY_CONTAINS',
  ],
  number: ['EQUALS', 'NOT EQUAL', '>', '<', '>=', '<=', 'INRANGE', 'RANGE', 'ISDEFINED', 'ARRAY_CONTAINS'],
  timestamp: [
    'EQUALS',
    'NOT EQUAL',
    '>',
    '<=',
    'BEFORE',
    'AFTER',
    'DATERANGE',
    'BEFOREDAY',
    'AFTERDAY',
    'DAYRANGE',
    'ISDEFINED',
    'ARRAY_CONTAINS',
  ],
  boolean: ['EQUALS', 'NOT EQUAL', 'ISDEFINED', 'ARRAY_CONTAINS'],
  'text[]': ['CONTAINS', 'STARTSWITH', 'ENDSWITH', 'EQUALS', 'NOT EQUAL', 'ISDEFINED', 'ARRAY_CONTAINS'],
};
const scalarFor = (kind: FilterColumnKind): fc.Arbitrary<string | number | boolean> =>
  kind === 'timestamp'
    ? instantArb.map((ms) => new Date(ms).toISOString())
    : kind === 'text[]'
      ? textArb
      : (valueArb[kind] as fc.Arbitrary<string | number | boolean>);

/** Valid criteria (the engine accepts them), negated or not, with and without casefold and tostring. */
const criterionArb: fc.Arbitrary<Criterion> = fc
  .record({
    name: fc.constantFrom(...names),
    not: fc.boolean(),
    casefold: fc.boolean(),
    tostring: fc.boolean(),
  })
  .chain(({ name, not, casefold, tostring }) => {
    const kind: FilterColumnKind = tostring ? 'text' : columns[name];
    return fc.constantFrom(...methodsFor[kind]).chain((method): fc.Arbitrary<Criterion> => {
      const base = { name, method, not, casefold, tostring };
      const scalar = scalarFor(kind);
      switch (method) {
        case 'ISDEFINED':
          return fc.constantFrom(undefined, true, false).map((value) => ({ ...base, value }));
        case 'INRANGE':
        case 'RANGE':
        case 'DATERANGE':
        case 'DAYRANGE':
          return fc.tuple(scalar, scalar).map((value) => ({ ...base, value }));
        case 'ARRAY_CONTAINS':
          return fc
            .array(fc.option(scalar, { nil: null }), { maxLength: 3 })
            .map((value) => ({ ...base, value }));
        default:
          return scalar.map((value) => ({ ...base, value }));
      }
    });
  });

const ruleArb: fc.Arbitrary<FilterRule> = fc.record({
  condition: fc.constantFrom('ANY', 'ALL', 'any', 'all'),
  criteria: fc.array(criterionArb, { maxLength: 3 }),
});

const holds = (c: Criterion, row: Record<string, unknown>) => criterionPredicate(columns, c)(row);
const listsNull = (c: Criterion) =>
  c.method === 'ARRAY_CONTAINS' && Array.isArray(c.value) && c.value.includes(null);

describe('filterPredicate laws', () => {
  it('not selects exactly the rows the plain criterion does not, NULL rows included', () => {
    fc.assert(
      fc.property(criterionArb, rowArb, (c, row) => {
        expect(holds({ ...c, not: !c.not }, row)).toBe(!holds(c, row));
      }),
      { numRuns: 3000 },
    );
  });

  it('NOT EQUAL is EQUALS negated, and ISDEFINED false is ISDEFINED negated', () => {
    fc.assert(
      fc.property(criterionArb, rowArb, (c, row) => {
        if (c.method === 'EQUALS' || c.method === 'NOT EQUAL') {
          const flipped = c.method === 'EQUALS' ? 'NOT EQUAL' : 'EQUALS';
          expect(holds({ ...c, method: flipped }, row)).toBe(!holds(c, row));
        }
        if (c.method === 'ISDEFINED') {
          expect(holds({ ...c, value: false }, row)).toBe(holds({ ...c, value: true, not: !c.not }, row));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('on NULL a criterion is false and its negation true, except ISDEFINED and a list naming null', () => {
    fc.assert(
      fc.property(criterionArb, rowArb, (c, row) => {
        const nullRow = { ...row, [c.name]: null };
        const plain = { ...c, not: false };
        const expected =
          c.method === 'ISDEFINED' ? c.value === false : c.method === 'NOT EQUAL' ? true : listsNull(c);
        expect(holds(plain, nullRow)).toBe(expected);
        expect(holds({ ...plain, not: true }, nullRow)).toBe(!expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('ALL keeps the rows every criterion keeps, ANY the rows some criterion keeps, no criteria every row', () => {
    fc.assert(
      fc.property(ruleArb, rowArb, (rule, row) => {
        const results = rule.criteria.map((c) => holds(c, row));
        const expected =
          results.length === 0 ||
          (rule.condition.toUpperCase() === 'ALL' ? results.every(Boolean) : results.some(Boolean));
        expect(filterPredicate(columns, rule)(row)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    expect(filterPredicate(columns, undefined)({})).toBe(true);
  });

  it('casefold ignores the case of the row value; tostring on a text column changes nothing', () => {
    fc.assert(
      fc.property(criterionArb, rowArb, (c, row) => {
        if (columns[c.name] !== 'text') return;
        const txt = row.Txt as string | null;
        const folded = { ...row, Txt: txt === null ? null : foldCase(txt).toUpperCase() };
        const insensitive = { ...c, casefold: true };
        if (txt !== null && foldCase(foldCase(txt).toUpperCase()) === foldCase(txt)) {
          expect(holds(insensitive, folded)).toBe(holds(insensitive, row));
        }
        expect(holds({ ...c, tostring: !c.tostring }, row)).toBe(holds(c, row));
      }),
      { numRuns: 2000 },
    );
  });

  it('INRANGE is >= from and <= to; DAYRANGE of one day is neither BEFOREDAY nor AFTERDAY', () => {
    fc.assert(
      fc.property(numArb, numArb, rowArb, fc.boolean(), (lo, hi, row, not) => {
        const range = holds({ name: 'Num', method: 'INRANGE', value: [lo, hi], not }, row);
        const rule: FilterRule = {
          condition: 'ALL',
          criteria: [
            { name: 'Num', method: '>=', value: lo },
            { name: 'Num', method: '<=', value: hi },
          ],
        };
        expect(range).toBe(not ? !filterPredicate(columns, rule)(row) : filterPredicate(columns, rule)(row));
      }),
    );
    fc.assert(
      fc.property(instantArb, rowArb, (day, row) => {
        if (row.At === null) return;
        const value = new Date(day).toISOString();
        const inDay = holds({ name: 'At', method: 'DAYRANGE', value: [value, value] }, row);
        const before = holds({ name: 'At', method: 'BEFOREDAY', value }, row);
        const after = holds({ name: 'At', method: 'AFTERDAY', value }, row);
        expect([inDay, before, after].filter(Boolean)).toHaveLength(1);
      }),
    );
  });
});

describe('filterPredicate examples', () => {
  const rows = [
    { Txt: 'xa', Num: 1, At: '2024-03-10 12:00:00', Flag: true, Tags: ['Red', null] },
    { Txt: 'b', Num: 2, At: new Date(BASE + DAY), Flag: false, Tags: [] },
    { Txt: null, Num: null, At: null, Flag: null, Tags: null },
  ];
  const ids = (...criteria: Criterion[]) => {
    const keep = filterPredicate(columns, { condition: 'ALL', criteria });
    return rows.flatMap((row, i) => (keep(row) ? [i + 1] : []));
  };

  it('matches NULL with a negated criterion, as the engine does', () => {
    expect(ids({ name: 'Txt', method: 'CONTAINS', value: 'x', not: true })).toEqual([2, 3]);
    expect(ids({ name: 'Txt', method: 'NOT EQUAL', value: 'xa' })).toEqual([2, 3]);
    expect(ids({ name: 'Num', method: '>', value: 1, not: true })).toEqual([1, 3]);
    expect(ids({ name: 'Num', method: 'NOT EQUAL', value: 1, not: true })).toEqual([1]);
    expect(ids({ name: 'Flag', method: 'EQUALS', value: 'TRUE', not: true })).toEqual([2, 3]);
    expect(ids({ name: 'Tags', method: 'CONTAINS', value: 'red', casefold: true, not: true })).toEqual([
      2, 3,
    ]);
    expect(ids({ name: 'At', method: 'ISDEFINED', value: false })).toEqual([3]);
    expect(ids({ name: 'Num', method: 'ARRAY_CONTAINS', value: [2, null] })).toEqual([2, 3]);
    expect(ids({ name: 'Tags', method: 'ARRAY_CONTAINS', value: [null] })).toEqual([3]);
  });

  it('reads instants, day methods in UTC and the text form of each kind', () => {
    expect(ids({ name: 'At', method: 'BEFORE', value: '2024-03-10T14:00:00+02:00' })).toEqual([]);
    expect(ids({ name: 'At', method: 'EQUALS', value: '2024-03-10T14:00:00+02:00' })).toEqual([1]);
    expect(ids({ name: 'At', method: 'AFTERDAY', value: '2024-03-10' })).toEqual([2]);
    expect(ids({ name: 'At', method: 'DAYRANGE', value: ['2024-03-10', '2024-03-10T23:59:59Z'] })).toEqual([
      1,
    ]);
    expect(ids({ name: 'At', method: 'AFTERDAY', value: '9999-12-31' })).toEqual([]);
    expect(ids({ name: 'At', method: 'BEFOREDAY', value: '9999-12-31', not: true })).toEqual([3]);
    expect(ids({ name: 'At', method: 'STARTSWITH', value: '2024-03-11 00:00:00', tostring: true })).toEqual([
      2,
    ]);
    expect(ids({ name: 'Num', method: 'EQUALS', value: '2', tostring: true })).toEqual([2]);
    expect(ids({ name: 'Flag', method: 'EQUALS', value: 'false', tostring: true })).toEqual([2]);
    expect(ids({ name: 'Tags', method: 'EQUALS', value: 'Red', tostring: true })).toEqual([1]);
    expect(ids({ name: 'Tags', method: 'EQUALS', value: '', tostring: true })).toEqual([2]);
  });

  it('refuses what the engine refuses, with its messages', () => {
    const refusal = (filter: unknown) => {
      try {
        filterPredicate(columns, filter as FilterRule);
      } catch (e) {
        expect(e).toBeInstanceOf(FilterRuleError);
        return (e as Error).message;
      }
      throw new Error('expected a refusal');
    };
    const one = (c: Record<string, unknown>) => refusal({ condition: 'ALL', criteria: [c] });
    expect(one({ name: 'Nope', method: 'EQUALS', value: 'x' })).toBe("Unknown filter column 'Nope'");
    expect(one({ name: 'constructor', method: 'EQUALS', value: 'x' })).toBe(
      "Unknown filter column 'constructor'",
    );
    expect(one({ name: 'Txt', method: 'LIKE', value: 'x' })).toBe(
      "Unknown filter method 'LIKE' for column 'Txt'",
    );
    expect(refusal({ condition: 'SOME', criteria: [] })).toBe(
      "Invalid filter condition 'SOME': use ANY or ALL",
    );
    expect(one({ name: 'Num', method: 'CONTAINS', value: '1' })).toBe(
      "Filter CONTAINS on column 'Num' is not supported for a number column (set tostring to match its text)",
    );
    expect(one({ name: 'Tags', method: '>', value: 'a' })).toBe(
      "Filter > on column 'Tags' is not supported for a list column",
    );
    expect(one({ name: 'Num', method: 'EQUALS', value: '1,5' })).toBe(
      "Filter EQUALS on column 'Num' needs a number value",
    );
    expect(one({ name: 'At', method: 'BEFORE', value: '2024-02-30' })).toBe(
      "Filter BEFORE on column 'At' needs a valid date (YYYY-MM-DD or ISO 8601 date-time)",
    );
    expect(one({ name: 'Txt', method: 'EQUALS', value: null })).toBe(
      "Filter EQUALS on column 'Txt' needs a single value (use ISDEFINED to test for empty values)",
    );
    expect(one({ name: 'Txt', method: 'INRANGE', value: ['a'] })).toBe(
      "Filter INRANGE on column 'Txt' needs a list of exactly two values [from, to]",
    );
    expect(one({ name: 'Txt', method: 'ISDEFINED', value: 'yes' })).toBe(
      "Filter ISDEFINED on column 'Txt' takes no value (or true/false)",
    );
  });

  it('cannot judge a row that lacks the column or holds another kind of value', () => {
    const keep = criterionPredicate(columns, { name: 'Num', method: '>', value: 1 });
    expect(() => keep({ Txt: 'a' })).toThrow(FilterRowError);
    expect(() => keep({ Num: 'many' })).toThrow(FilterRowError);
    expect(keep({ Num: '1.5' })).toBe(true);
  });
});

describe('PostgreSQL text forms, case folding and order', () => {
  it('prints numbers as double precision ::text does', () => {
    // Outputs read from PGlite and PostgreSQL 17.
    const cases: [number, string][] = [
      [1e15, '1e+15'],
      [0.00001, '1e-05'],
      [123456789012345.6, '123456789012345.6'],
      [-0, '-0'],
      [0.1 + 0.2, '0.30000000000000004'],
      [1e-7, '1e-07'],
      [1.5e300, '1.5e+300'],
      [-2.5, '-2.5'],
      [100, '100'],
      [0.001, '0.001'],
      [Number.NaN, 'NaN'],
      [Number.NEGATIVE_INFINITY, '-Infinity'],
    ];
    for (const [n, text] of cases) expect(numberText(n)).toBe(text);
  });

  it('prints the shortest text that reads back as the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) =>
        Object.is(Number(numberText(n)), n),
      ),
    );
  });

  it('lowers each character on its own, as lower() and ILIKE do', () => {
    // lower('ÉÀß İ Ǆ ΣΑΣ') on PGlite and PostgreSQL 17.
    expect(foldCase('ÉÀß İ Ǆ ΣΑΣ')).toBe('éàß i ǆ σασ');
    expect(foldCase('ABC xyz')).toBe('abc xyz');
  });

  it('orders text by code point', () => {
    const codePoints = (s: string) => Array.from(s, (c) => c.codePointAt(0) as number);
    const sign = (n: number) => Math.sign(n);
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const [x, y] = [codePoints(a), codePoints(b)];
        let expected = x.length - y.length;
        for (let i = 0; i < Math.min(x.length, y.length); i++) {
          if (x[i] !== y[i]) {
            expected = x[i] - y[i];
            break;
          }
        }
        expect(sign(compareCodePoints(a, b))).toBe(sign(expected));
      }),
    );
    expect(compareCodePoints('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
  });
});

describe('parseCriterion (the form both backends read)', () => {
  const kindOf = (name: string) => (Object.hasOwn(columns, name) ? columns[name] : undefined);
  const parse = (c: Criterion) => parseCriterion(kindOf, c);

  it('parses operands once: numbers keep the literal the SQL binds, text stays unfolded', () => {
    expect(parse({ name: 'Num', method: 'INRANGE', value: [' 1.50 ', 2] })).toMatchObject({
      target: 'number',
      negate: false,
      test: {
        op: 'range',
        from: { op: 'compare', cmp: '>=', operand: { kind: 'number', value: 1.5, literal: '1.50' } },
        to: { op: 'compare', cmp: '<=', operand: { kind: 'number', value: 2, literal: 2 } },
      },
    });
    expect(parse({ name: 'Txt', method: 'EQUALS', value: 'ÄB', casefold: true })).toMatchObject({
      casefold: true,
      test: { op: 'equals', operand: { kind: 'text', text: 'ÄB' } },
    });
    expect(parse({ name: 'At', method: 'ISDEFINED', value: 'false', tostring: true })).toMatchObject({
      column: 'timestamp',
      target: 'text',
      tostring: true,
      negate: true,
      test: { op: 'defined' },
    });
  });

  it('turns NOT EQUAL into negated EQUALS and day methods into instant bounds', () => {
    expect(parse({ name: 'Flag', method: 'NOT EQUAL', value: 'TRUE', not: true })).toMatchObject({
      negate: false,
      test: { op: 'equals', operand: { kind: 'boolean', value: true } },
    });
    expect(
      parse({ name: 'At', method: 'DAYRANGE', value: ['2024-03-10T12:00:00Z', '9999-12-31'] }),
    ).toMatchObject({
      test: {
        op: 'range',
        from: { op: 'compare', cmp: '>=', operand: { kind: 'timestamp', ms: BASE } },
        // The day after 9999-12-31 has no timestamp form: every non-NULL instant is before it.
        to: { op: 'defined' },
      },
    });
    expect(parse({ name: 'At', method: 'AFTERDAY', value: '9999-12-31' }).test).toEqual({ op: 'never' });
  });

  it('refuses with the first problem in the order of the checks', () => {
    const refusal = (c: Criterion) => {
      try {
        parse(c);
      } catch (e) {
        expect(e).toBeInstanceOf(FilterRuleError);
        return (e as Error).message;
      }
      throw new Error('expected a refusal');
    };
    // DATERANGE reads its first date before refusing the column; DAYRANGE reads both dates first.
    expect(refusal({ name: 'Txt', method: 'DATERANGE', value: ['x', 'y'] })).toBe(
      "Filter DATERANGE on column 'Txt' needs a valid date (YYYY-MM-DD or ISO 8601 date-time)",
    );
    expect(refusal({ name: 'Txt', method: 'DATERANGE', value: ['2024-01-01', 'y'] })).toBe(
      "Filter DATERANGE on column 'Txt' is not supported for a text column",
    );
    expect(refusal({ name: 'Txt', method: 'DAYRANGE', value: ['2024-01-01', 'y'] })).toBe(
      "Filter DAYRANGE on column 'Txt' needs a valid date (YYYY-MM-DD or ISO 8601 date-time)",
    );
    expect(refusal({ name: 'Tags', method: '>', value: 'a' })).toBe(
      "Filter > on column 'Tags' is not supported for a list column",
    );
  });

  it('parses a rule: no criteria keep every row, ANY in any case', () => {
    expect(parseFilter(kindOf, { condition: 'ALL', criteria: [] })).toBeUndefined();
    expect(parseFilter(kindOf, null)).toBeUndefined();
    const parsed = parseFilter(kindOf, {
      condition: 'any' as 'ANY',
      criteria: [{ name: 'Txt', method: 'CONTAINS', value: 'a%' }],
    });
    expect(parsed).toMatchObject({
      any: true,
      criteria: [{ test: { op: 'like', match: 'contains', text: 'a%' } }],
    });
  });
});
