import type { Criterion, FilterMethod, FilterRule, SortRule } from '@lp/contract/query/schemas';
import {
  type FilterColumnKind,
  type FilterColumns,
  FilterRuleError,
  filterPredicate,
} from '@lp/domain/filter-rules';
import { type SQL, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { apiTest } from '../../../test/api-fixture.ts';
import { usageSessionsResource } from '../../features/transactions/resource.ts';
import { AppError } from '../errors.ts';
import { queryCount, queryDistinct, queryPage } from './engine.ts';
import type { ColumnType, Resource } from './resource.ts';

/*
 * The engine against a scratch table on the real engine (PGlite or PostgreSQL): for random rules over
 * random rows (NULLs in every nullable column, negated criteria) the SQL result equals the one in-memory
 * evaluator, @lp/domain/filter-rules, which the browser narrows cached rows with; the engine refuses
 * exactly the rules the evaluator refuses; and token paging returns exactly the full ordered result.
 */

// The evaluator's column kinds are the engine's column types, both ways.
const kindOf = (type: ColumnType): FilterColumnKind => type;
const typeOf = (kind: FilterColumnKind): ColumnType => kind;

/** The evaluator's view of a resource: its filterable columns and their types. */
const filterColumnsOf = (resource: Resource): FilterColumns =>
  Object.fromEntries(
    Object.entries(resource.columns)
      .filter(([, c]) => c.filterable !== false)
      .map(([name, c]) => [name, kindOf(c.type)]),
  );

interface Row {
  id: number;
  txt: string | null;
  name: string;
  num: number | null;
  cnt: number;
  score: number;
  at: number | null;
  created: number;
  flag: boolean | null;
  active: boolean;
  tags: (string | null)[] | null;
}

type Field = Exclude<keyof Row, 'id'>;
const columnsOf: Record<string, { field: Field; type: ColumnType; nullable: boolean }> = {
  Txt: { field: 'txt', type: 'text', nullable: true },
  Name: { field: 'name', type: 'text', nullable: false },
  Num: { field: 'num', type: 'number', nullable: true },
  Cnt: { field: 'cnt', type: 'number', nullable: false },
  Score: { field: 'score', type: 'number', nullable: false },
  At: { field: 'at', type: 'timestamp', nullable: true },
  Created: { field: 'created', type: 'timestamp', nullable: false },
  Flag: { field: 'flag', type: 'boolean', nullable: true },
  Active: { field: 'active', type: 'boolean', nullable: false },
  Tags: { field: 'tags', type: typeOf('text[]'), nullable: true },
};

const scratch: Resource = {
  name: 'scratch',
  from: sql`lp_scratch s`,
  columns: {
    Id: { expr: sql`s.id`, type: 'number' },
    ...Object.fromEntries(
      Object.entries(columnsOf).map(([name, c]) => [
        name,
        { expr: sql.raw(`s.${c.field}`), type: c.type, nullable: c.nullable },
      ]),
    ),
  },
  id: { expr: sql`s.id`, type: 'number' },
  defaultSort: [{ name: 'Cnt', direction: 'asc' }],
  maxLimit: 1000,
  maxDistinct: 50,
};
const scratchColumns = filterColumnsOf(scratch);
const otherResource: Resource = { ...scratch, name: 'scratch-other' };
const secret = Buffer.from('0123456789abcdef0123456789abcdef');
const DAY = 86_400_000;
const BASE = Date.UTC(2024, 2, 10, 0, 0, 0);

/** A scratch row as the evaluator reads it: API column names, instants in epoch ms. */
const asApiRow = (row: Row): Record<string, unknown> => ({
  Id: row.id,
  ...Object.fromEntries(Object.entries(columnsOf).map(([name, c]) => [name, row[c.field]])),
});

// ---------- generators ----------
// ASCII plus letters whose lower case is not ASCII's (É, İ, Σ/σ/ς), an astral character and U+FFFD, whose
// UTF-16 order differs from code-point order, and the LIKE wildcards.
const textArb = fc.string({
  unit: fc.constantFrom(
    'a',
    'A',
    'b',
    'B',
    '%',
    '_',
    '\\',
    ' ',
    'x',
    'É',
    'é',
    'İ',
    'i',
    'Σ',
    'σ',
    'ς',
    '\u{1F600}',
    '\uFFFD',
  ),
  maxLength: 4,
});
// Quarters, and numbers whose text form PostgreSQL writes in exponent notation or with many digits.
const numArb = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: -24, max: 24 }).map((k) => k / 4) },
  { weight: 1, arbitrary: fc.constantFrom(-0, 1e15, 2.5e-5, 123456789012345.6, 1e21, 0.1 + 0.2, -1e-7) },
);
const instantArb = fc.oneof(
  // Midnights and the seconds next to them probe the day boundaries.
  fc.constantFrom(
    BASE,
    BASE + 3_600_000,
    BASE - DAY,
    BASE + DAY,
    BASE + 2 * DAY,
    BASE - DAY + 1000,
    BASE + 2 * DAY - 1000,
  ),
  fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }).map((m) => BASE + m * 60_000),
  fc.integer({ min: -259_200, max: 259_200 }).map((s) => BASE + s * 1000),
);
const rowsArbOf = (text: fc.Arbitrary<string>, num: fc.Arbitrary<number>) =>
  fc
    .array(
      fc.record({
        txt: fc.option(text, { nil: null }),
        name: text,
        num: fc.option(num, { nil: null }),
        cnt: fc.integer({ min: -3, max: 3 }),
        score: num,
        at: fc.option(instantArb, { nil: null }),
        created: instantArb,
        flag: fc.option(fc.boolean(), { nil: null }),
        active: fc.boolean(),
        tags: fc.option(fc.array(fc.option(text, { nil: null, freq: 8 }), { maxLength: 3 }), { nil: null }),
      }),
      { maxLength: 24 },
    )
    .map((rows) => rows.map((r, i): Row => ({ id: i + 1, ...r })));
