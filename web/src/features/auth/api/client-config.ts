import type { ClientConfig } from '@lp/contract/platform/schemas';
import { api } from '../../../lib/api-client.ts';
import type { Environment } from '../../../lib/app-context.tsx';

/** GET /api/config (public): what the app needs before it renders. */
export const getClientConfig = () => api<ClientConfig>('/api/config');

/** GET /api/environment: 'dev', 'uat', anything else (or an error) is prod (spec 000 §7, §8). */
export async function getEnvironment(): Promise<Environment> {
  try {
    const text = (await api<string>('/api/environment', { as: 'text' })).trim().replace(/^"|"$/g, '');
    return text === 'dev' || text === 'uat' ? text : 'prod';
  } catch (e) {
    console.warn('Could not load the environment', e);
    return 'prod';
  }
}
