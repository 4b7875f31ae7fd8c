import { featureFlagsApi } from '@lp/contract/featureflags/api';
import { call } from '../../lib/call.ts';

/** Spec 000 §7. */
export const getFeatures = () => call(featureFlagsApi.list).then((r) => r.data);

/** Enables exactly these feature names (spec 000 §4.7). */
export const saveFeatures = (features: string[]) =>
  call(featureFlagsApi.save, { features }).then((r) => r.data.enabled);
