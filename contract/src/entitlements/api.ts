import { defineOperation } from '../common/operation.ts';
import { getEntitlementsRequestSchema, getEntitlementsResponseSchema } from './schemas.ts';

export const entitlementsApi = {
  elastic: defineOperation({
    operationId: 'listElasticEntitlements',
    method: 'post',
    path: '/api/getEntitlements',
    summary: "The account's elastic entitlements with what the ledger has drawn from each",
    description:
      "The account's elastic entitlements (products, periods, prices) with the amount the usage ledger has drawn from each and what is left. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: getEntitlementsRequestSchema,
    response: getEntitlementsResponseSchema,
  }),
} as const;
