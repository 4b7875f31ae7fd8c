import { useMemo, useRef, useState } from 'react';
import { type ApiClient, api } from './api-client.ts';

/**
 * Wraps `base` so that each call reports `count(1)` when it starts and `count(-1)` when it settles; a failure goes
 * to `onFailure` first, then on to the caller.
 */
export function countingClient(
  count: (delta: 1 | -1) => void,
  onFailure: (e: unknown) => void,
  base: ApiClient = api,
): ApiClient {
  return async <T>(path: string, options?: Parameters<ApiClient>[1]) => {
    count(1);
    try {
      return await base<T>(path, options);
    } catch (e) {
      onFailure(e);
      throw e;
    } finally {
      count(-1);
    }
  };
}

/**
 * An api client for a table's data service that counts its calls in flight, for the spinner shown while any is
 * out. The client stays the same while the component is mounted; a failure goes to the latest `onFailure`.
 */
export function useCountingClient(onFailure: (e: unknown) => void): { client: ApiClient; inFlight: number } {
  const [inFlight, setInFlight] = useState(0);
  const onFailureRef = useRef(onFailure);
  onFailureRef.current = onFailure;
  const client = useMemo(
    () =>
      countingClient(
        (delta) => setInFlight((n) => n + delta),
        (e) => onFailureRef.current(e),
      ),
    [],
  );
  return { client, inFlight };
}
