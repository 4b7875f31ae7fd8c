import type { FilterRule } from '@lp/contract/query/schemas';
import { describe, expect, it } from 'vitest';
import { createApiClient } from './api-client.ts';
import { createDataService } from './data-service.ts';
import { matchesRule, type Row } from './filter-rules.ts';

const table: Row[] = Array.from({ length: 42 }, (_, i) => ({
  id: i,
  name: `item ${i} ${i % 3 === 0 ? 'red' : 'blue'}`,
}));

/** A fake server with the same filter semantics, recording which calls reached it. */
function fakeServer(options: { failFirst?: number; hang?: boolean } = {}) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = [];
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
      if (failures > 0) {
        failures--;
        return new Response('{}', { status: 503 });
      }
      const rows = table.filter((r) => matchesRule(r, body.filter));
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
  return { client, calls };
}

const contains = (value: string): FilterRule => ({
  condition: 'ALL',
  criteria: [{ name: 'name', method: 'CONTAINS', value, casefold: true }],
});

describe('data service', () => {
  it('posts filter, sorting, offset and limit to the base path', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client });
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
    const service = createDataService({ base: '/api/things', client });
    const first = await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 100 });
    expect(first.lastRow).toBe(42);
    expect(service.allRowsCached).toBe(true);

    const narrowed = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 100 });
    expect(narrowed.source).toBe('client');
    expect(narrowed.rows).toEqual(table.filter((r) => matchesRule(r, contains('item 1'))));
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

  it('stays on the server while not every row is cached', async () => {
    const { client, calls } = fakeServer();
    const service = createDataService({ base: '/api/things', client });
    await service.getBlock({ filter: contains('item'), startRow: 0, endRow: 10 });
    const next = await service.getBlock({ filter: contains('item 1'), startRow: 0, endRow: 10 });
    expect(next.source).toBe('server');
    expect(calls).toHaveLength(2);
  });

  it('reports "unable to fetch data after 5 attempts" when the server keeps failing', async () => {
    const { client, calls } = fakeServer({ failFirst: 10 });
    const service = createDataService({ base: '/api/things', client });
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
