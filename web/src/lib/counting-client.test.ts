import { describe, expect, it } from 'vitest';
import { type ApiClient, ApiError } from './api-client.ts';
import { countingClient } from './counting-client.ts';

function setup(base: ApiClient) {
  let inFlight = 0;
  const seen: number[] = [];
  const failures: unknown[] = [];
  const client = countingClient(
    (delta) => {
      inFlight += delta;
      seen.push(inFlight);
    },
    (e) => failures.push(e),
    base,
  );
  return { client, seen, failures, inFlight: () => inFlight };
}

describe('counting client', () => {
  it('counts calls in flight and passes the path, options and answer through', async () => {
    const releases: Array<() => void> = [];
    const calls: Array<[string, unknown]> = [];
    const base = (<T>(path: string, options?: Parameters<ApiClient>[1]) => {
      calls.push([path, options]);
      return new Promise<T>((resolve) => releases.push(() => resolve(path as T)));
    }) as ApiClient;
    const { client, seen, failures, inFlight } = setup(base);
    const first = client<string>('/a', { body: { x: 1 } });
    const second = client<string>('/b');
    expect(inFlight()).toBe(2);
    releases[0]();
    await expect(first).resolves.toBe('/a');
    expect(inFlight()).toBe(1);
    releases[1]();
    await expect(second).resolves.toBe('/b');
    expect(seen).toEqual([1, 2, 1, 0]);
    expect(calls).toEqual([
      ['/a', { body: { x: 1 } }],
      ['/b', undefined],
    ]);
    expect(failures).toEqual([]);
  });

  it('hands a failure to onFailure, rethrows it and still counts the call down', async () => {
    const error = new ApiError(403, 'No permission');
    const { client, seen, failures } = setup((async () => {
      throw error;
    }) as ApiClient);
    await expect(client('/a')).rejects.toBe(error);
    expect(failures).toEqual([error]);
    expect(seen).toEqual([1, 0]);
  });
});
