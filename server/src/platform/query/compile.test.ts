import { parseInstant } from '@lp/contract/common/dates';
import type { Criterion, FilterRule } from '@lp/contract/query/schemas';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { compileFilter, compileSort, escapeLike, keysetPredicate } from './compile.ts';
import { compilePageQuery } from './engine.ts';
import type { Resource } from './resource.ts';

const resource: Resource = {
  name: 'things',
  from: sql`things t`,
  columns: {
    Name: { expr: sql`t.name`, type: 'text' },
    Size: { expr: sql`t.size`, type: 'number' },
    At: { expr: sql`t.at`, type: 'timestamp' },
    Done: { expr: sql`t.done`, type: 'boolean' },
    Tags: { expr: sql`t.tags`, type: 'text[]' },
    Note: { expr: sql`t.note`, type: 'text', nullable: true },
    Secret: { expr: sql`t.secret`, type: 'text', filterable: false, sortable: false },
  },
  id: { expr: sql`t.id`, type: 'number' },
  defaultSort: [{ name: 'Name', direction: 'asc' }],
};

const dialect = new PgDialect();
const render = (q: SQL) => dialect.sqlToQuery(q);
const rule = (...criteria: Criterion[]): FilterRule => ({ condition: 'ALL', criteria });
const compile = (...criteria: Criterion[]) => render(compileFilter(resource, rule(...criteria))!);

function badRequest(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('BAD_REQUEST');
    const message = (e as AppError).message;
    // Errors speak the API's language, never SQL.
    expect(message).not.toMatch(/\bselect\b|\bt\.\w|\$\d|::/i);
    return message;
  }
  throw new Error('expected a 400');
}