const rowsArb = rowsArbOf(textArb, numArb);

const iso = (ms: number) => new Date(ms).toISOString();
function formatInstant(ms: number, style: number): string | number {
  switch (style) {
    case 0:
      return iso(ms);
    case 1:
      return iso(ms).slice(0, 19).replace('T', ' ');
    case 2:
      return ms;
    default: {
      // The same instant written in +02:00.
      return `${iso(ms + 7_200_000).slice(0, 19)}+02:00`;
    }
  }
}
const instantValueArb = fc
  .tuple(instantArb, fc.integer({ min: 0, max: 3 }))
  .map(([ms, style]) => formatInstant(ms, style));
const dayValueArb = fc.oneof(
  instantValueArb,
  instantArb.map((ms) => iso(ms).slice(0, 10)),
);
const textValueArb = fc.oneof(
  textArb,
  fc.constantFrom(
    '1',
    '.5',
    '-',
    '2024-03-1',
    '00:00',
    '10 0',
    'true',
    'fal',
    ',',
    'a,',
    'A%',
    '_b',
    '1e+15',
    '2.5e-05',
    '-0',
  ),
);

const textMethods: FilterMethod[] = ['CONTAINS', 'STARTSWITH', 'ENDSWITH'];
const orderedMethods: FilterMethod[] = ['>', '<', '>=', '<='];
const methodsFor: Record<ColumnType, FilterMethod[]> = {
  text: [
    ...textMethods,
    'EQUALS',
    'NOT EQUAL',
    ...orderedMethods,
    'INRANGE',
    'RANGE',
    'ISDEFINED',
    'ARRAY_CONTAINS',
  ],
  number: ['EQUALS', 'NOT EQUAL', ...orderedMethods, 'INRANGE', 'RANGE', 'ISDEFINED', 'ARRAY_CONTAINS'],
  timestamp: [
    'EQUALS',
    'NOT EQUAL',
    ...orderedMethods,
    'INRANGE',
    'RANGE',
    'ISDEFINED',
    'BEFORE',
    'AFTER',
    'DATERANGE',
    'BEFOREDAY',
    'AFTERDAY',
    'DAYRANGE',
    'ARRAY_CONTAINS',
  ],
  boolean: ['EQUALS', 'NOT EQUAL', 'ISDEFINED', 'ARRAY_CONTAINS'],
  'text[]': [...textMethods, 'EQUALS', 'NOT EQUAL', 'ISDEFINED', 'ARRAY_CONTAINS'],
};

