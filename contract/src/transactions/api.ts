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
  description:
    "Usage sessions the account's elastic license servers reported (user, host, product, start, end, usage). The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account. A page may hold up to the CSV export's maximum rows; pages above 1000 rows are streamed and limited per user and per server node.",
  page: {
    body: fetchUsageRequestSchema,
    response: fetchUsageResponseSchema,
    statuses: {
      429: 'The user already has as many large pages (exports) running as allowed; try again in a moment.',
    },
  },
  count: { body: usageCountRequestSchema },
  distinct: { body: usageDistinctRequestSchema },
});
