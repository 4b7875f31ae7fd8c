import type { FilterRule } from '@lp/contract/query/schemas';
import { useCallback, useRef } from 'react';

/**
 * The pager's row count ("1 to 20 of 53"): one `/count` call per filter, remembered while the table is shown; a
 * failed count is forgotten so the next page asks again; `forgetCounts` drops them all when the data changed.
 */
export function useCountPerFilter(service: { count(rule?: FilterRule | null): Promise<number> }) {
  const counts = useRef(new Map<string, Promise<number>>());
  const forgetCounts = useCallback(() => counts.current.clear(), []);
  const countFor = useCallback(
    (rule?: FilterRule | null) => {
      const key = JSON.stringify(rule ?? null);
      let total = counts.current.get(key);
      if (!total) {
        total = service.count(rule);
        counts.current.set(key, total);
        total.catch(() => counts.current.delete(key));
      }
      return total;
    },
    [service],
  );
  return { countFor, forgetCounts };
}