/** One value of the given (effective) type, in each form the engine accepts. */
function scalarArb(type: ColumnType): fc.Arbitrary<string | number | boolean> {
  switch (type) {
    case 'text':
    case 'text[]':
      return textValueArb;
    case 'number':
      return fc.tuple(numArb, fc.boolean()).map(([n, asText]) => (asText ? String(n) : n));
    case 'timestamp':
      return instantValueArb;
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 'FALSE'));
  }
}

/** Criteria the engine accepts: every method of the (effective) column type, negated or not. */
const criterionArbFor = (names: string[]): fc.Arbitrary<Criterion> =>
  fc
    .record({
      name: fc.constantFrom(...names),
      tostring: fc.boolean(),
      casefold: fc.boolean(),
      not: fc.boolean(),
    })
    .chain(({ name, tostring, casefold, not }) => {
      const type: ColumnType = tostring ? 'text' : columnsOf[name].type;
      return fc.constantFrom(...methodsFor[type]).chain((method): fc.Arbitrary<Criterion> => {
        const base = { name, method, tostring, casefold, not };
        const single = (arb: fc.Arbitrary<string | number | boolean>) =>
          arb.map((value) => ({ ...base, value }));
        const pair = (arb: fc.Arbitrary<string | number | boolean>) =>
          fc.tuple(arb, arb).map((value) => ({ ...base, value }));
        switch (method) {
          case 'ISDEFINED':
            return fc.constantFrom(undefined, true, false, 'false').map((value) => ({ ...base, value }));
          case 'INRANGE':
          case 'RANGE':
            return pair(scalarArb(type));
          case 'DATERANGE':
            return pair(instantValueArb);
          case 'BEFORE':
          case 'AFTER':
            return single(instantValueArb);
          case 'BEFOREDAY':
          case 'AFTERDAY':
            return single(dayValueArb);
          case 'DAYRANGE':
            return pair(dayValueArb);
          case 'ARRAY_CONTAINS':
            return fc.oneof(
              single(scalarArb(type)),
              fc
                .array(fc.option(scalarArb(type), { nil: null }), { maxLength: 3 })
                .map((value) => ({ ...base, value })),
            );
          default:
            return single(scalarArb(type));
        }
      });
    });

const ruleArbFor = (names: string[]): fc.Arbitrary<FilterRule> =>
  fc.record({
    condition: fc.constantFrom('ANY', 'ALL', 'any', 'all'),
    criteria: fc.array(criterionArbFor(names), { maxLength: 3 }),
  });
const ruleArb = ruleArbFor(Object.keys(columnsOf));

/** Any criterion, most of them wrong: a method on the wrong type, a value of the wrong shape or form. */
const anyCriterionArb: fc.Arbitrary<Criterion> = fc
  .record({
    name: fc.constantFrom(...Object.keys(columnsOf), 'Nope', 'constructor'),
    method: fc.oneof(
      fc.constantFrom(...Object.values(methodsFor).flat()),
      fc.constantFrom('contains', 'LIKE', 'not equal'),
    ),
    value: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom(null, true, false, 'false', 'TRUE', '', ' 1.5 ', '+2', '1e3', '1,5', 'NaN', 'a\u0000'),
      fc.constantFrom('2024-02-30', '2024-03-10', '2024-03-10T10:00:00+02:00', 1_710_000_000_000, 1.5),
      textValueArb,
      numArb,
      fc.array(fc.oneof(fc.constant(null), textValueArb, numArb, fc.boolean(), instantValueArb), {
        maxLength: 3,
      }),
    ),
    not: fc.boolean(),
    casefold: fc.boolean(),
    tostring: fc.boolean(),
  })
  .map((c) => c as Criterion);

