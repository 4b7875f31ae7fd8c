import { defineOperation } from '../common/operation.ts';
import { getEntitlementsRequestSchema, getEntitlementsResponseSchema } from './schemas.ts';

export const entitlementsApi = {
  elastic: defineOperation({
    operationId: 'listElasticEntitlements',
    method: 'post',
    path: '/api/getEntitlements',
    summary: "The account's elastic entitlements with what the ledger has drawn from each",
    auth: 'session',
    body: getEntitlementsRequestSchema,
    response: getEntitlementsResponseSchema,
  }),
} as const;
