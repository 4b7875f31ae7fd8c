import type { CurrentUser } from '@lp/contract/user/schemas';
import { type ApiClient, api } from '../../../lib/api-client.ts';

/** GET /api/getUserDetails: who the server says is signed in. */
export async function getUserDetails(client: ApiClient = api): Promise<CurrentUser> {
  const answer = await client<{ status: 'SUCCESS'; data: CurrentUser }>('/api/getUserDetails');
  return answer.data;
}