async function expectAppError(promise: Promise<unknown>, message: string | RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('BAD_REQUEST');
  expect((error as AppError).message).toMatch(message);
}

/**
 * The database with the scratch table, and how the tests fill and query it: `load` replaces its rows, `selected`
 * answers the ids a filter selects (one page), `check` compares the engine with the evaluator on rows and a rule.
 */
const test = apiTest.extend('engine', { scope: 'file' }, async ({ database }) => {
  const { db } = database;
  await db.execute(
    sql`create table lp_scratch (id integer primary key, txt text, name text not null, num double precision,
      cnt integer not null, score double precision not null, at timestamptz, created timestamptz not null,
      flag boolean, active boolean not null, tags text[])`,
  );
  const load = async (rows: Row[]) => {
    await db.execute(sql`delete from lp_scratch`);
    if (rows.length === 0) return;
    const ts = (ms: number | null) => (ms === null ? sql`null` : sql`${iso(ms)}::timestamptz`);
    // A bound number travels as its JavaScript text, which writes -0 as 0.
    const float = (n: number | null) =>
      n === null ? sql`null` : sql`${Object.is(n, -0) ? '-0' : String(n)}::float8`;
    const values = rows.map(
      (r) =>
        sql`(${r.id}, ${r.txt}, ${r.name}, ${float(r.num)}, ${r.cnt}, ${float(r.score)}, ${ts(r.at)}, ${ts(r.created)}, ${r.flag}, ${r.active}, ${
          r.tags === null
            ? sql`null`
            : sql`array[${sql.join(
                r.tags.map((t) => sql`${t}::text`),
                sql`, `,
              )}]::text[]`
        })`,
    );
    await db.execute(
      sql`insert into lp_scratch (id, txt, name, num, cnt, score, at, created, flag, active, tags) values ${sql.join(values, sql`, `)}`,
    );
  };
  const selected = async (filter: FilterRule, scope?: SQL): Promise<number[]> => {
    const page = await queryPage(db, scratch, { scope, request: { filter, limit: 1000 }, secret });
    expect(page.token).toBeNull();
    return page.rows.map((r) => Number(r.Id)).sort((x, y) => x - y);
  };
  /** The engine selects and counts exactly the rows the evaluator keeps. */
  const check = async (rows: Row[], filter: FilterRule, activeOnly: boolean) => {
    await load(rows);
    const scope: SQL | undefined = activeOnly ? sql`s.active` : undefined;
    const expected = evaluated(filter, rows, activeOnly);
    expect(await selected(filter, scope)).toEqual(expected);
    expect(await queryCount(db, scratch, { scope, filter })).toBe(expected.length);
  };
  return { db, load, selected, check };
});

/** The ids of the rows the evaluator keeps, in id order. */
function evaluated(filter: FilterRule, rows: Row[], activeOnly: boolean): number[] {
  const keep = filterPredicate(scratchColumns, filter);
  return rows.filter((row) => (!activeOnly || row.active) && keep(asApiRow(row))).map((r) => r.id);
}

