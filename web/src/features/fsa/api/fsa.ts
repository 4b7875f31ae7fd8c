import { fsaApi } from '@lp/contract/fsa/api';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../../lib/call.ts';

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