describe('compileFilter errors', () => {
  it('refuses unknown and non-filterable columns and unknown methods', () => {
    expect(badRequest(() => compile({ name: 'Nope', method: 'EQUALS', value: 'x' }))).toBe(
      "Unknown filter column 'Nope'",
    );
    expect(badRequest(() => compile({ name: 'Secret', method: 'EQUALS', value: 'x' }))).toBe(
      "Unknown filter column 'Secret'",
    );
    expect(badRequest(() => compile({ name: 'constructor', method: 'EQUALS', value: 'x' }))).toMatch(
      /Unknown filter column/,
    );
    expect(
      badRequest(() => compile({ name: 'Name', method: 'LIKE' as Criterion['method'], value: 'x' })),
    ).toMatch(/Unknown filter method 'LIKE'/);
    expect(badRequest(() => compileFilter(resource, { condition: 'SOME' as 'ALL', criteria: [] }))).toMatch(
      /condition/,
    );
  });

  it('refuses methods that do not fit the column type', () => {
    expect(badRequest(() => compile({ name: 'Size', method: 'CONTAINS', value: '1' }))).toMatch(
      /CONTAINS on column 'Size' is not supported for a number column/,
    );
    expect(badRequest(() => compile({ name: 'Name', method: 'BEFORE', value: '2024-01-01' }))).toMatch(
      /not supported for a text column/,
    );
    expect(badRequest(() => compile({ name: 'Done', method: '>', value: true }))).toMatch(/boolean column/);
    expect(badRequest(() => compile({ name: 'Tags', method: 'INRANGE', value: ['a', 'b'] }))).toMatch(
      /list column/,
    );
    expect(
      badRequest(() =>
        compile({ name: 'At', method: 'DAYRANGE', value: ['2024-01-01', '2024-01-02'], tostring: true }),
      ),
    ).toMatch(/not supported for a text column/);
  });

  it('refuses malformed values', () => {
    expect(badRequest(() => compile({ name: 'Size', method: 'EQUALS', value: 'ten' }))).toMatch(
      /needs a number value/,
    );
    expect(badRequest(() => compile({ name: 'Size', method: '>', value: true }))).toMatch(
      /needs a number value/,
    );
    expect(badRequest(() => compile({ name: 'At', method: 'AFTER', value: '2024-02-30' }))).toMatch(
      /valid date/,
    );
    expect(badRequest(() => compile({ name: 'At', method: 'AFTER', value: 'yesterday' }))).toMatch(
      /valid date/,
    );
    expect(badRequest(() => compile({ name: 'At', method: 'AFTER', value: '2024-01-01 25:00:00' }))).toMatch(
      /valid date/,
    );
    expect(badRequest(() => compile({ name: 'Done', method: 'EQUALS', value: 'yes' }))).toMatch(/boolean/);
    expect(badRequest(() => compile({ name: 'Size', method: '>', value: '1e999' }))).toMatch(
      /needs a number value/,
    );
    expect(badRequest(() => compile({ name: 'At', method: 'AFTER', value: -8.64e15 }))).toMatch(/valid date/);
    expect(badRequest(() => compile({ name: 'Name', method: 'CONTAINS', value: 'a\u0000b' }))).toMatch(/NUL/);
    expect(badRequest(() => compile({ name: 'Size', method: 'INRANGE', value: [1] }))).toMatch(
      /exactly two values/,
    );
    expect(badRequest(() => compile({ name: 'Size', method: 'RANGE', value: [1, 2, 3] }))).toMatch(
      /exactly two values/,
    );
    expect(badRequest(() => compile({ name: 'At', method: 'DATERANGE', value: '2024-01-01' }))).toMatch(
      /exactly two/,
    );
    expect(badRequest(() => compile({ name: 'Name', method: 'EQUALS', value: ['a', 'b'] }))).toMatch(
      /single value/,
    );
    expect(badRequest(() => compile({ name: 'Name', method: 'EQUALS', value: null }))).toMatch(/ISDEFINED/);
    expect(badRequest(() => compile({ name: 'Tags', method: 'EQUALS', value: null }))).toMatch(/ISDEFINED/);
    expect(badRequest(() => compile({ name: 'Name', method: 'CONTAINS' }))).toMatch(/single text value/);
    expect(badRequest(() => compile({ name: 'Name', method: 'ISDEFINED', value: 'maybe' }))).toMatch(
      /no value/,
    );
  });

  it('binds every client value as a parameter and escapes LIKE wildcards', () => {
    const q = compile({ name: 'Name', method: 'CONTAINS', value: "50%_off\\'; drop table x" });
    expect(q.sql).toBe('(t.name like $1::text)');
    expect(q.params).toEqual(["%50\\%\\_off\\\\'; drop table x%"]);
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
    const folded = compile({ name: 'Name', method: 'STARTSWITH', value: 'Ab', casefold: true, not: true });
    expect(folded.sql).toBe('(not coalesce(t.name ilike $1::text, false))');
    expect(folded.params).toEqual(['Ab%']);
    const equal = compile({ name: 'Name', method: 'EQUALS', value: 'a_b', casefold: true });
    expect(equal).toMatchObject({ sql: '(t.name ilike $1::text)', params: ['a\\_b'] });
  });

  it('compiles day methods into UTC day boundaries', () => {
    const q = compile({ name: 'At', method: 'DAYRANGE', value: ['2024-03-10T23:59:59+02:00', '2024-03-11'] });
    expect(q.sql).toBe('(t.at >= $1::timestamptz and t.at < $2::timestamptz)');
    expect(q.params).toEqual(['2024-03-10T00:00:00.000Z', '2024-03-12T00:00:00.000Z']);
    expect(compile({ name: 'At', method: 'AFTERDAY', value: '2024-03-10 12:00:00' }).params).toEqual([
      '2024-03-11T00:00:00.000Z',
    ]);
  });

  it('combines criteria with ANY and ALL in either case', () => {
    const criteria: Criterion[] = [
      { name: 'Size', method: '>', value: 1 },
      { name: 'Done', method: 'EQUALS', value: 'TRUE' },
    ];
    expect(render(compileFilter(resource, { condition: 'any', criteria })!).sql).toBe(
      '(t.size > $1::numeric) or (t.done = $2::boolean)',
    );
    expect(render(compileFilter(resource, { condition: 'ALL', criteria })!).sql).toContain(' and ');
    expect(compileFilter(resource, { condition: 'ALL', criteria: [] })).toBeUndefined();
  });

  it('treats ARRAY_CONTAINS as list membership on scalars and overlap on lists', () => {
    expect(compile({ name: 'Size', method: 'ARRAY_CONTAINS', value: [1, '2', null] }).sql).toBe(
      '((t.size in ($1::numeric, $2::numeric) or t.size is null))',
    );
    expect(compile({ name: 'Tags', method: 'ARRAY_CONTAINS', value: ['a', 'b'] }).sql).toBe(
      '(t.tags && array[$1::text, $2::text]::text[])',
    );
    expect(compile({ name: 'Tags', method: 'ARRAY_CONTAINS', value: [] }).sql).toBe('(false)');
  });
});