describe('filter compilation against the evaluator', () => {
  test('returns exactly the rows the evaluator keeps, for random rules and rows with NULLs', async ({
    engine: { check },
  }) => {
    await fc.assert(fc.asyncProperty(rowsArb, ruleArb, fc.boolean(), check), { numRuns: 400 });
  });

  test('agrees with the evaluator on timestamp rules at day and range boundaries', async ({
    engine: { check },
  }) => {
    await fc.assert(fc.asyncProperty(rowsArb, ruleArbFor(['Created', 'At']), fc.constant(false), check), {
      numRuns: 300,
    });
  });

  test('agrees on single negated criteria over nullable columns', async ({ engine: { check } }) => {
    const negated = criterionArbFor(['Txt', 'Num', 'At', 'Flag', 'Tags']).map(
      (c): FilterRule => ({ condition: 'ALL', criteria: [{ ...c, not: true }] }),
    );
    await fc.assert(fc.asyncProperty(rowsArb, negated, fc.constant(false), check), { numRuns: 200 });
  });

  describe('on the edges random rules rarely meet', () => {
    const letters = fc.string({
      unit: fc.constantFrom('a', 'Σ', 'σ', 'ς', 'İ', 'i', '\u{1F600}', '\uFFFD', '\uE000'),
      maxLength: 3,
    });
    const numbers = fc.constantFrom(
      -0,
      0,
      1e15,
      1e14,
      2.5e-5,
      0.0001,
      123456789012345.6,
      1e21,
      0.1 + 0.2,
      -1e-7,
    );
    // Mostly case-insensitive: folding beyond ASCII is what this is about.
    const casefold = fc.constantFrom(true, true, true, false);
    const ruleOf = (criterion: fc.Arbitrary<Criterion>) =>
      fc.record({
        condition: fc.constantFrom<FilterRule['condition']>('ANY', 'ALL'),
        criteria: fc.array(criterion, { minLength: 1, maxLength: 2 }),
      });

    test('case beyond ASCII (İ, final Σ) and code-point order (astral after U+FFFD)', async ({
      engine: { check },
    }) => {
      const textCriterion = fc.record({
        name: fc.constantFrom('Txt', 'Name'),
        method: fc.constantFrom<FilterMethod>(
          'CONTAINS',
          'STARTSWITH',
          'ENDSWITH',
          'EQUALS',
          'NOT EQUAL',
          '>',
          '<=',
          'ARRAY_CONTAINS',
        ),
        value: letters,
        casefold,
        not: fc.boolean(),
      });
      const listCriterion = fc
        .record({
          name: fc.constant('Tags'),
          method: fc.constantFrom<FilterMethod>('CONTAINS', 'EQUALS', 'ARRAY_CONTAINS', '>', '<'),
          value: letters,
          casefold,
          tostring: fc.boolean(),
          not: fc.boolean(),
        })
        .map((c) => (c.method === '>' || c.method === '<' ? { ...c, tostring: true } : c));
      await fc.assert(
        fc.asyncProperty(
          rowsArbOf(letters, numbers),
          ruleOf(fc.oneof(textCriterion, listCriterion)),
          fc.constant(false),
          check,
        ),
        { numRuns: 300 },
      );
    });

    test('the text form of numbers (exponents, -0, long digits)', async ({ engine: { check } }) => {
      const numberText = fc.record({
        name: fc.constantFrom('Num', 'Score'),
        method: fc.constantFrom<FilterMethod>('CONTAINS', 'STARTSWITH', 'EQUALS', '>', '<'),
        value: fc.constantFrom(
          'e+',
          'e-0',
          '1e+15',
          '100000000000000',
          '-0',
          '0.3',
          '2.5e-05',
          '0.0001',
          '.6',
          '1e+21',
        ),
        tostring: fc.constant(true),
        not: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(rowsArbOf(letters, numbers), ruleOf(numberText), fc.constant(false), check),
        {
          numRuns: 150,
        },
      );
    });
  });

  test('refuses exactly the criteria the evaluator refuses, with the same message, and agrees on the rest', async ({
    engine: { db, load, selected },
  }) => {
    const seen = { refused: 0, accepted: 0 };
    await fc.assert(
      fc.asyncProperty(rowsArb, anyCriterionArb, async (rows, criterion) => {
        const filter: FilterRule = { condition: 'ALL', criteria: [criterion] };
        let refusal: string | undefined;
        try {
          filterPredicate(scratchColumns, filter);
        } catch (e) {
          expect(e).toBeInstanceOf(FilterRuleError);
          refusal = (e as Error).message;
        }
        if (refusal !== undefined) {
          const error = await queryCount(db, scratch, { filter }).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).message).toBe(refusal);
          seen.refused++;
          return;
        }
        await load(rows);
        expect(await selected(filter)).toEqual(evaluated(filter, rows, false));
        seen.accepted++;
      }),
      { numRuns: 400 },
    );
    // Both sides of the property were exercised.
    expect(seen.refused).toBeGreaterThan(50);
    expect(seen.accepted).toBeGreaterThan(50);
  });
});

