import { defineOperation } from '../common/operation.ts';
import {
  fsaAccountRequestSchema,
  fsaContractsResponseSchema,
  fsaHistoryResponseSchema,
  fsaOrderRequestSchema,
  fsaOrderResponseSchema,
  fsaProductsRequestSchema,
  fsaProductsResponseSchema,
} from './schemas.ts';

/** Spec 002 §7 "FSA" (the order call) and the reads the spec leaves to us (issue 12 §1, decision 036). */
export const fsaApi = {
  contracts: defineOperation({
    operationId: 'listFsaContracts',
    method: 'post',
    path: '/api/fsa/contracts',
    summary: "The account's FSA contracts with budget, used and remaining from the FSA ledger",
    auth: 'session',
    body: fsaAccountRequestSchema,
    response: fsaContractsResponseSchema,
  }),
  products: defineOperation({
    operationId: 'listFsaProducts',
    method: 'post',
    path: '/api/fsa/products',
    summary: "An FSA contract's orderable products and their prices in cents (null = not offered)",
    auth: 'session',
    body: fsaProductsRequestSchema,
    response: fsaProductsResponseSchema,
  }),
  history: defineOperation({
    operationId: 'listFsaOrderHistory',
    method: 'post',
    path: '/api/fsa/history',
    summary: "The account's FSA order lines (manual lines only for business operations)",
    auth: 'session',
    body: fsaAccountRequestSchema,
    response: fsaHistoryResponseSchema,
  }),
  order: defineOperation({
    operationId: 'orderFsaEntitlements',
    method: 'post',
    path: '/api/entitlements',
    summary:
      'Orders lease entitlements against an FSA contract: each line priced on the server and drawn from the balance under the contract lock; idempotent with orderKey',
    auth: 'session',
    body: fsaOrderRequestSchema,
    response: fsaOrderResponseSchema,
  }),
} as const;
