import type { FeaturesData } from '@lp/contract/featureflags/schemas';
import { isRouteEnabled } from '@lp/domain/feature-flags';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { getFeatures } from './api.ts';

export const featuresQueryKey = ['featureflags'] as const;

const empty: FeaturesData = { features: [], enabled: [], overridable: false };

/**
 * The feature list and the set in force. Spec 000 §8: a failed load is logged and treated as an
 * empty list, which (see isRouteEnabled) leaves every route reachable rather than locking users out.
 */
export function useFeatures() {
  const query = useQuery({
    queryKey: featuresQueryKey,
    queryFn: async () => {
      try {
        return await getFeatures();
      } catch (e) {
        console.warn('Could not load the feature flags', e);
        return empty;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  const data = query.data ?? empty;
  const defined = useMemo(() => new Set(data.features.map((f) => f.name)), [data]);
  const enabled = useMemo(() => new Set(data.enabled), [data]);
  const routeEnabled = useCallback(
    (pathname: string) => isRouteEnabled(pathname, defined, enabled),
    [defined, enabled],
  );
  return { loading: query.isPending, data, routeEnabled };
}