describe('parseInstant', () => {
  it('reads the accepted date forms as UTC unless an offset is given', () => {
    expect(parseInstant('2024-03-10')).toBe(Date.UTC(2024, 2, 10));
    expect(parseInstant('2024-03-10 10:11:12')).toBe(Date.UTC(2024, 2, 10, 10, 11, 12));
    expect(parseInstant('2024-03-10T10:11:12.345Z')).toBe(Date.UTC(2024, 2, 10, 10, 11, 12, 345));
    expect(parseInstant('2024-03-10T10:11:12-0130')).toBe(Date.UTC(2024, 2, 10, 11, 41, 12));
    expect(parseInstant(0)).toBe(0);
    expect(parseInstant('2023-02-29')).toBeUndefined();
    expect(parseInstant('10/03/2024')).toBeUndefined();
    expect(parseInstant(1.5)).toBeUndefined();
  });
});

describe('compileSort', () => {
  it('accepts asc/desc in any case, appends the id and refuses unknown columns', () => {
    const keys = compileSort(resource, [
      { name: 'Size', direction: 'DESC' },
      { name: 'Name', direction: 'Asc' as 'asc' },
      { name: 'Size', direction: 'asc' },
    ]);
    expect(keys.map((k) => [k.name, k.desc])).toEqual([
      ['Size', true],
      ['Name', false],
      [null, false],
    ]);
    expect(compileSort(resource, undefined).map((k) => k.name)).toEqual(['Name', null]);
    expect(badRequest(() => compileSort(resource, [{ name: 'Nope', direction: 'asc' }]))).toBe(
      "Unknown sort column 'Nope'",
    );
    expect(badRequest(() => compileSort(resource, [{ name: 'Secret', direction: 'asc' }]))).toBe(
      "Unknown sort column 'Secret'",
    );
    expect(badRequest(() => compileSort(resource, [{ name: 'Name', direction: 'up' as 'asc' }]))).toMatch(
      /direction/,
    );
  });

  it('uses one row-value comparison for one direction and splits mixed directions into runs', () => {
    const same = compileSort(resource, [{ name: 'At', direction: 'desc' }]);
    expect(render(keysetPredicate(same, ['2024-01-01 00:00:00+00', 7]))).toMatchObject({
      sql: '(t.at, t.id) < ($1, $2)',
      params: ['2024-01-01 00:00:00+00', 7],
    });
    const mixed = compileSort(resource, [
      { name: 'Size', direction: 'asc' },
      { name: 'Name', direction: 'asc' },
      { name: 'At', direction: 'desc' },
    ]);
    expect(render(keysetPredicate(mixed, [1, 'n', 'd', 9])).sql).toBe(
      '(t.size, t.name) >= ($1, $2) and ((t.size, t.name) > ($3, $4) or ((t.size, t.name) = ($5, $6) and (t.at, t.id) < ($7, $8)))',
    );
  });
});

describe('compilePageQuery', () => {
  const secret = Buffer.from('s');
  it('refuses token paging on nullable or list sort keys, and bad limits', () => {
    expect(
      badRequest(() =>
        compilePageQuery(resource, {
          secret,
          request: { sorting: [{ name: 'Note', direction: 'asc' }], token: null },
        }),
      ),
    ).toBe('fetch by continuation token is not supported');
    expect(
      badRequest(() =>
        compilePageQuery(resource, {
          secret,
          request: { sorting: [{ name: 'Tags', direction: 'asc' }], token: 'x.y' },
        }),
      ),
    ).toBe('fetch by continuation token is not supported');
    // Offset paging of the same sort is fine.
    compilePageQuery(resource, {
      secret,
      request: { sorting: [{ name: 'Note', direction: 'asc' }], offset: 0 },
    });
    expect(badRequest(() => compilePageQuery(resource, { secret, request: { limit: 501 } }))).toMatch(
      /limit/,
    );
    expect(badRequest(() => compilePageQuery(resource, { secret, request: { limit: 0 } }))).toMatch(/limit/);
    expect(badRequest(() => compilePageQuery(resource, { secret, request: { offset: -1 } }))).toMatch(
      /offset/,
    );
    expect(badRequest(() => compilePageQuery(resource, { secret, request: { token: 'abc.def' } }))).toBe(
      'Invalid continuation token',
    );
  });

  it('orders by the sort keys then the id, fetching one extra row', () => {
    const { query } = compilePageQuery(resource, {
      secret,
      scope: sql`t.owner = ${'acme'}`,
      request: { sorting: [{ name: 'At', direction: 'desc' }], limit: 20, offset: 40 },
    });
    const q = render(query);
    expect(q.sql).toMatch(
      / from things t where \(t\.owner = \$1\) order by t\.at desc, t\.id desc limit 21 offset 40$/,
    );
    expect(q.params).toEqual(['acme']);
  });
});
