import { fsaApi } from '@lp/contract/fsa/api';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';
import type { FsaOrderBody } from '../order-lines.ts';

/** The account's FSA contracts with their ledger balances and the server's classification (decision 036). */
export const fsaContractsQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: ['fsa-contracts', customerNumber] as const,
    queryFn: async () => (await call(fsaApi.contracts, { customerNumber })).data,
  });

/** The account's FSA order lines (the server leaves out manual lines for all but business operations). */
export const fsaHistoryQuery = (customerNumber: string) =>
  queryOptions({
    queryKey: ['fsa-history', customerNumber] as const,
    queryFn: async () => (await call(fsaApi.history, { customerNumber })).data,
  });

/** A contract's orderable products with their prices in cents (decision 036). */
export const fsaProductsQuery = (customerNumber: string, entitlementId: string) =>
  queryOptions({
    queryKey: ['fsa-products', customerNumber, entitlementId] as const,
    queryFn: async () => (await call(fsaApi.products, { customerNumber, entitlementId })).data,
  });

/** POST /api/entitlements: one answer per line, in the request's order. */
export const orderFsaEntitlements = async (body: FsaOrderBody) => (await call(fsaApi.order, body)).data;
