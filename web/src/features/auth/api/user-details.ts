import { userApi } from '@lp/contract/user/api';
import type { CurrentUser } from '@lp/contract/user/schemas';
import type { ApiClient } from '../../../lib/api-client.ts';
import { call } from '../../../lib/call.ts';

/** Who the server says is signed in. */
export async function getUserDetails(client?: ApiClient): Promise<CurrentUser> {
  return (await call(userApi.details, undefined, { client })).data;
}
