import type { Operation } from '../common/operation.ts';
import { countResponseSchema, distinctResponseSchema } from '../query/schemas.ts';
import {
  fetchUsageRequestSchema,
  fetchUsageResponseSchema,
  usageCountRequestSchema,
  usageDistinctRequestSchema,
} from './schemas.ts';

export const transactionsApi: Operation[] = [
  {
    method: 'post',
    path: '/api/fetchUsage',
    summary: 'Usage transactions (sessions) of an account: filter, sort, page by offset or token',
    body: fetchUsageRequestSchema,
    response: fetchUsageResponseSchema,
  },
  {
    method: 'post',
    path: '/api/fetchUsage/count',
    summary: 'Count of usage transactions matching a filter',
    body: usageCountRequestSchema,
    response: countResponseSchema,
  },
  {
    method: 'post',
    path: '/api/fetchUsage/distinct',
    summary: 'Distinct values of one usage transaction column (dates as YYYY-MM-DD HH:mm:ss)',
    body: usageDistinctRequestSchema,
    response: distinctResponseSchema,
  },
];
