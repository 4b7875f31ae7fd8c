import type { Operation } from '../common/operation.ts';
import { getEntitlementsRequestSchema, getEntitlementsResponseSchema } from './schemas.ts';

export const entitlementsApi: Operation[] = [
  {
    method: 'post',
    path: '/api/getEntitlements',
    summary: "The account's elastic entitlements with what the ledger has drawn from each",
    body: getEntitlementsRequestSchema,
    response: getEntitlementsResponseSchema,
  },
];