describe('negated criteria over NULL', () => {
  test('select the rows whose value is NULL (not, NOT EQUAL), on the server as in the evaluator', async ({
    engine: { load, selected },
  }) => {
    const row = (id: number, txt: string | null, num: number | null): Row => ({
      id,
      txt,
      name: 'n',
      num,
      cnt: 0,
      score: 0,
      at: null,
      created: BASE,
      flag: null,
      active: true,
      tags: null,
    });
    const rows = [row(1, 'xa', 1), row(2, 'b', 2), row(3, null, null)];
    await load(rows);
    const ids = async (criterion: Criterion) => {
      const filter: FilterRule = { condition: 'ALL', criteria: [criterion] };
      const server = await selected(filter);
      expect(evaluated(filter, rows, false)).toEqual(server);
      return server;
    };
    expect(await ids({ name: 'Txt', method: 'CONTAINS', value: 'x', not: true })).toEqual([2, 3]);
    expect(await ids({ name: 'Txt', method: 'NOT EQUAL', value: 'xa' })).toEqual([2, 3]);
    expect(await ids({ name: 'Num', method: '>', value: 1, not: true })).toEqual([1, 3]);
    expect(await ids({ name: 'Num', method: 'NOT EQUAL', value: 1, not: true })).toEqual([1]);
  });
});

