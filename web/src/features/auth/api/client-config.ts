import { platformApi } from '@lp/contract/platform/api';
import type { Environment } from '../../../lib/app-context.tsx';
import { call } from '../../../lib/call.ts';

/** Public: what the app needs before it renders. */
export const getClientConfig = () => call(platformApi.config);

/** 'dev', 'uat', anything else (or an error) is prod (spec 000 §7, §8). */
export async function getEnvironment(): Promise<Environment> {
  try {
    const text = (await call(platformApi.environment)).trim().replace(/^"|"$/g, '');
    return text === 'dev' || text === 'uat' ? text : 'prod';
  } catch (e) {
    console.warn('Could not load the environment', e);
    return 'prod';
  }
}
