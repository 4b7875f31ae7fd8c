import type { FilterRule } from '@lp/contract/query/schemas';
import { type FilterColumns, filterPredicate } from '@lp/domain/filter-rules';
import { describe, expect, it } from 'vitest';
import { createApiClient } from './api-client.ts';
import { createDataService } from './data-service.ts';

const columns: FilterColumns = { id: 'number', name: 'text', note: 'text', sent: 'timestamp' };
const table = Array.from({ length: 42 }, (_, i) => ({
  id: i,
  name: `item ${i} ${i % 3 === 0 ? 'red' : 'blue'}`,
  note: i % 4 === 0 ? null : `note ${i % 2 === 0 ? 'x' : 'y'}`,
  sent: `2024-03-${String(10 + (i % 3)).padStart(2, '0')} 12:00:0${i % 10}`,
}));
const matches = (rule: FilterRule | undefined) => table.filter(filterPredicate(columns, rule));

/**
 * A fake server recording which calls reached it. It selects rows with the evaluator the engine's
 * property test holds to the SQL on PGlite and PostgreSQL, so its answers are the server's.
 */
function fakeServer(
  options: { failFirst?: number; hang?: boolean; held?: (body: { filter?: FilterRule }) => boolean } = {},
) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
  /** Answers of held calls, sent when the test releases them. */
  const releases: Array<() => void> = [];
  let failures = options.failFirst ?? 0;
  const client = createApiClient({
    sleep: async () => {},
    fetch: async (url, init) => {
      const body = JSON.parse(String(init?.body ?? '{}')) as {
        filter?: FilterRule;
        offset?: number;
        limit?: number;
      };
      calls.push({ url: String(url), body });
      if (options.hang) return new Promise<Response>(() => {});
      if (options.held?.(body)) await new Promise<void>((release) => releases.push(release));
      if (failures > 0) {
        failures--;
        return new Response('{}', { status: 503 });
      }
      const rows = matches(body.filter);
      const answer = String(url).endsWith('/count')
        ? { status: 'SUCCESS', data: rows.length }
        : {
            status: 'SUCCESS',
            data: rows.slice(body.offset ?? 0, (body.offset ?? 0) + (body.limit ?? 100)),
            token: null,
          };
      return new Response(JSON.stringify(answer), { status: 200 });
    },
  });
  return { client, calls, releases };
}

const contains = (value: string): FilterRule => ({
  condition: 'ALL',
  criteria: [{ name: 'name', method: 'CONTAINS', value, casefold: true }],
});

