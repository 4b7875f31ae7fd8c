import { queryOperations } from '../query/operations.ts';
import {
  fetchUsageRequestSchema,
  fetchUsageResponseSchema,
  usageCountRequestSchema,
  usageDistinctRequestSchema,
} from './schemas.ts';

/** Usage transactions (sessions) of an account; distinct dates come as YYYY-MM-DD HH:mm:ss. */
export const transactionsApi = queryOperations({
  name: 'Usage',
  path: '/api/fetchUsage',
  summary: 'Usage transactions (sessions) of an account',
  page: { body: fetchUsageRequestSchema, response: fetchUsageResponseSchema },
  count: { body: usageCountRequestSchema },
  distinct: { body: usageDistinctRequestSchema },
});
