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
    description:
      "The account's Flexible Spending Account contracts with budget, amount used and remaining balance, from the FSA order ledger. The account is named by `customerNumber`; a user who may not see it gets 403, as for an unknown account.",
    auth: 'session',
    effect: 'read',
    body: fsaAccountRequestSchema,
    response: fsaContractsResponseSchema,
  }),
  products: defineOperation({
    operationId: 'listFsaProducts',
    method: 'post',
    path: '/api/fsa/products',
    summary: "An FSA contract's orderable products and their prices in cents (null = not offered)",
    description:
      'The products one FSA contract can order and their prices in cents per period; null where a product is not offered for a period.',
    auth: 'session',
    effect: 'read',
    statuses: {
      404: 'No such FSA contract of the account.',
    },
    body: fsaProductsRequestSchema,
    response: fsaProductsResponseSchema,
  }),
  history: defineOperation({
    operationId: 'listFsaOrderHistory',
    method: 'post',
    path: '/api/fsa/history',
    summary: "The account's FSA order lines (manual lines only for business operations)",
    description:
      "The account's FSA order lines, newest first; manual lines only for business operations staff.",
    auth: 'session',
    effect: 'read',
    body: fsaAccountRequestSchema,
    response: fsaHistoryResponseSchema,
  }),
  order: defineOperation({
    operationId: 'orderFsaEntitlements',
    method: 'post',
    path: '/api/entitlements',
    summary:
      'Orders lease entitlements against an FSA contract: each line priced on the server and drawn from the balance under the contract lock; idempotent with orderKey',
    description:
      "Orders lease entitlements against an FSA contract. Each line is priced on the server and drawn from the contract's balance under its row lock, never below zero; lines that do not fit are answered with their error while the others are created. Idempotent with `orderKey`; a drawn order e-mails the contract's business operations list.",
    auth: 'session',
    effect: 'keyed',
    keyField: 'orderKey',
    statuses: {
      404: 'No such FSA contract of the account.',
      409: 'The `orderKey` was already used for another order.',
    },
    body: fsaOrderRequestSchema,
    response: fsaOrderResponseSchema,
  }),
} as const;