describe('data service', () => {
  it('posts filter, sorting, offset and limit to the base path', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client, columns });
    const block = await service.getBlock({
      filter: contains('red'),
      sorting: [{ name: 'id', direction: 'asc' }],
      startRow: 0,
      endRow: 10,
    });
    expect(calls[0]).toEqual({
      url: '/api/things',
      body: { filter: contains('red'), sorting: [{ name: 'id', direction: 'asc' }], offset: 0, limit: 10 },
    });
    expect(block.rows).toHaveLength(10);
    expect(block.lastRow).toBeUndefined();
  });

  it('answers a narrowing filter from memory once all rows are cached, and returns to the server when it widens', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client, columns });
    const first = await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 100 });
    expect(first.lastRow).toBe(42);
    expect(service.allRowsCached).toBe(true);

    const narrowed = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 100 });
    expect(narrowed.source).toBe('client');
    expect(narrowed.rows).toEqual(matches(contains('item 1')));
    expect(narrowed.lastRow).toBe(narrowed.rows.length);
    expect(calls).toHaveLength(1);

    const further = await service.getBlock({ filter: contains('item 1 red'), startRow: 0, endRow: 100 });
    expect(further.source).toBe('client');
    expect(calls).toHaveLength(1);

    const widened = await service.getBlock({ filter: undefined, startRow: 0, endRow: 100 });
    expect(widened.source).toBe('server');
    expect(widened.rows).toHaveLength(42);
    expect(calls).toHaveLength(2);
  });

  it('answers a negated criterion over NULL in memory with the rows the server selects', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client, columns });
    await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 100 });
    const rule: FilterRule = {
      condition: 'ALL',
      criteria: [...contains('item').criteria, { name: 'note', method: 'CONTAINS', value: 'x', not: true }],
    };
    const narrowed = await service.getBlock({ filter: rule, startRow: 0, endRow: 100 });
    expect(narrowed.source).toBe('client');
    // The engine's SQL is `not coalesce(note like '%x%', false)`: rows without a note match.
    expect(narrowed.rows.map((r) => r.id)).toEqual(
      table.filter((r) => r.note === null || !r.note.includes('x')).map((r) => r.id),
    );
    expect(narrowed.rows).toEqual(matches(rule));
    expect(calls).toHaveLength(1);

    const notEqual: FilterRule = {
      condition: 'ALL',
      criteria: [...rule.criteria, { name: 'note', method: 'NOT EQUAL', value: 'note y' }],
    };
    const further = await service.getBlock({ filter: notEqual, startRow: 0, endRow: 100 });
    expect(further.source).toBe('client');
    // Notes are 'note x', 'note y' or NULL: only the rows without a note are left.
    expect(further.rows.map((r) => r.id)).toEqual(table.filter((r) => r.note === null).map((r) => r.id));
    expect(calls).toHaveLength(1);
  });

  it('asks the server when the cached rows cannot decide the new filter', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client, columns });
    await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 100 });
    // An instant on the wire has whole seconds; the database decides within the second.
    const instant: FilterRule = {
      condition: 'ALL',
      criteria: [...contains('item').criteria, { name: 'sent', method: '>', value: '2024-03-11 12:00:00' }],
    };
    const answer = await service.getBlock({ filter: instant, startRow: 0, endRow: 100 });
    expect(answer.source).toBe('server');
    expect(answer.rows).toEqual(matches(instant));
    expect(calls).toHaveLength(2);

    // A whole-day criterion is decided in memory.
    const day: FilterRule = {
      condition: 'ALL',
      criteria: [...instant.criteria, { name: 'sent', method: 'AFTERDAY', value: '2024-03-11' }],
    };
    const narrowed = await service.getBlock({ filter: day, startRow: 0, endRow: 100 });
    expect(narrowed.source).toBe('client');
    expect(narrowed.rows).toEqual(matches(day));
    expect(calls).toHaveLength(2);
  });

  it('answers every new filter on the server when it has no column kinds', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client });
    await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 100 });
    const next = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 100 });
    expect(next.source).toBe('server');
    expect(next.rows).toEqual(matches(contains('item 1')));
    expect(calls).toHaveLength(2);
  });

  it("keeps an answer of a query it has left out of the current query's rows and total", async () => {
    // A period's rows were asked for, then the table's criteria changed before they came back.
    const { client, releases } = fakeServer({
      held: (body) => body.filter?.criteria[0]?.value === 'nothing',
    });
    const service = createDataService({ base: '/api/things', client, columns });
    const stale = service.getBlock({ filter: contains('nothing'), startRow: 0, endRow: 10 });
    const current = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 10 });
    expect(current.rows).toEqual(matches(contains('item 1')).slice(0, 10));
    for (const release of releases) release();
    expect((await stale).rows).toEqual([]);

    // The grid asks for the current query's block again (e.g. its columns changed): the stale empty answer has
    // not turned its total into 0.
    const again = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 10 });
    expect(again.rows).toEqual(matches(contains('item 1')).slice(0, 10));
    expect(again.lastRow).toBeUndefined();
    const rest = await service.getBlock({ filter: contains('item 1'), startRow: 10, endRow: 20 });
    expect(rest.lastRow).toBe(matches(contains('item 1')).length);
  });

  it('stays on the server while not every row is cached', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client, columns });
    await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 10 });
    const next = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 10 });
    expect(next.source).toBe('server');
    expect(calls).toHaveLength(2);
  });

  it('reports "unable to fetch data after 5 attempts" when the server keeps failing', async () => {
    const { client, calls } = fakeServer({ failFirst: 10 });
    const service = createDataService({ base: '/api/things', client, columns });
    await expect(service.count(contains('x'))).rejects.toMatchObject({
      message: 'unable to fetch data after 5 attempts',
    });
    expect(calls.map((c) => c.url)).toEqual(Array(5).fill('/api/things/count'));
  });

  it('fails a slice that outlives the timeout with "data request timeout"', async () => {
    const { client } = fakeServer({ hang: true });
    const service = createDataService({ base: '/api/things', client, timeoutMs: 20 });
    await expect(service.getBlock({ startRow: 0, endRow: 10 })).rejects.toMatchObject({
      message: 'data request timeout',
    });
  });
});