describe('continuation tokens', () => {
  const sortArb = fc
    .uniqueArray(fc.constantFrom('Name', 'Cnt', 'Score', 'Created', 'Active'), { minLength: 0, maxLength: 3 })
    .chain((names) =>
      fc.tuple(
        ...names.map((name) =>
          fc.constantFrom('asc', 'desc', 'ASC', 'DESC').map((direction) => ({ name, direction })),
        ),
      ),
    )
    .map((rules) => rules as SortRule[]);

  test('paging through every page returns the full ordered result, without duplicates or gaps', async ({
    engine: { db, load },
  }) => {
    await fc.assert(
      fc.asyncProperty(
        rowsArb,
        sortArb,
        fc.integer({ min: 1, max: 7 }),
        fc.option(ruleArb, { nil: undefined }),
        async (rows, sorting, limit, rule) => {
          await load(rows);
          const filter = rule;
          const full = await queryPage(db, scratch, {
            request: { filter, sorting, limit: 1000 },
            secret,
          });
          const fingerprint = (r: Record<string, unknown>) => JSON.stringify(r);
          const paged: Record<string, unknown>[] = [];
          let token: string | null = null;
          for (let i = 0; ; i++) {
            const page = await queryPage(db, scratch, {
              request: { filter, sorting, limit, token },
              secret,
            });
            paged.push(...page.rows);
            if (page.token === null) break;
            expect(page.rows.length).toBe(limit);
            token = page.token;
            expect(i).toBeLessThan(rows.length + 1);
          }
          expect(paged.map(fingerprint)).toEqual(full.rows.map(fingerprint));
          // Offset paging agrees with token paging.
          const second = await queryPage(db, scratch, {
            request: { filter, sorting, limit, offset: limit },
            secret,
          });
          expect(second.rows.map(fingerprint)).toEqual(full.rows.slice(limit, 2 * limit).map(fingerprint));
        },
      ),
      { numRuns: 120 },
    );
  });

  test('refuses tampered tokens and tokens of another resource, sort, filter or scope', async ({
    engine: { db, load },
  }) => {
    const rows = Array.from(
      { length: 10 },
      (_, i): Row => ({
        id: i + 1,
        txt: null,
        name: `n${i}`,
        num: null,
        cnt: i % 3,
        score: i,
        at: null,
        created: BASE + i * 1000,
        flag: null,
        active: i % 2 === 0,
        tags: null,
      }),
    );
    await load(rows);
    const filter: FilterRule = { condition: 'ALL', criteria: [{ name: 'Score', method: '>=', value: 1 }] };
    const first = await queryPage(db, scratch, {
      request: { filter, limit: 3, token: null },
      secret,
    });
    expect(first.rows.map((r) => r.Score)).toEqual([3, 6, 9]);
    const token = first.token!;
    expect(token).toEqual(expect.any(String));
    const ok = await queryPage(db, scratch, { request: { filter, limit: 3, token }, secret });
    expect(ok.rows.length).toBe(3);

    const bad = 'Invalid continuation token';
    const [body, mac] = token.split('.');
    const forged = Buffer.from(
      Buffer.from(body, 'base64url').toString().replace('"k":[0', '"k":[1'),
    ).toString('base64url');
    for (const t of [`${forged}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, 'garbage', `${body}x.${mac}`]) {
      await expectAppError(queryPage(db, scratch, { request: { filter, limit: 3, token: t }, secret }), bad);
    }
    await expectAppError(queryPage(db, otherResource, { request: { filter, limit: 3, token }, secret }), bad);
    await expectAppError(
      queryPage(db, scratch, {
        request: { filter, limit: 3, token, sorting: [{ name: 'Cnt', direction: 'desc' }] },
        secret,
      }),
      bad,
    );
    await expectAppError(queryPage(db, scratch, { request: { limit: 3, token }, secret }), bad);
    await expectAppError(
      queryPage(db, scratch, { scope: sql`s.active`, request: { filter, limit: 3, token }, secret }),
      bad,
    );
    await expectAppError(
      queryPage(db, scratch, {
        request: { filter, limit: 3, token },
        secret: Buffer.from('another secret'),
      }),
      bad,
    );
  });

  test('refuses token paging on a nullable sort column but pages it by offset', async ({
    engine: { db, load },
  }) => {
    await load(
      Array.from(
        { length: 5 },
        (_, i): Row => ({
          id: i + 1,
          txt: i % 2 ? null : `t${i}`,
          name: 'n',
          num: null,
          cnt: 0,
          score: 0,
          at: null,
          created: BASE,
          flag: null,
          active: true,
          tags: null,
        }),
      ),
    );
    const sorting: SortRule[] = [{ name: 'Txt', direction: 'asc' }];
    await expectAppError(
      queryPage(db, scratch, { request: { sorting, limit: 2, token: null }, secret }),
      'fetch by continuation token is not supported',
    );
    const page = await queryPage(db, scratch, { request: { sorting, limit: 2, offset: 2 }, secret });
    expect(page.rows.map((r) => r.Txt)).toEqual(['t4', null]);
    expect(page.token).toBeNull();
  });
});

describe('count and distinct', () => {
  const rows = Array.from(
    { length: 12 },
    (_, i): Row => ({
      id: i + 1,
      txt: i % 4 === 0 ? null : ['b', 'A', 'a'][i % 3],
      name: `n${i % 5}`,
      num: i % 2 ? i / 2 : null,
      cnt: i,
      score: 0,
      at: i % 3 ? BASE + i * DAY : null,
      created: BASE,
      flag: i % 5 === 0 ? null : i % 2 === 0,
      active: true,
      tags: i % 3 === 0 ? null : [`t${i % 4}`, 'common'],
    }),
  );

  test('counts with and without a cap, refusing above the cap', async ({ engine: { db, load } }) => {
    await load(rows);
    expect(await queryCount(db, scratch, {})).toBe(12);
    expect(await queryCount(db, scratch, { cap: 12 })).toBe(12);
    const filter: FilterRule = { condition: 'ALL', criteria: [{ name: 'Cnt', method: '<', value: 5 }] };
    expect(await queryCount(db, scratch, { filter, cap: 5 })).toBe(5);
    await expectAppError(
      queryCount(db, scratch, { cap: 11 }),
      'total number of records exceeds maximum allowed length',
    );
  });

  test('returns sorted distinct values with raw types, nulls last, and refuses too many', async ({
    engine: { db, load },
  }) => {
    await load(rows);
    expect(await queryDistinct(db, scratch, { key: 'Name' })).toEqual(['n0', 'n1', 'n2', 'n3', 'n4']);
    expect(await queryDistinct(db, scratch, { key: 'Flag' })).toEqual([false, true, null]);
    const nums = await queryDistinct(db, scratch, { key: 'Num' });
    expect(nums).toEqual([0.5, 1.5, 2.5, 3.5, 4.5, 5.5, null]);
    const at = await queryDistinct(db, scratch, {
      key: 'At',
      filter: { condition: 'ALL', criteria: [{ name: 'Cnt', method: 'INRANGE', value: [1, 2] }] },
    });
    expect(at).toEqual([new Date(BASE + DAY), new Date(BASE + 2 * DAY)]);
    expect(await queryDistinct(db, scratch, { key: 'Tags' })).toEqual(['common', 't0', 't1', 't2', 't3']);
    expect(await queryDistinct(db, scratch, { key: 'Name', limit: 5 })).toHaveLength(5);
    await expectAppError(queryDistinct(db, scratch, { key: 'Name', limit: 4 }), 'Too many distinct values');
    // A larger requested limit is capped at the resource's maxDistinct.
    await expectAppError(
      queryDistinct(db, { ...scratch, maxDistinct: 4 }, { key: 'Name', limit: 100 }),
      'Too many distinct values',
    );
    await expectAppError(queryDistinct(db, scratch, { key: 'nope' }), "Unknown column 'nope'");
  });

  test('returns rows keyed by API names with raw values', async ({ engine: { db, load } }) => {
    await load(rows);
    const page = await queryPage(db, scratch, {
      request: { sorting: [{ name: 'Cnt', direction: 'DESC' }], limit: 1 },
      secret,
    });
    expect(page.rows).toEqual([
      {
        Id: 12,
        Txt: 'a',
        Name: 'n1',
        Num: 5.5,
        Cnt: 11,
        Score: 0,
        At: new Date(BASE + 11 * DAY),
        Created: new Date(BASE),
        Flag: false,
        Active: true,
        Tags: ['t3', 'common'],
      },
    ]);
    expect(page.token).toEqual(expect.any(String));
  });
});

describe('usage sessions resource', () => {
  test('pages one account by token with a filter, keyed by the spec attribute names', async ({
    engine: { db },
  }) => {
    const insert = (customer: string, i: number) =>
      sql`(${customer}, ${`s${i}`}, ${iso(BASE + i * 60_000)}::timestamptz, ${i % 3 ? iso(BASE + i * 60_000 + 3_600_000) : null}::timestamptz,
        'Fluent', 2, 1.5, 3.25, 'USD', ${`user${i % 2}`}, 'host', 'P', 'Closed', ${`srv-${customer}`})`;
    const values = [
      ...Array.from({ length: 7 }, (_, i) => insert('1001', i)),
      ...Array.from({ length: 3 }, (_, i) => insert('2002', i)),
    ];
    await db.execute(sql`insert into usage_sessions (customer_number, session_id, start_time, end_time,
      product, product_count, hours, charge, currency, username, host, project, session_status, server_id)
      values ${sql.join(values, sql`, `)}`);
    const scope = sql`u.customer_number = ${'1001'}`;
    const filter: FilterRule = {
      condition: 'ALL',
      criteria: [{ name: 'User', method: 'EQUALS', value: 'USER0', casefold: true }],
    };
    const sorting: SortRule[] = [{ name: 'StartTime', direction: 'DESC' }];
    const first = await queryPage(db, usageSessionsResource, {
      scope,
      request: { filter, sorting, limit: 3, token: null },
      secret,
    });
    const next = await queryPage(db, usageSessionsResource, {
      scope,
      request: { filter, sorting, limit: 3, token: first.token },
      secret,
    });
    expect(next.token).toBeNull();
    const all = [...first.rows, ...next.rows];
    expect(all.map((r) => r.DeviceID)).toEqual(['s6', 's4', 's2', 's0']);
    expect(all[0]).toMatchObject({
      StartTime: new Date(BASE + 6 * 60_000),
      EndTime: null,
      Active: true,
      ProductCount: 2,
      Hours: 1.5,
      Charge: 3.25,
      Currency: 'USD',
      User: 'user0',
      AccountID: '1001',
      SessionStatus: 'Closed',
    });
    expect(await queryCount(db, usageSessionsResource, { scope })).toBe(7);
    expect(await queryDistinct(db, usageSessionsResource, { scope, key: 'User' })).toEqual([
      'user0',
      'user1',
    ]);
  });
});
