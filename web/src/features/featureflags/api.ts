import type { FeaturesData } from '@lp/contract/featureflags/schemas';
import { api } from '../../lib/api-client.ts';

/** GET /api/featureflag/features (spec 000 §7). */
export const getFeatures = () =>
  api<{ status: 'SUCCESS'; data: FeaturesData }>('/api/featureflag/features').then((r) => r.data);

/** POST /api/featureflag/features with the names to enable (spec 000 §4.7). */
export const saveFeatures = (features: string[]) =>
  api<{ status: 'SUCCESS'; data: { enabled: string[] } }>('/api/featureflag/features', {
    method: 'POST',
    body: { features },
  }).then((r) => r.data.enabled);
